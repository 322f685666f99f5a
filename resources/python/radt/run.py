# SPDX-License-Identifier: MIT
"""The metrics channel protocol of radt (one JSON object per line) behind radT's API."""

import json
import math
import os
import sys
import threading
import time

_lock = threading.Lock()
_stream = None
_opened = False


def _channel():
    """The pipe to radt, or None outside radt (then every call is a no-op)."""
    global _stream, _opened
    if _opened:
        return _stream
    _opened = True
    fd = os.environ.get("RADT_METRICS_FD")
    if not fd:
        return None
    try:
        # closefd=False: forked DataLoader workers share the descriptor; never close it under them.
        _stream = os.fdopen(int(fd), "w", buffering=1, encoding="utf-8", closefd=False)
    except (OSError, ValueError):
        _stream = None
    return _stream


def _send(message):
    stream = _channel()
    if stream is None:
        return
    line = json.dumps(message, separators=(",", ":"), allow_nan=False) + "\n"
    with _lock:
        try:
            stream.write(line)
        except (BrokenPipeError, OSError):
            # radt is gone: keep training, stop trying.
            global _stream
            _stream = None


def _number(value):
    value = float(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return value


def _int_env(name):
    try:
        return int(float(os.environ.get(name, "0") or 0))
    except ValueError:
        return 0


def log_metric(name, value, step=0):
    _send({"metric": str(name), "value": _number(value), "step": int(step or 0),
           "timestamp": int(time.time() * 1000)})


def log_metrics(metrics, step=0):
    for name, value in metrics.items():
        log_metric(name, value, step)


def log_param(key, value):
    _send({"param": str(key), "value": str(value)})


def log_params(params):
    for key, value in params.items():
        log_param(key, value)


def set_tag(key, value):
    _send({"tag": str(key), "value": str(value)})


def log_artifact(path):
    _send({"artifact": os.path.abspath(str(path))})


class RADTBenchmark:
    """radT's context manager. Inside radt it marks the measured block (radt --manual starts the
    listeners on entry and stops them on exit) and enforces --epoch / --time limits."""

    def __init__(self):
        self.active = _channel() is not None
        self.run_id = os.environ.get("RADT_RUN_ID")
        self.max_epoch = _int_env("RADT_MAX_EPOCH")
        self.max_time = _int_env("RADT_MAX_TIME")
        self._start = time.time()

    def __enter__(self):
        self._start = time.time()
        _send({"control": "start"})
        return self

    def __exit__(self, exc_type, exc, traceback):
        _send({"control": "stop"})
        stream = _channel()
        if stream is not None:
            try:
                stream.flush()
            except OSError:
                pass
        return False

    def _check_limits(self, epoch):
        if not self.active:
            return
        if self.max_epoch and epoch is not None and int(epoch) >= self.max_epoch:
            print("Maximum epoch reached", flush=True)
            sys.exit()
        if self.max_time and time.time() - self._start > self.max_time:
            print("Maximum time reached", flush=True)
            sys.exit()

    def log_metric(self, name, value, epoch=0):
        log_metric(name, value, epoch)
        self._check_limits(epoch)

    def log_metrics(self, metrics, epoch=0):
        log_metrics(metrics, epoch)
        self._check_limits(epoch)

    def log_param(self, key, value):
        log_param(key, value)

    def log_params(self, params):
        log_params(params)

    def set_tag(self, key, value):
        set_tag(key, value)

    def log_artifact(self, path):
        log_artifact(path)
