#!/usr/bin/env bash
# Checks the output of tests/gpu/collector-check.sh on the workstation (no GPU needed):
#     tests/gpu/validate.sh [DIR]        DIR default: tests/data/gpu-run (a copy of one GPU check's $OUT)
# Ingests every .cnpt(.gz) of DIR with `cnp ingest` (CNP=path/to/cnp, default build/app/cli/cnp), then checks
#  1. per-step kernel counts of every traced run (kernels whose launching API call, joined through the
#     workspace's flows, starts inside the step's NVTX range) equal torch.profiler's for the same eager steps;
#     with CNP_CAPTURE=steps:S:N only steps S..S+N-1 hold kernels, and those equal the profiler's;
#  2. the NVTX step ranges are present (one step per training step, from the step detector);
#  3. no dropped records (CUPTI's count in every collector run of the check, and skipped events at ingest);
#  4. the collector's step-time overhead <= 3% of the plain runs' median (steps after the first 3), with
#     torch.profiler's overhead from the same check printed beside it.
# Exit 0 when every check passes.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=${1:-$root/tests/data/gpu-run}
cnp=${CNP:-$root/build/app/cli/cnp}
[ -x "$cnp" ] || { echo "validate: no cnp at $cnp (build it, or set CNP=)"; exit 2; }
[ -f "$dir/results.json" ] || { echo "validate: $dir/results.json missing"; exit 2; }
ws=$(mktemp -d)/gpu-check.cnpdb
trap 'rm -rf "$(dirname "$ws")"' EXIT
shopt -s nullglob
files=("$dir"/*.cnpt "$dir"/*.cnpt.gz)
[ ${#files[@]} -gt 0 ] || { echo "validate: no .cnpt files in $dir"; exit 2; }
for f in "${files[@]}"; do
  name=$(basename "$f"); name=${name%.gz}; name=${name%.cnpt}
  "$cnp" ingest "$ws" "$f" --run "$name" || { echo "validate: FAIL ingest of $f"; exit 1; }
done
python3 - "$ws" "$dir/results.json" <<'PY'
import json, sqlite3, statistics, sys
ws, results = sys.argv[1], sys.argv[2]
res = json.load(open(results))
runs, dumps = res["runs"], res.get("dumps", {})
db = sqlite3.connect(ws)
failures = []
def check(ok, what):
    print(("  ok    " if ok else "  FAIL  ") + what)
    if not ok:
        failures.append(what)

prof = runs.get("profiler", {}).get("profiler_kernels_per_step", {})
print(f"profiler kernels per step: {sorted(set(prof.values()))} over {len(prof)} steps")
for run_id, name, skipped, reason in db.execute("SELECT id, name, skipped_events, first_skip_reason FROM runs ORDER BY name"):
    steps = db.execute("SELECT s.step_index, n.value, s.cpu_start_ns, s.cpu_end_ns FROM steps s "
                       "JOIN strings n ON n.id = s.name_id WHERE s.run_id = ? ORDER BY s.step_index", (run_id,)).fetchall()
    counts = {n: 0 for _, n, _, _ in steps}
    q = ("SELECT f.cpu_ns FROM kernels k JOIN flows f ON f.run_id = k.run_id AND f.rank = k.rank "
         "AND f.correlation = k.correlation WHERE k.run_id = ?")
    bounds = [(a, b, n) for _, n, a, b in steps]
    for (t,) in db.execute(q, (run_id,)):
        for a, b, n in bounds:
            if a <= t <= b:
                counts[n] += 1
                break
    kernels = db.execute("SELECT count(*) FROM kernels WHERE run_id = ?", (run_id,)).fetchone()[0]
    src = runs.get({"c1": "collector1", "c2": "collector2", "c3": "collector3"}.get(name, name), {})
    expected_steps = src.get("config", {}).get("steps")
    capture = name == "capture"
    print(f"run {name}: {kernels} kernels, {len(steps)} steps, kernels per step {sorted(set(counts.values()))}")
    if expected_steps:
        check(len(steps) == expected_steps, f"{name}: {len(steps)} NVTX step ranges for {expected_steps} training steps")
    window = {f"step {i}" for i in (4, 5, 6)} if capture else set(counts)
    common = [n for n in counts if n in prof and n in window]
    same = all(counts[n] == prof[n] for n in common)
    check(bool(common) and same, f"{name}: kernels per step equal the profiler's for {len(common)} common steps"
          + ("" if same else f" (cnpt {[counts[n] for n in common]} vs profiler {[prof[n] for n in common]})"))
    if capture:
        outside = [n for n in counts if n not in window and counts[n] != 0]
        check(not outside, f"{name}: no kernels outside the capture window (steps 4-6)")
    check(skipped == 0, f"{name}: no skipped or dropped events at ingest" + (f" ({skipped}: {reason})" if skipped else ""))

for d, v in sorted(dumps.items()):
    check(v["dropped"] == 0 and v["header"].get("dropped_records", "0") == "0",
          f"dump {d}: CUPTI dropped {v['dropped']} records; kernels without a launch record {v['kernels_without_launch']}")

tail = lambda xs: xs[3:]
plain = [x for n, r in runs.items() if n.startswith("plain") for x in tail(r["step_ms"])]
coll = [x for n, r in runs.items() if n.startswith("collector") for x in tail(r["step_ms"])]
if plain and coll:
    mp, mc = statistics.median(plain), statistics.median(coll)
    over = 100 * (mc / mp - 1)
    line = f"step-time overhead: collector {over:+.2f}% ({mc:.2f} ms vs plain {mp:.2f} ms, medians of {len(coll)} / {len(plain)} steps)"
    if "profiler" in runs:
        mf = statistics.median(tail(runs["profiler"]["step_ms"]))
        line += f"; torch.profiler {100 * (mf / mp - 1):+.2f}% ({mf:.2f} ms)"
    check(over <= 3.0, line)
else:
    check(False, "step times of plain and collector runs present in results.json")
print("validate: " + ("PASS" if not failures else f"FAIL ({len(failures)} checks)"))
sys.exit(1 if failures else 0)
PY
