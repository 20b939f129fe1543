#!/usr/bin/env bash
# Runs bench/vkmm_bench: the same workloads on vkmm (fast mode) and on
# lavapipe in one process, alternating, printing the speed-up of each.
# Arguments: number of rounds (default 2).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${VKMM_BUILD_DIR:-$top/build-release}

"$top/scripts/install-deps.sh"
cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=Release -DVKMM_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" -j2 --target vkmm_bench

lavapipe=$(ls /usr/share/vulkan/icd.d/lvp_icd.*.json | head -n1)
export VK_ICD_FILENAMES="$build/manifests/vkmm_icd.json:$lavapipe"
export VK_DRIVER_FILES="$VK_ICD_FILENAMES"
export VKMM_MODE=${VKMM_MODE:-fast}
# Mesa's on-disk shader cache would turn lavapipe's compile times into
# cache hits.
export MESA_SHADER_CACHE_DISABLE=true
"$build/bench/vkmm_bench" "$@"
