#!/usr/bin/env bash
# Installs, builds with AddressSanitizer + UndefinedBehaviorSanitizer, and
# runs the whole test suite (unit tests, API tests through the loader with
# the validation layer, vulkaninfo).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${VKMM_BUILD_DIR:-$top/build-sanitize}

"$top/scripts/install-deps.sh"
cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=Debug -DVKMM_SANITIZE=ON >/dev/null
cmake --build "$build" -j2
cd "$build"
ctest --output-on-failure -j2 "$@"
