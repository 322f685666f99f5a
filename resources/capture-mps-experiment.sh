#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Records the MPS path of `radt experiment.csv` for real on a machine with an NVIDIA GPU, beside
# time-sliced pairs and runs alone (tests/fixtures/runs/h100_mps_experiment.db came from it).
# Reads and records only: radt starts and quits the MPS daemon itself; no MIG, clock or power
# setting is changed. BUNDLE is a radt made portable by resources/bundle-radt.sh.
#   bash resources/capture-mps-experiment.sh OUT_DIR BUNDLE_DIR
set -u
out=${1:?output folder}
repo=$PWD
b=$(cd "${2:?bundle folder}" && pwd)
work=/tmp/mpsx; rm -rf $work; mkdir -p $work
cp resources/examples/gpu_matmul.py $work/
export PYTHONPATH=$repo/resources/python
{ echo "# $(date -u +%FT%TZ)"; nvidia-smi -L; nvidia-smi --query-gpu=driver_version,compute_mode,mig.mode.current --format=csv
  for t in nvidia-cuda-mps-control nvidia-cuda-mps-server dcgmi; do echo "$t: $(command -v $t || echo absent)"; done
  python3 -c "import torch;print('torch',torch.__version__,torch.version.cuda)"; } > $out/env.txt 2>&1
P="--size 8192 --iters 120 --epochs 4"
L=smi+dmon+top+proc
cat > $work/h100_mps_experiment.csv <<CSV
Experiment,Workload,Status,Run,Devices,Collocation,File,Listeners,Params
h100-mps,1,,,0,-,gpu_matmul.py,$L,$P --seed 1
h100-mps,2,,,0,-,gpu_matmul.py,$L,$P --seed 2
h100-mps,3,,,0,-,gpu_matmul.py,$L,$P --seed 1
h100-mps,3,,,0,-,gpu_matmul.py,$L,$P --seed 2
h100-mps,4,,,0,MPS,gpu_matmul.py,$L,$P --seed 1
h100-mps,4,,,0,MPS,gpu_matmul.py,$L,$P --seed 2
h100-mps,5,,,0,MPS,gpu_matmul.py,$L,$P --seed 3
h100-mps,5,,,0,MPS,gpu_matmul.py,$L,$P --seed 4
CSV
# What the driver shows while the workloads run (under MPS the apps are M+C through the server).
( for i in $(seq 1 60); do echo "# $(date -u +%T)"; nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv,noheader,nounits 2>&1
    echo "mps: $(echo get_server_list | timeout 5 nvidia-cuda-mps-control 2>&1 | tr '\n' ' ')"; sleep 3; done ) > $out/during.txt 2>&1 &
poll=$!
cd $work
timeout 400 $b/ld-linux-x86-64.so.2 --library-path $b $b/radt --store $work/h100_mps_experiment.db h100_mps_experiment.csv > $out/radt.out 2> $out/radt.err
echo "exit $?" >> $out/radt.err
kill $poll 2>/dev/null
nvidia-smi > $out/after.txt 2>&1; echo "mps after: $(echo get_server_list | timeout 5 nvidia-cuda-mps-control 2>&1)" >> $out/after.txt
python3 -c "import sqlite3;c=sqlite3.connect('$work/h100_mps_experiment.db');print(c.execute('pragma journal_mode=DELETE').fetchone())" >> $out/after.txt 2>&1
cp $work/h100_mps_experiment.db $work/h100_mps_experiment.csv $out/
ls -la $work >> $out/after.txt
