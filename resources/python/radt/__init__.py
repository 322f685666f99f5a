# SPDX-License-Identifier: MIT
"""radt helper module: log software metrics from a training script into the run radt records.

Standard library only. Under `radt script.py`, every call writes one JSON line to the metrics
pipe radt reads (RADT_METRICS_FD); outside radt every call does nothing, so the same script
runs unchanged on its own.

    import radt
    with radt.run.RADTBenchmark() as run:
        for epoch in range(epochs):
            ...
            run.log_metric("loss", loss, epoch)

As in radT, logging a metric stops the script (SystemExit, exit code 0) once `epoch` reaches
`radt -i/--epoch N` or the run has lasted `radt -t/--time M` minutes.
"""

from . import run
from .run import RADTBenchmark, log_metric, log_metrics, log_param, log_params, set_tag, log_artifact

__all__ = ["run", "RADTBenchmark", "log_metric", "log_metrics", "log_param", "log_params",
           "set_tag", "log_artifact"]
