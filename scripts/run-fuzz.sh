#!/usr/bin/env bash
# Fuzzes the SPIR-V compiler with libFuzzer for a bounded time (default 60
# s, or the first argument), starting from the test shaders as the corpus.
# Fails if the fuzzer finds a crash, leak or sanitizer error.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${VKMM_FUZZ_BUILD_DIR:-$top/build-fuzz}
seconds=${1:-60}

"$top/scripts/install-deps.sh"
CC=clang CXX=clang++ cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVKMM_FUZZ=ON \
  -DVKMM_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" -j2 --target fuzz_spirv

corpus="$build/corpus"
mkdir -p "$corpus"
for shader in "$top"/tests/shaders/*.comp; do
  name=$(basename "$shader" .comp)
  [ -f "$corpus/$name.spv" ] || glslc --target-env=vulkan1.3 -o "$corpus/$name.spv" "$shader"
done
cd "$build"
# Shaders compile in ~10 ms; fresh LLVM state per input keeps the RSS bound.
ASAN_OPTIONS=detect_leaks=1 ./tests/fuzz/fuzz_spirv -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 \
  -max_len=65536 "$corpus"
echo "fuzz: no crash in ${seconds} s"
