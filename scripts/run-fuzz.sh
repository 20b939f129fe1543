#!/usr/bin/env bash
# Builds vkmm's libFuzzer targets and runs each for a bounded time.
#
#   scripts/run-fuzz.sh [SECONDS] [TARGET...]
#
# SECONDS (default 60) is per run; TARGETs (default: all) are
#   spirv             arbitrary bytes through the compiler
#   spirv_structured  corpus shaders mutated instruction by instruction, through the compiler
#   exec              mutated valid shaders compiled (both modes' code) and run through the ICD
#   pipeline_cache    pipeline-cache initial data; the pipelines made through it run and are checked
#   api               API sequences of recording, submission and synchronisation
# exec and api run twice, with VKMM_MODE=strict and with VKMM_MODE=fast (the
# mode is per process), so they take 2 x SECONDS.
#
# Environment:
#   VKMM_FUZZ_BUILD_DIR  build directory (default build-fuzz)
#   VKMM_FUZZ_JOBS       N > 1: N libFuzzer workers per run (-jobs=N -workers=N;
#                        each worker's log is fuzz-<n>.log in the run's directory)
#   VKMM_FUZZ_SKIP_BUILD 1: use the binaries as built
#
# Corpora live in BUILD/fuzz/<run>/corpus and grow from run to run; the
# shader seeds are compiled from tests/shaders at run time.  A crash, leak,
# sanitizer error or failed check writes BUILD/fuzz/<run>/crash-* (or
# leak-*, timeout-*, oom-*) and fails the run.  Prints one line per run,
# "fuzz-result: RUN passed|failed ...", with libFuzzer's final statistics,
# then the totals; exits non-zero if any run failed.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${VKMM_FUZZ_BUILD_DIR:-$top/build-fuzz}
seconds=${1:-60}
shift $(($# > 0 ? 1 : 0))
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(spirv spirv_structured exec pipeline_cache api)
jobs=${VKMM_FUZZ_JOBS:-1}

if [ "${VKMM_FUZZ_SKIP_BUILD:-0}" != 1 ]; then
  "$top/scripts/install-deps.sh"
  CC=clang CXX=clang++ cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVKMM_FUZZ=ON \
    -DVKMM_BUILD_TESTS=OFF >/dev/null
  cmake --build "$build" -j2 --target fuzz_spirv fuzz_spirv_structured fuzz_exec fuzz_pipeline_cache fuzz_api
fi

# The test shaders as SPIR-V: seeds of the shader targets.
shaders="$build/fuzz/shaders"
mkdir -p "$shaders"
for shader in "$top"/tests/shaders/*.comp; do
  name=$(basename "$shader" .comp)
  [ -f "$shaders/$name.spv" ] || glslc --target-env=vulkan1.3 -o "$shaders/$name.spv" "$shader"
done
for shader in "$top"/tests/shaders/*.spvasm; do
  name=$(basename "$shader" .spvasm)
  [ -f "$shaders/$name.spv" ] || spirv-as --target-env vulkan1.3 -o "$shaders/$name.spv" "$shader"
done

passed=0
failed=0
# run NAME BINARY MODE MAX_LEN TIMEOUT SEEDS(0|1)
run() {
  local name=$1 binary=$2 mode=$3 max_len=$4 timeout=$5 seeds=$6
  local dir="$build/fuzz/$name"
  mkdir -p "$dir/corpus"
  if [ "$seeds" = 1 ]; then cp -n "$shaders"/*.spv "$dir/corpus/" 2>/dev/null || true; fi
  local options=(-max_total_time="$seconds" -timeout="$timeout" -rss_limit_mb=4096 -max_len="$max_len"
                 -print_final_stats=1 -artifact_prefix="$dir/")
  if [ "$jobs" -gt 1 ]; then options+=(-jobs="$jobs" -workers="$jobs"); fi
  echo "fuzz: $name for ${seconds} s (VKMM_MODE=$mode, $jobs worker(s))"
  local stamp="$dir/.started"
  touch "$stamp"
  # Leaks are errors; dynamic TLS is not scanned (the same GCC 12 LeakSanitizer
  # issue as the API tests', tests/CMakeLists.txt); the quarantine is kept small
  # so that hour-long runs stay far below the RSS limit.
  local status=0
  rm -f "$dir"/fuzz-*.log
  (cd "$dir" && VKMM_MODE=$mode \
     ASAN_OPTIONS=detect_leaks=1:intercept_tls_get_addr=0:quarantine_size_mb=64 \
     UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
     "$build/tests/fuzz/$binary" "${options[@]}" corpus 2>&1 | tee "$dir/last.log" |
     { grep -v -E '^#[0-9]+.*(pulse|NEW|REDUCE)' || true; }; exit "${PIPESTATUS[0]}") || status=$?
  local logs=("$dir/last.log")
  if [ "$jobs" -gt 1 ]; then logs+=("$dir"/fuzz-*.log); fi
  # libFuzzer's final statistics, summed over workers; the coverage of the best one.
  local stats
  stats=$(cat "${logs[@]}" 2>/dev/null | awk '
    /^stat::number_of_executed_units:/ { execs += $2 }
    /^stat::average_exec_per_sec:/ { rate += $2 }
    / cov: / { for (i = 1; i <= NF; i++) { if ($i == "cov:" && $(i+1) > cov) cov = $(i+1); if ($i == "ft:" && $(i+1) > ft) ft = $(i+1) } }
    END { printf "execs %d, exec/s %d, cov %d, ft %d", execs, rate, cov, ft }')
  # Findings of this run: libFuzzer's artifacts newer than its start.
  local findings
  findings=$(find "$dir" -maxdepth 1 -newer "$stamp" \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' \
             -o -name 'oom-*' \) | wc -l)
  if [ "$status" -eq 0 ] && [ "$findings" -eq 0 ]; then
    passed=$((passed + 1))
    echo "fuzz-result: $name passed ($stats)"
  else
    failed=$((failed + 1))
    echo "fuzz-result: $name failed ($stats; see $dir)"
  fi
}

for target in "${targets[@]}"; do
  case $target in
  spirv) run spirv fuzz_spirv strict 65536 20 1 ;;
  spirv_structured) run spirv_structured fuzz_spirv_structured strict 262144 30 1 ;;
  exec)
    run exec-strict fuzz_exec strict 262144 60 1
    run exec-fast fuzz_exec fast 262144 60 1
    ;;
  pipeline_cache) run pipeline_cache fuzz_pipeline_cache strict 1048576 60 0 ;;
  api)
    run api-strict fuzz_api strict 4096 30 0
    run api-fast fuzz_api fast 4096 30 0
    ;;
  *)
    echo "run-fuzz.sh: unknown target '$target'" >&2
    exit 2
    ;;
  esac
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
