#!/usr/bin/env bash
# Installs, builds with AddressSanitizer + UndefinedBehaviorSanitizer (and
# the driver alone in Release, for -O3's warnings), and
# runs the whole test suite (unit tests, API tests through the loader with
# the validation layer, the GLSL conformance suite at every subgroup width,
# vulkaninfo) in strict and in fast mode, then runs every fuzz target for a bounded time
# (scripts/run-fuzz.sh: VKMM_FUZZ_SECONDS per run, default 10 — 7 runs, about 4 minutes on
# 2 cores, as the exec runs first replay their 52 seed shaders, 1-2 min per mode; 0 skips it),
# then the multi-thread stress test and a subset of the API and sync tests
# under ThreadSanitizer in both modes (scripts/run-tsan.sh, about a minute;
# VKMM_RUN_TSAN=0 skips it).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${VKMM_BUILD_DIR:-$top/build-sanitize}

"$top/scripts/install-deps.sh"
cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=Debug -DVKMM_SANITIZE=ON >/dev/null
cmake --build "$build" -j2
# The driver as users build it: at -O3 GCC inlines more and so warns of
# more (a possible snprintf truncation once), which -Werror makes errors
# that the Debug build above never sees.
release=${VKMM_RELEASE_CHECK_DIR:-$top/build-release-check}
echo "== release build (-O3, -Werror)"
cmake -S "$top" -B "$release" -DCMAKE_BUILD_TYPE=Release -DVKMM_BUILD_TESTS=OFF >/dev/null
cmake --build "$release" -j2 --target vkmm
# The suite runs twice: in strict mode (the default) and in fast mode.
total=0
failed=0
status=0
for mode in strict fast; do
  log="$build/ctest-$mode.log"
  echo "== ctest, VKMM_MODE=$mode"
  # A test that fails is run once more: LeakSanitizer's tracer now and then
  # dies at exit under load ("Tracer caught signal 11", a sanitizer flake
  # seen about once in 500 test runs); a real failure fails twice.
  (cd "$build" && VKMM_MODE=$mode ctest --output-on-failure -j2 --repeat until-pass:2 "$@") 2>&1 | tee "$log" || status=1
  summary=$(grep -E "tests passed, [0-9]+ tests failed out of [0-9]+" "$log" | tail -n1 || true)
  if [ -z "$summary" ]; then
    echo "run-tests: ctest printed no summary in $mode mode" >&2
    exit 1
  fi
  total=$((total + $(echo "$summary" | sed -E 's/.* out of ([0-9]+).*/\1/')))
  failed=$((failed + $(echo "$summary" | sed -E 's/.*passed, ([0-9]+) tests failed.*/\1/')))
done

seconds=${VKMM_FUZZ_SECONDS:-10}
fuzz_passed=0
fuzz_failed=0
if [ "$seconds" != 0 ]; then
  fuzz_log="$build/fuzz.log"
  "$top/scripts/run-fuzz.sh" "$seconds" 2>&1 | tee "$fuzz_log" || true
  # Each fuzz run counts as one test ("fuzz-result: RUN passed|failed ...");
  # a script that stopped before its runs counts as one failure.
  fuzz_passed=$(grep -c '^fuzz-result: .* passed' "$fuzz_log" || true)
  fuzz_failed=$(grep -c '^fuzz-result: .* failed' "$fuzz_log" || true)
  if ! grep -q '^fuzz: [0-9]* passed, 0 failed$' "$fuzz_log" && [ "$fuzz_failed" -eq 0 ]; then
    fuzz_failed=1
  fi
fi
tsan_passed=0
tsan_failed=0
if [ "${VKMM_RUN_TSAN:-1}" != 0 ]; then
  if "$top/scripts/run-tsan.sh"; then tsan_passed=1; else tsan_failed=1; fi
fi
# One closing line for everything that ran: the ctest tests, each fuzz run
# and the TSan run.
echo "vkmm: $((total - failed + fuzz_passed + tsan_passed)) passed, $((failed + fuzz_failed + tsan_failed)) failed"
[ "$status" -eq 0 ] && [ "$failed" -eq 0 ] && [ "$fuzz_failed" -eq 0 ] && [ "$tsan_failed" -eq 0 ]
