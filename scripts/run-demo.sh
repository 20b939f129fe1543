#!/usr/bin/env bash
# The main job: install, build, show the vkmm device through the real
# Vulkan loader, and run the example that moves data through buffers.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${VKMM_BUILD_DIR:-$top/build}

"$top/scripts/install-deps.sh"
cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j2

export VK_ICD_FILENAMES="$build/manifests/vkmm_icd.json"
export VK_DRIVER_FILES="$VK_ICD_FILENAMES"
echo "== vulkaninfo --summary (vkmm only) =="
vulkaninfo --summary 2>/dev/null | sed -n '/^Devices:/,$p'
echo
echo "== examples/transfer_roundtrip =="
"$build/examples/transfer_roundtrip"
echo
echo "== examples/missing_barrier: a fill and a copy with no barrier (strict mode) =="
VKMM_MODE=strict "$build/examples/missing_barrier"
echo
echo "== examples/missing_barrier --fixed =="
VKMM_MODE=strict "$build/examples/missing_barrier" --fixed
