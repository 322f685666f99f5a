#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A GPU workload for radt: a fixed amount of matrix multiplication (PyTorch, CUDA).

Each epoch multiplies two size x size float32 matrices --iters times, so a run always does the
same work and a collocated run's slowdown shows in its duration as in its epoch time. It idles
--idle seconds before and after (a burst between idle periods, as a data-loading stall would
give). Epoch time and achieved TFLOP/s go to the run with the epoch as step:

    radt -l smi+top+proc resources/examples/gpu_matmul.py --size 8192 --epochs 4 --seed 1
    radt resources/examples/h200_matmul_experiment.csv   # repeats, sizes, a collocated pair
"""
import argparse
import os
import sys
import time

try:
    import radt
except ImportError:  # run directly from a checkout, not under radt: use the module next door
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
    import radt


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=8192)
    parser.add_argument("--iters", type=int, default=60, help="multiplications per epoch")
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--idle", type=float, default=1.0, help="seconds idle before and after")
    args = parser.parse_args()
    import torch  # here, so that --help works without PyTorch

    if not torch.cuda.is_available():
        sys.exit("gpu_matmul.py: no CUDA device (PyTorch " + torch.__version__ + ")")
    torch.manual_seed(args.seed)
    a = torch.randn(args.size, args.size, device="cuda")
    b = torch.randn(args.size, args.size, device="cuda")
    torch.cuda.synchronize()
    time.sleep(args.idle)
    flops = 2.0 * args.size ** 3 * args.iters
    with radt.run.RADTBenchmark() as run:
        run.log_params({"size": args.size, "iters": args.iters, "seed": args.seed})
        for epoch in range(1, args.epochs + 1):
            start = time.monotonic()
            for _ in range(args.iters):
                c = a @ b
            torch.cuda.synchronize()
            seconds = time.monotonic() - start
            print(f"epoch {epoch}/{args.epochs}  {seconds:.3f}s  {flops / seconds / 1e12:.1f} TFLOP/s",
                  flush=True)
            run.log_metrics({"epoch time": seconds, "TFLOPS": flops / seconds / 1e12,
                             "checksum": float(c[0, 0])}, epoch)
    time.sleep(args.idle)


if __name__ == "__main__":
    main()
