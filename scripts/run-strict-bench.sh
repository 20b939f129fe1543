#!/usr/bin/env bash
# Strict mode's cost: bench/vkmm_bench on vkmm alone, once in fast mode and
# once in strict mode, on data scaled down by 2^VKMM_BENCH_SCALE (default 4:
# 4 MiB arrays), printing per workload the strict/fast time ratio and each
# run's peak memory (maximum resident set), so that the engine's state per
# byte of application memory can be read off.  Timing never fails anything.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${VKMM_BUILD_DIR:-$top/build-release}
scale=${VKMM_BENCH_SCALE:-4}

"$top/scripts/install-deps.sh" >/dev/null
cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=Release -DVKMM_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" -j2 --target vkmm_bench >/dev/null

# The bench loads lavapipe beside vkmm; VKMM_BENCH_VKMM_ONLY skips its runs.
lavapipe=$(ls /usr/share/vulkan/icd.d/lvp_icd.*.json | head -n1)
export VK_ICD_FILENAMES="$build/manifests/vkmm_icd.json:$lavapipe" VK_DRIVER_FILES="$build/manifests/vkmm_icd.json:$lavapipe"
# The bench reads results on the host after the fence wait alone, as most
# frameworks do: strict mode takes that common reading here, so that its
# results are right and its runs compare with fast mode's.
export VKMM_BENCH_VKMM_ONLY=1 VKMM_BENCH_SCALE=$scale VKMM_HOST_READ=after-wait
# VKMM_BENCH_ROUNDS (default 3) alternating runs of each mode; the table
# compares each mode's best (scripts/bench-best.sh).
rounds=${VKMM_BENCH_ROUNDS:-3}
out=$(mktemp -d)
for round in $(seq "$rounds"); do
  for mode in fast strict; do
    VKMM_MODE=$mode /usr/bin/env time -f "%M" -o "$out/$mode.rss" "$build/bench/vkmm_bench" 1 >"$out/$mode.$round.txt"
  done
done
"$top/scripts/bench-best.sh" "$out"/fast.*.txt >"$out/fast.txt"
"$top/scripts/bench-best.sh" "$out"/strict.*.txt >"$out/strict.txt"
echo "best of $rounds alternating runs per mode"
"$top/scripts/strict-bench-table.sh" "$out/fast.txt" "$out/strict.txt" "$scale"
echo "peak resident memory: fast $(cat "$out/fast.rss") KiB, strict $(cat "$out/strict.rss") KiB"
# The peak comes with the largest working set, the stream's three
# host-visible arrays (3 x 64 MiB >> scale): strict mode's extra memory
# per byte of them is the engine's state per byte of application memory.
awk -v fast="$(cat "$out/fast.rss")" -v strict="$(cat "$out/strict.rss")" -v scale="$scale" 'BEGIN {
  bytes = 3 * 64 * 1024 * 1024 / 2 ^ scale
  printf "engine state per byte of the stream arrays: %.1f bytes ((strict - fast) / %d MiB)\n",
         (strict - fast) * 1024 / bytes, bytes / 1048576 }'
rm -rf "$out"
