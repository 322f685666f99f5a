# SPDX-License-Identifier: MIT
"""`python3 -m radt train.py --batch-size 256`: radT's documented way to start a run, handed over
to the installed `radt` collector with the same arguments (standard library only)."""

import os
import shutil
import sys


def find_radt():
    """The radt executable: beside this module's install prefix, else on PATH."""
    here = os.path.dirname(os.path.abspath(__file__))
    # <prefix>/share/radt/python/radt/__main__.py -> <prefix>/bin/radt
    prefix = os.path.normpath(os.path.join(here, "..", "..", "..", ".."))
    candidates = [os.path.join(prefix, "bin", "radt"), shutil.which("radt")]
    for path in candidates:
        if path and os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


def main():
    radt = find_radt()
    if radt is None:
        sys.stderr.write("python -m radt: the radt collector is not installed (no radt on PATH); "
                         "install the radt package or build radt-explorer\n")
        return 2
    os.execv(radt, [radt] + sys.argv[1:])
    return 0  # not reached


if __name__ == "__main__":
    sys.exit(main())
