#!/usr/bin/env bash
# bench/cluster_ingest.sh (issue 27.6's podman leg; run by scripts/bench): a 128-rank synthetic run
# (cnp synth --nodes 16 --gpus-per-node 8 --steps 10) ingested by 8 containers of the Qt-free cnp image
# (resources/container/Containerfile, built offline as tests/cli/tst_clicontainer builds it), each
# `cnp ingest-shard` of 16 ranks into a shard on a host folder, all at once; then, on the "workstation"
# (this host), `cnp study assemble` and the first `cnp ablation --json`. Prints per worker its wall, CPU and
# peak RSS (its own --timing, measured inside the container), the wall of the whole parallel phase, the
# shards' bytes, the bytes assemble read (what would reach a workstation: summaries, not events), and the
# time from the last shard written to the first ablation answer.
#   NODES=16 GPUS=8 STEPS=10 WORKERS=8 bench/cluster_ingest.sh    (KEEP=DIR keeps the files)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${CNP_BUILD_DIR:-$root/build}
cnp=$build/app/cli/cnp
nodes=${NODES:-16} gpus=${GPUS:-8} steps=${STEPS:-10} workers=${WORKERS:-8}
ranks=$((nodes * gpus))
[ $((ranks % workers)) -eq 0 ] || { echo "cluster_ingest: $ranks ranks do not split into $workers workers" >&2; exit 2; }
per=$((ranks / workers))
work=${KEEP:-$(mktemp -d /tmp/cnp-cluster-bench.XXXXXX)}
mkdir -p "$work"
export CONTAINERS_CONF=$work/containers.conf
printf '[containers]\ndefault_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]\n[engine]\nruntime = "runc"\n' \
    >"$CONTAINERS_CONF"
tag=$$
images=()
cleanup() {
    for i in "${images[@]}"; do podman rmi --force "$i" >/dev/null 2>&1 || true; done
    [ -n "${KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
now() { date +%s.%N; }

# The image, offline: a busybox base holding this build's cnp staged, a glibc-only runtime base.
pre=$work/prebuilt rt=$work/runtime
mkdir -p "$pre/bin" "$rt/tmp"
cp /bin/busybox "$pre/bin/busybox"
for t in sh echo test [; do ln -sf busybox "$pre/bin/$t"; done
sh "$root/resources/container/stage-cnp" "$cnp" "$root/resources" "$pre/stage"
for lib in $(sh "$root/resources/container/stage-cnp" --base-libs "$cnp"); do
    mkdir -p "$rt$(dirname "$lib")"
    cp "$(readlink -f "$lib")" "$rt$lib"
done
tar -cf "$work/pre.tar" -C "$pre" . && podman import -q "$work/pre.tar" "localhost/cnp-bench-build:$tag" >/dev/null
images+=("localhost/cnp-bench-build:$tag")
tar -cf "$work/rt.tar" -C "$rt" . && podman import -q "$work/rt.tar" "localhost/cnp-bench-runtime:$tag" >/dev/null
images+=("localhost/cnp-bench-runtime:$tag")
image=localhost/cnp-bench:$tag
podman build -q --layers=false -f "$root/resources/container/Containerfile" \
    --build-arg "BASE=localhost/cnp-bench-build:$tag" --build-arg "RUNTIME_BASE=localhost/cnp-bench-runtime:$tag" \
    --build-arg CNP_PREBUILT=1 -t "$image" "$root" >/dev/null
images+=("$image")

"$cnp" synth --out "$work/traces" --nodes "$nodes" --gpus-per-node "$gpus" --steps "$steps" --configs Base --quiet
run=$(ls "$work/traces")
input=$work/traces/$run
mkdir -p "$work/shards"
echo "cluster_ingest: $ranks ranks ($(du -sb "$input" | cut -f1) bytes of .cnpt), $workers containers x $per ranks"

t0=$(now)
pids=()
for ((k = 0; k < workers; ++k)); do
    files=()
    for ((r = k * per; r < (k + 1) * per; ++r)); do files+=("$(printf '/in/rank-%05d.cnpt' "$r")"); done
    podman run --rm --network none -v "$input:/in:ro" -v "$work/shards:/out" "$image" \
        ingest-shard "/out/shard-$k.cnpdb" "${files[@]}" --run "$run" --run-id 1 --jobs 1 --quiet --timing \
        2>"$work/worker-$k.log" &
    pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
t1=$(now)
printf '%-8s %8s %8s %10s %12s\n' worker wall_s cpu_s rss_MB shard_bytes
for ((k = 0; k < workers; ++k)); do
    wall=$(sed -n 's/^  pass  *\([0-9.]*\) s$/\1/p' "$work/worker-$k.log")
    cpu=$(sed -n 's/^  CPU (process)  *\([0-9.]*\) s$/\1/p' "$work/worker-$k.log")
    rss=$(sed -n 's/^  peak RSS (process)  *\([0-9.]*\) MB$/\1/p' "$work/worker-$k.log")
    printf '%-8s %8s %8s %10s %12s\n' "$k" "$wall" "$cpu" "$rss" "$(stat -c %s "$work/shards/shard-$k.cnpdb")"
done
echo "all $workers containers: $(echo "$t1 - $t0" | bc) s wall (start of the first to the end of the last)"

shards=()
for ((k = 0; k < workers; ++k)); do shards+=("$work/shards/shard-$k.cnpdb"); done
t2=$(now)
/usr/bin/time -f '  assemble: %e s wall, %U+%S s CPU, %M KB peak RSS' \
    "$cnp" study assemble "$work/study.cnpstudy" "${shards[@]}" --timing 2>"$work/assemble.log"
t3=$(now)
"$cnp" ablation "$work/study.cnpstudy" --json >"$work/ablation.json"
t4=$(now)
cat "$work/assemble.log"
echo "  first ablation --json: $(echo "$t4 - $t3" | bc) s ($(stat -c %s "$work/ablation.json") bytes)"
echo "last shard written -> first ablation answer: $(echo "$t4 - $t2" | bc) s"
echo "shards: $(du -cb "${shards[@]}" | tail -1 | cut -f1) bytes; read by assemble: $(sed -n 's/^  bytes read  *\([0-9]*\)$/\1/p' "$work/assemble.log") bytes"
