#!/usr/bin/env bash
# Installs, builds with AddressSanitizer + UndefinedBehaviorSanitizer, and
# runs the whole test suite (unit tests, API tests through the loader with
# the validation layer, the GLSL conformance suite at every subgroup width,
# vulkaninfo), then fuzzes the SPIR-V compiler for a bounded time
# (VKMM_FUZZ_SECONDS, default 60; 0 skips it).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${VKMM_BUILD_DIR:-$top/build-sanitize}

"$top/scripts/install-deps.sh"
cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=Debug -DVKMM_SANITIZE=ON >/dev/null
cmake --build "$build" -j2
(cd "$build" && ctest --output-on-failure -j2 "$@")
seconds=${VKMM_FUZZ_SECONDS:-60}
if [ "$seconds" != 0 ]; then
  "$top/scripts/run-fuzz.sh" "$seconds"
fi
