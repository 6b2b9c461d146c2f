#!/usr/bin/env bash
# A/B of the collector's step-time overhead, run ON a GPU machine: is a change in overhead the collector's
# or the machine's? Builds the collector of this tree and of an older tree (OLD, a source export such as
#     mkdir -p .device-carry/old && git archive REV CMakeLists.txt collectors | tar -x -C .device-carry/old
# carried to the machine), then runs resources/workloads/llama_train.py plain, under this collector and under
# the old one, interleaved PAIRS times (same flags as collector-check.sh), and prints each median step and
# both overheads against the plain runs of the same session. About 25 s a run on one H200.
#     OLD=.device-carry/old PAIRS=3 OUT=/some/folder tests/gpu/overhead-ab.sh
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$root/out/overhead-ab}
OLD=${OLD:-$root/.device-carry/old}
PAIRS=${PAIRS:-3}
STEPS=${STEPS:-25}
MODEL=(--layers 8 --hidden 1536 --batch 4 --seq 2048)
mkdir -p "$OUT"
exec > >(tee "$OUT/log.txt") 2>&1
work=$(mktemp -d)
build() { # source dir, build dir -> prints the library path
  cmake -S "$1" -B "$2" -G Ninja -DCNP_COLLECTOR_ONLY=ON -DCMAKE_BUILD_TYPE=Release >"$2.log" 2>&1 &&
    ninja -C "$2" cnp-collector >>"$2.log" 2>&1 && echo "$2/lib/libcnp-collector.so"
}
new=$(build "$root" "$work/new") || { tail -20 "$work/new.log"; exit 1; }
old=$(build "$OLD" "$work/old") || { tail -20 "$work/old.log"; exit 1; }
run() { # name, env...
  local name=$1; shift
  env "$@" PYTHONUNBUFFERED=1 CNP_CONFIG=ab CNP_OUTPUT_DIR="$work/out-$name" timeout 240 \
    python3 "$root/resources/workloads/llama_train.py" "${MODEL[@]}" --steps "$STEPS" \
    --json-out "$work/$name.json" >/dev/null 2>&1 || echo "run $name failed"
  python3 -c "import json,statistics as s;print('$name', '%.2f ms' % s.median(json.load(open('$work/$name.json'))['step_ms'][3:]))"
}
for i in $(seq 1 "$PAIRS"); do
  run plain$i
  run new$i CUDA_INJECTION64_PATH="$new"
  run old$i CUDA_INJECTION64_PATH="$old"
done
python3 - "$work" "$PAIRS" <<'PY' | tee "$OUT/summary.txt"
import json, statistics as st, sys
work, pairs = sys.argv[1], int(sys.argv[2])
steps = lambda n: json.load(open(f"{work}/{n}.json"))["step_ms"][3:]
pooled = {}
for kind in ("plain", "new", "old"):
    per = [st.median(steps(f"{kind}{i}")) for i in range(1, pairs + 1)]
    pooled[kind] = st.median([x for i in range(1, pairs + 1) for x in steps(f"{kind}{i}")])
    print(f"{kind:6s} per-run medians " + " ".join(f"{m:.2f}" for m in per) + f"  pooled {pooled[kind]:.2f} ms")
for kind in ("new", "old"):
    print(f"overhead {kind}: {100 * (pooled[kind] / pooled['plain'] - 1):+.2f}%")
PY
