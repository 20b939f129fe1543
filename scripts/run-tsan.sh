#!/usr/bin/env bash
# Builds vkmm and its API and sync tests with ThreadSanitizer (build-tsan,
# -DVKMM_TSAN=ON: the library and those tests only) and runs them in strict
# and in fast mode; fails when a test fails or when ThreadSanitizer reports
# anything, and prints the number of reports.
#
#   scripts/run-tsan.sh          the CI set: api/multithread_stress (4 host
#                                threads, 2 queues, timeline chains, mapped
#                                writes by other threads) and a representative
#                                subset of the API and sync tests (the ones
#                                that use threads, semaphores, fences, events
#                                and mapped memory); about 1 minute on 2 cores
#   scripts/run-tsan.sh --all    every API and sync test (the sync tests once
#                                each, without the seed variants)
#   further arguments            go to ctest (e.g. -R api/queue_submit)
#
# Notes:
#  - JIT-compiled shader code (LLVM ORC) is not instrumented: TSan sees the
#    host side of vkmm (the API, the scheduler, strict mode's engine, the
#    thread pool), not the shaders' own accesses.
#  - GCC 12's TSan cannot run with the high mmap randomisation of newer
#    kernels ("FATAL: ThreadSanitizer: unexpected memory mapping"): the tests
#    run with ASLR off (setarch -R) where the system lets us turn it off.
#  - The tests run without the validation layer (VKMM_TEST_NO_VALIDATION=1;
#    the ASan build's run checks them with it): the layer is uninstrumented
#    C++ with threads of its own, synchronised in ways TSan cannot see (its
#    reports have no vkmm frame: operator delete of objects its own threads
#    unlocked, a lock-order inversion inside it), and its locks around our
#    entry points would only serialise calls whose races we look for.
#  - No report is suppressed: with the layer off, none without a vkmm frame
#    remains (the loader and libLLVM gave none).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${VKMM_TSAN_BUILD_DIR:-$top/build-tsan}
all=0
if [ "${1:-}" = "--all" ]; then
  all=1
  shift
fi

cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=Debug -DVKMM_TSAN=ON >/dev/null
targets=(vkmm vkmm_test_shaders)
for f in "$top"/tests/api/*.c; do targets+=("api_$(basename "$f" .c)"); done
for f in "$top"/tests/sync/*.c; do targets+=("sync_$(basename "$f" .c)"); done
cmake --build "$build" -j2 --target "${targets[@]}"

if [ "$all" = 1 ]; then
  tests='^(api/[a-z_0-9]+|sync/[a-z_0-9]+)$'
else
  tests='^(api/(multithread_stress|command_buffer_resubmit_after_wait|semaphore_timeline|fence_wait|event_sync|queue_submit|host_read_after_wait|scheduler_strict_order|compute_dispatch)|sync/(queues_and_waits|host_device|producer_consumer))$'
fi
# Strict mode shadows every allocated byte several times over, and TSan
# shadows that again: the tests that fill the heap on purpose
# (api/device_memory_map's heap exhaustion) or move large buffers
# (sync/large_buffer) run out of memory or time under both.  They are
# single-threaded; fast mode runs them.
strict_skip='^(api/device_memory_map|sync/large_buffer)$'
# api/scheduler_strict_order makes two queues write the same bytes with no
# semaphore between them on purpose (strict mode must run the later one
# first); in fast mode the queues' threads really race on those bytes, as
# the application asked: TSan reports the application's race, not vkmm's.
fast_skip='^api/scheduler_strict_order$'


# ASLR off for GCC 12's TSan (see above), if personality(2) is allowed here.
wrap=()
if setarch "$(uname -m)" -R true 2>/dev/null; then
  wrap=(setarch "$(uname -m)" -R)
fi

logs="$build/tsan-logs"
rm -rf "$logs"
mkdir -p "$logs"
status=0
for mode in strict fast; do
  echo "== TSan: ctest, VKMM_MODE=$mode"
  # halt_on_error=0: every report of a run is logged, not only the first.
  if ! (cd "$build" && VKMM_MODE=$mode VKMM_TEST_NO_VALIDATION=1 \
      TSAN_OPTIONS="halt_on_error=0 second_deadlock_stack=1 log_path=$logs/$mode" \
      "${wrap[@]}" ctest --output-on-failure -j2 -R "$tests" -E "$([ "$mode" = strict ] && echo "$strict_skip" || echo "$fast_skip")" "$@"); then
    status=1
  fi
done

reports=$(cat "$logs"/* 2>/dev/null | grep -c "WARNING: ThreadSanitizer" || true)
echo "run-tsan: $reports ThreadSanitizer reports (logs: $logs)"
if [ "$reports" != 0 ]; then
  grep -h "SUMMARY: ThreadSanitizer" "$logs"/* | sort | uniq -c | sort -rn | head -20
  status=1
fi
exit "$status"
