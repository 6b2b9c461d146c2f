#!/usr/bin/env bash
# GPU check of the CUPTI collector, run ON a GPU machine (CUDA, CMake and PyTorch + Transformers there; no Qt,
# no SQLite dev files, no package registry). From the repository root:
#     OUT=/some/folder tests/gpu/collector-check.sh
# Builds only the collector (-DCNP_COLLECTOR_ONLY=ON), then runs resources/workloads/llama_train.py
#   plain x3 and under the collector x3 (interleaved, same flags; PAIRS=3), under torch.profiler x1, and once under the
#   collector with CNP_CAPTURE=steps:4:3,
# and writes to $OUT: results.json (wall-clock step times of every run, the profiler's per-step kernel counts,
# cnpt-dump summaries), the .cnpt files (gzip), the profiler's Chrome trace (gzip) and log.txt.
# tests/gpu/validate.sh checks the results on the workstation. Takes about 3 minutes on one H200.
# If the collector cannot be built here, a prebuilt one in .device-carry/prebuilt/ is used (and said so).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$root/out/gpu-check}
mkdir -p "$OUT"
exec > >(tee "$OUT/log.txt") 2>&1
log() { echo "[check $(date +%T)] $*"; }
STEPS=${STEPS:-25}
MODEL=(--layers 8 --hidden 1536 --batch 4 --seq 2048)
work=$(mktemp -d)

log "machine: $(nvidia-smi -L 2>&1 | head -1); $(python3 -c 'import torch,transformers;print("torch",torch.__version__,"cuda",torch.version.cuda,"transformers",transformers.__version__)' 2>&1)"

# --- build the collector only ------------------------------------------------------------------------
cupti_root=""
if [ ! -f /usr/local/cuda/include/cupti.h ] && [ ! -f /usr/local/cuda/extras/CUPTI/include/cupti.h ]; then
  hdr=$(find /usr/local /opt -name cupti.h -path '*include*' 2>/dev/null | head -1)
  [ -n "$hdr" ] && cupti_root=$(dirname "$(dirname "$hdr")")
fi
log "CUPTI root: ${cupti_root:-toolkit default}"
build=$work/build
collector="" dump=""
if cmake -S "$root" -B "$build" -G Ninja -DCNP_COLLECTOR_ONLY=ON -DCMAKE_BUILD_TYPE=Release \
       ${cupti_root:+-DCNP_CUPTI_ROOT=$cupti_root} >"$work/cmake.log" 2>&1 &&
   ninja -C "$build" cnp-collector cnpt-dump >"$work/ninja.log" 2>&1; then
  collector=$build/lib/libcnp-collector.so dump=$build/bin/cnpt-dump
  log "built the collector here: $(grep -h 'CUPTI:' "$work/cmake.log")"
else
  tail -20 "$work/cmake.log" "$work/ninja.log"
  if [ -f "$root/.device-carry/prebuilt/libcnp-collector.so" ]; then
    collector=$root/.device-carry/prebuilt/libcnp-collector.so dump=$root/.device-carry/prebuilt/cnpt-dump
    log "BUILD FAILED here; using the prebuilt collector from .device-carry/prebuilt"
  else
    log "BUILD FAILED and no prebuilt collector: giving up"; exit 1
  fi
fi
ldd "$collector" | sed 's/^/    /'

run() { # name, extra env..., -- workload args
  local name=$1; shift
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  log "run $name"
  env "${envs[@]}" PYTHONUNBUFFERED=1 timeout 240 python3 "$root/resources/workloads/llama_train.py" \
      "${MODEL[@]}" --json-out "$work/$name.json" "$@" 2>&1 | grep -v '^step [0-9]*: ' | tail -5
  python3 -c "import json,statistics as s;d=json.load(open('$work/$name.json'));m=d['step_ms'][3:];print('   median step (after 3) %.2f ms over %d steps'%(s.median(m),len(m)))" 2>&1
}

inject=(CUDA_INJECTION64_PATH="$collector" CNP_CONFIG=gpu-check)
PAIRS=${PAIRS:-3}
for i in $(seq 1 "$PAIRS"); do
  run plain$i -- --steps "$STEPS"
  run collector$i "${inject[@]}" CNP_OUTPUT_DIR="$work/c$i" CNP_RUN=collector$i -- --steps "$STEPS"
done
run profiler -- --steps 10 --profile "$OUT/profiler-trace.json.gz"
run capture "${inject[@]}" CNP_OUTPUT_DIR="$work/capture" CNP_RUN=capture CNP_CAPTURE=steps:4:3 -- --steps 10

# --- summarise -------------------------------------------------------------------------------------------
for d in $(seq -f 'c%g' 1 "$PAIRS") capture; do
  f=$(ls "$work/$d"/*.cnpt 2>/dev/null | head -1)
  if [ -z "$f" ]; then log "no .cnpt file in $d"; continue; fi
  "$dump" "$f" | grep -v '^  step' | head -40
  "$dump" "$f" --json >"$work/$d.dump.json"
  case $d in c1|c2|capture) gzip -c "$f" >"$OUT/$d.cnpt.gz"; ls -la "$f" "$OUT/$d.cnpt.gz";; esac
done
python3 - "$work" "$OUT" <<'PY'
import json, os, statistics, sys
work, out = sys.argv[1], sys.argv[2]
res = {"runs": {}, "dumps": {}}
for n in sorted(os.path.basename(p)[:-5] for p in os.listdir(work) if p.endswith(".json") and not p.endswith(".dump.json")):
    p = os.path.join(work, n + ".json")
    if os.path.exists(p):
        res["runs"][n] = json.load(open(p))
for p in sorted(os.listdir(work)):
    if p.endswith(".dump.json"):
        res["dumps"][p[:-10]] = json.load(open(os.path.join(work, p)))
json.dump(res, open(os.path.join(out, "results.json"), "w"), indent=1)
med = lambda xs: statistics.median(xs[3:]) if len(xs) > 3 else float("nan")
r = res["runs"]
plain = [x for n in r if n.startswith("plain") for x in r[n]["step_ms"][3:]]
coll = [x for n in r if n.startswith("collector") for x in r[n]["step_ms"][3:]]
for n in sorted(r):
    print(f"  {n:12s} median step {med(r[n]['step_ms']):.2f} ms")
if plain and coll:
    mp, mc = statistics.median(plain), statistics.median(coll)
    print(f"median step: plain {mp:.2f} ms, collector {mc:.2f} ms -> overhead {100*(mc/mp-1):+.2f}%")
if "profiler" in r and plain:
    mpf = med(r["profiler"]["step_ms"])
    print(f"median step under torch.profiler {mpf:.2f} ms -> overhead {100*(mpf/mp-1):+.2f}%")
    print("profiler kernels per step:", r["profiler"].get("profiler_kernels_per_step"))
for d, v in res["dumps"].items():
    print(d, "records", v["records"], "dropped", v["dropped"], "unlaunched", v["kernels_without_launch"],
          "kernels/step", sorted(set((s["kernels"]) for s in v["steps"])), "steps", len(v["steps"]))
for n in ("collector1", "profiler"):
    if n in r:
        print(n, "loaded:", r[n].get("loaded_cupti"))
PY
ls -la "$OUT"
log "done"
