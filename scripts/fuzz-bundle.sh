#!/usr/bin/env bash
# Packs the fuzz targets (built by scripts/run-fuzz.sh in build-fuzz), every
# shared library they load (glibc and its loader included) and their seed
# corpora into one directory, so that long fuzz runs can go to a bigger
# machine that has none of the packages installed.  The binaries load
# glibc's loader from ROOT/lib and run.sh gives them ROOT/lib as their
# library path (theirs alone: the machine's own tools keep its glibc): on that
# machine put the directory at ROOT (default: OUTDIR itself), then
#
#   ROOT/run.sh SECONDS PROCESSES_PER_RUN [RUN=PROCESSES,...]
#
# runs the seven runs of run-fuzz.sh (exec and api once per mode) side by
# side, each with PROCESSES_PER_RUN libFuzzer processes sharing one corpus
# (or the count the third argument gives that run, e.g. spirv=3,api-fast=1),
# and prints libFuzzer's final statistics per process.
#
#   scripts/fuzz-bundle.sh OUTDIR [ROOT] [CORPORA]
#
# CORPORA: a directory of earlier runs' work/<run>/corpus to start from.
#
# (Not ld.so --library-path: started through the loader, LeakSanitizer
# reports the loader's own dlopen allocations as leaks.)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${VKMM_FUZZ_BUILD_DIR:-$top/build-fuzz}
out=${1:?usage: fuzz-bundle.sh OUTDIR [ROOT]}
root=${2:-$(mkdir -p "$out" && cd "$out" && pwd)}
corpora=${3:-}
targets=(fuzz_spirv fuzz_spirv_structured fuzz_exec fuzz_pipeline_cache fuzz_api)

rm -rf "$out"
mkdir -p "$out/bin" "$out/lib" "$out/seeds"
for t in "${targets[@]}"; do
  objcopy --strip-debug "$build/tests/fuzz/$t" "$out/bin/$t"
  patchelf --set-interpreter "$root/lib/ld-linux-x86-64.so.2" "$out/bin/$t"
  ldd "$build/tests/fuzz/$t" | awk '/=> \// { print $3 } /^\t\/.*ld-linux/ { print $1 }'
done | sort -u | while read -r lib; do cp -L "$lib" "$out/lib/"; done
cp -L /lib64/ld-linux-x86-64.so.2 "$out/lib/"
if [ -n "$corpora" ]; then
  for corpus in "$corpora"/*/corpus; do
    run=$(basename "$(dirname "$corpus")")
    mkdir -p "$out/work/$run"
    cp -r "$corpus" "$out/work/$run/"
  done
fi
for shader in "$top"/tests/shaders/*.comp; do
  glslc --target-env=vulkan1.3 -o "$out/seeds/$(basename "$shader" .comp).spv" "$shader"
done
for shader in "$top"/tests/shaders/*.spvasm; do
  spirv-as --target-env vulkan1.3 -o "$out/seeds/$(basename "$shader" .spvasm).spv" "$shader"
done

cat > "$out/run.sh" <<'EOF'
#!/usr/bin/env bash
# run.sh SECONDS PROCESSES_PER_RUN [RUN=PROCESSES,...]: every fuzz run side
# by side (see scripts/fuzz-bundle.sh); work/<run>/ keeps corpora and crashes.
set -u
here=$(cd "$(dirname "$0")" && pwd)
seconds=$1 default_per_run=$2
declare -A counts=()
IFS=, read -r -a overrides <<< "${3:-}"
for o in "${overrides[@]}"; do counts[${o%%=*}]=${o#*=}; done
# name binary mode max_len timeout seeds
runs="spirv fuzz_spirv strict 65536 20 1
spirv_structured fuzz_spirv_structured strict 65536 20 1
exec-strict fuzz_exec strict 65536 30 1
exec-fast fuzz_exec fast 65536 30 1
pipeline_cache fuzz_pipeline_cache strict 262144 30 0
api-strict fuzz_api strict 4096 30 0
api-fast fuzz_api fast 4096 30 0"
while read -r name binary mode max_len timeout seeds; do
  dir="$here/work/$name"
  mkdir -p "$dir/corpus"
  [ "$seeds" = 1 ] && cp -n "$here"/seeds/*.spv "$dir/corpus/" 2>/dev/null
  per_run=${counts[$name]:-$default_per_run}
  for p in $(seq 1 "$per_run"); do
    (cd "$dir" && VKMM_MODE=$mode \
       ASAN_OPTIONS=detect_leaks=1:intercept_tls_get_addr=0:quarantine_size_mb=64 \
       UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
       LD_LIBRARY_PATH="$here/lib" "$here/bin/$binary" \
       -max_total_time="$seconds" -timeout="$timeout" -rss_limit_mb=4096 -max_len="$max_len" \
       -print_final_stats=1 -artifact_prefix="$dir/" corpus > "$dir/process-$p.log" 2>&1; \
       echo "$name process $p exit $?" >> "$here/work/exits.txt") &
  done
done <<< "$runs"
wait
for dir in "$here"/work/*/; do
  name=$(basename "$dir")
  execs=$(grep -h "stat::number_of_executed_units" "$dir"/process-*.log | awk '{s += $2} END {print s + 0}')
  cov=$(grep -h -o "cov: [0-9]*" "$dir"/process-*.log | awk '{if ($2 > m) m = $2} END {print m + 0}')
  ft=$(grep -h -o "ft: [0-9]*" "$dir"/process-*.log | awk '{if ($2 > m) m = $2} END {print m + 0}')
  crashes=$(ls "$dir" | grep -c -E '^(crash|leak|timeout|oom)-' || true)
  echo "$name: $execs executions, cov $cov, ft $ft, corpus $(ls "$dir/corpus" | wc -l), artifacts $crashes"
done
cat "$here/work/exits.txt"
EOF
chmod +x "$out/run.sh"
du -sh "$out"
