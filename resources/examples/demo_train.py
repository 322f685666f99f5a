#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A CPU-only demo training workload for radt (Python 3 standard library only).

Trains a small two-layer perceptron with mini-batch SGD on a generated two-spirals data set and
prints loss and accuracy per epoch. The defaults take about a minute on one core, which gives
radt's listeners something real to record:

    radt resources/examples/demo_train.py --epochs 120 --batch-size 32

Loss, accuracy and epoch time go to the run through the radt helper module (software metrics,
with the epoch as step); `radt -i 5 ...` stops it after epoch 5, as radT does.
"""
import argparse
import math
import os
import random
import sys
import time

try:
    import radt
except ImportError:  # run directly from a checkout, not under radt: use the module next door
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
    import radt


def make_spirals(n, noise, rng):
    """n points on two interleaved spirals, labels 0/1."""
    data = []
    for i in range(n):
        label = i % 2
        t = rng.uniform(0.25, 3.0) * math.pi
        r = t / (3.0 * math.pi)
        sign = 1.0 if label == 0 else -1.0
        x = sign * r * math.cos(t) + rng.gauss(0, noise)
        y = sign * r * math.sin(t) + rng.gauss(0, noise)
        data.append(((x, y), label))
    return data


class MLP:
    """2 -> hidden (tanh) -> 1 (sigmoid), trained with plain SGD."""

    def __init__(self, hidden, rng):
        self.w1 = [[rng.gauss(0, 1.0), rng.gauss(0, 1.0)] for _ in range(hidden)]
        self.b1 = [0.0] * hidden
        self.w2 = [rng.gauss(0, 1.0 / math.sqrt(hidden)) for _ in range(hidden)]
        self.b2 = 0.0

    def forward(self, x):
        h = [math.tanh(w[0] * x[0] + w[1] * x[1] + b) for w, b in zip(self.w1, self.b1)]
        z = sum(a * w for a, w in zip(h, self.w2)) + self.b2
        z = max(-30.0, min(30.0, z))
        return h, 1.0 / (1.0 + math.exp(-z))

    def train_batch(self, batch, lr):
        hidden = len(self.b1)
        gw1 = [[0.0, 0.0] for _ in range(hidden)]
        gb1 = [0.0] * hidden
        gw2 = [0.0] * hidden
        gb2 = 0.0
        loss = 0.0
        for x, y in batch:
            h, p = self.forward(x)
            loss -= math.log(max(p, 1e-12)) if y else math.log(max(1.0 - p, 1e-12))
            d = p - y
            gb2 += d
            for j in range(hidden):
                gw2[j] += d * h[j]
                dh = d * self.w2[j] * (1.0 - h[j] * h[j])
                gw1[j][0] += dh * x[0]
                gw1[j][1] += dh * x[1]
                gb1[j] += dh
        scale = lr / len(batch)
        for j in range(hidden):
            self.w1[j][0] -= scale * gw1[j][0]
            self.w1[j][1] -= scale * gw1[j][1]
            self.b1[j] -= scale * gb1[j]
            self.w2[j] -= scale * gw2[j]
        self.b2 -= scale * gb2
        return loss

    def accuracy(self, data):
        return sum((self.forward(x)[1] > 0.5) == bool(y) for x, y in data) / len(data)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=120)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--data-size", type=int, default=12000, help="training points")
    parser.add_argument("--hidden", type=int, default=48, help="hidden units")
    parser.add_argument("--lr", type=float, default=0.5, help="learning rate")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-seconds", type=float, default=0, help="stop after this long (0: no limit)")
    args = parser.parse_args(argv)
    if args.epochs < 1 or args.batch_size < 1 or args.data_size < 2 or args.hidden < 1:
        parser.error("--epochs, --batch-size, --hidden must be >= 1 and --data-size >= 2")

    rng = random.Random(args.seed)
    train = make_spirals(args.data_size, 0.02, rng)
    test = make_spirals(max(200, args.data_size // 5), 0.02, rng)
    model = MLP(args.hidden, rng)
    print(f"demo_train: {args.data_size} points, {args.hidden} hidden units, batch size "
          f"{args.batch_size}, {args.epochs} epochs", flush=True)
    start = time.monotonic()
    with radt.run.RADTBenchmark() as run:
        run.log_params({"hidden": args.hidden, "lr": args.lr, "seed": args.seed})
        for epoch in range(1, args.epochs + 1):
            rng.shuffle(train)
            epoch_start = time.monotonic()
            loss = 0.0
            for i in range(0, len(train), args.batch_size):
                loss += model.train_batch(train[i:i + args.batch_size], args.lr)
            loss /= len(train)
            acc = model.accuracy(test)
            epoch_seconds = time.monotonic() - epoch_start
            print(f"epoch {epoch}/{args.epochs}  loss {loss:.4f}  test accuracy {acc:.3f}  "
                  f"({epoch_seconds:.1f}s)", flush=True)
            if args.max_seconds and time.monotonic() - start > args.max_seconds:
                print(f"demo_train: stopping after {time.monotonic() - start:.0f}s (--max-seconds)")
                break
            # Last: radT's limits stop the script here once the epoch is logged.
            run.log_metrics({"loss": loss, "accuracy": acc, "epoch time": epoch_seconds}, epoch)
    print(f"demo_train: done in {time.monotonic() - start:.1f}s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
