#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Captures what the real GPU tools print on a machine with an NVIDIA GPU, for the replaying
# fakes of tests/fakes/ and the parser tests: the exact commands radt's listeners start, plus
# the neighbouring queries users ask about. Reads only: no MIG, MPS, clock or power setting is
# changed. With a radt bundle (resources/bundle-radt.sh) it also records one real run with the
# smi (and dcgmi, where installed) listeners into a SQLite store.
#   bash resources/capture-gpu-fixtures.sh OUT_DIR [BUNDLE_DIR]
set -u
out=${1:?output folder}
bundle=${2:-}
mkdir -p "$out"
cap() { # cap NAME TIMEOUT_S CMD...: stdout+stderr and exit status, each capture in its own file
  local name=$1 limit=$2
  shift 2
  { echo "# command: $*"; echo "# captured: $(date -u +%FT%TZ) on $(hostname)"; } >"$out/$name.txt"
  timeout "$limit" "$@" >>"$out/$name.txt" 2>&1
  echo "# exit: $?" >>"$out/$name.txt"
}
fields_radt="index,timestamp,power.draw,utilization.gpu,utilization.memory,memory.used,pstate"
cap nvidia-smi_plain 20 nvidia-smi
cap nvidia-smi_L 20 nvidia-smi -L
cap nvidia-smi_q 30 nvidia-smi -q
cap nvidia-smi_query-gpu_radt_lms100 5 nvidia-smi --query-gpu=$fields_radt --format=csv,noheader,nounits -lms 100 -i 0
cap nvidia-smi_query-gpu_header_units 20 nvidia-smi --query-gpu=$fields_radt,power.limit,temperature.gpu,clocks.sm,clocks.mem,memory.total,mig.mode.current --format=csv
cap nvidia-smi_query-gpu_power_nounits 20 nvidia-smi --query-gpu=index,timestamp,power.draw,power.draw.instant,power.draw.average --format=csv,noheader,nounits
# The fields this driver knows (an energy counter, where there is one, is named there).
cap nvidia-smi_help-query-gpu 20 nvidia-smi --help-query-gpu
# What the 580 driver printed for a field it does not know (tests/fixtures/tools/*_unknown_*).
cap nvidia-smi_query-gpu_unknown_energy_field 20 nvidia-smi --query-gpu=index,total_energy_consumption --format=csv
cap nvidia-smi_query-compute-apps 20 nvidia-smi --query-compute-apps=pid,gpu_uuid,used_memory --format=csv,noheader,nounits
cap nvidia-smi_dmon_c5 20 nvidia-smi dmon -c 5
# Every metric group with date and time columns, and a GPU that is not there.
cap nvidia-smi_dmon_pucvmet_DT 20 nvidia-smi dmon -s pucvmet -o DT -c 3
cap nvidia-smi_dmon_bad_index 20 nvidia-smi dmon -c 1 -i 99
cap nvidia-smi_mig_lgip 20 nvidia-smi mig -lgip
cap nvidia-smi_mig_lgi 20 nvidia-smi mig -lgi
cap nvidia-smi_bad_field 20 nvidia-smi --query-gpu=index,no.such.field --format=csv
cap nvidia-smi_bad_index 20 nvidia-smi --query-gpu=index --format=csv -i 99
if command -v dcgmi >/dev/null; then
  cap dcgmi_discovery 30 dcgmi discovery -l
  cap dcgmi_dmon_radt 15 dcgmi dmon -e 155,156,200,201,203,204,1001,1002,1003,1004,1005,1006,1007,1008,1009,1010,1011,1012 -d 100 -c 30
  cap dcgmi_dmon_short 15 dcgmi dmon -e 155,156,203 -c 5
else
  echo "dcgmi: not installed" >"$out/dcgmi_absent.txt"
fi
# A load on the GPU while radt records, where PyTorch or CuPy is there to make one.
load=""
for py in python3 python; do
  if command -v $py >/dev/null && $py -c "import torch; assert torch.cuda.is_available()" 2>/dev/null; then
    load="$py $out/load.py"
    cat >"$out/load.py" <<'PY'
import time, torch
a = torch.randn(8192, 8192, device="cuda")
time.sleep(2)  # idle first, then busy, then idle: a burst the insights must find
end = time.time() + 6
while time.time() < end:
    b = a @ a
    torch.cuda.synchronize()
print("epoch 0 done", flush=True)
time.sleep(2)
PY
    break
  fi
done
echo "load: ${load:-none (no PyTorch with CUDA)}" >"$out/load.txt"
# The dmon listener's own command (-s puctv) across an idle-busy-idle load.
if [ -n "$load" ]; then
  $load >"$out/load-dmon.out" 2>&1 &
  cap nvidia-smi_dmon_puctv_load 20 nvidia-smi dmon -s puctv -d 1 -i 0 -c 12
  wait
fi
if [ -n "$bundle" ] && [ -x "$bundle/radt" ]; then
  listeners=smi+dmon+top+proc
  command -v dcgmi >/dev/null && listeners=smi+dmon+dcgmi+top+proc
  workload=${load:-sleep 8}
  # The bundle's own loader and libraries: the machine may have another glibc or no libpqxx.
  (cd "$out" && timeout 60 "$bundle/ld-linux-x86-64.so.2" --library-path "$bundle" "$bundle/radt" \
      --store "$out/gpu-run.db" --interval 0.1 -l "$listeners" $workload \
      >"$out/radt-run.out" 2>"$out/radt-run.err"; echo "exit $?" >>"$out/radt-run.err")
  (cd "$out" && "$bundle/ld-linux-x86-64.so.2" --library-path "$bundle" "$bundle/radt" report 0 \
      --store "$out/gpu-run.db" >"$out/radt-report.txt" 2>&1)
  rm -rf "$out/radt-artifacts"
fi
ls -la "$out"
