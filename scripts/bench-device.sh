#!/usr/bin/env bash
# Strict mode's cost (what scripts/run-strict-bench.sh measures) on a bigger
# machine that has none of the packages installed: packs a prebuilt
# vkmm_bench, a vkmm ICD library, lavapipe (Mesa's llvmpipe Vulkan driver,
# which the bench loads beside vkmm), the Vulkan loader and every shared
# library they load (glibc and its loader included, both LLVMs) into one
# compressed bundle, and runs it there in fast and in strict mode.
#
#   scripts/bench-device.sh pack [DIR [ROOT [BENCH [LIBVKMM]]]]
#       writes DIR/bundle.tar.xz (DIR default: .devbench in the repository
#       root).  ROOT (default /tmp/vkbench): the absolute folder the bundle
#       will be unpacked into on that machine; vkmm_bench's ELF interpreter
#       is set to ROOT/lib/ld-linux-x86-64.so.2 and its DT_RPATH to ROOT/lib,
#       and the two ICD manifests (ROOT/icd/vkmm_icd.json, lvp_icd.json) name
#       ROOT/lib/... as library_path.  BENCH: default
#       build-release/bench/vkmm_bench; LIBVKMM: default
#       build-release/lib/libvkmm.so.  GNU time goes along as bin/time for
#       the peak memory, and the bench's SPIR-V (BENCH_SHADERS, default the
#       build folder compiled into BENCH) as ROOT/shaders, whose path is
#       written over the compiled-in one.  The script itself goes beside the bundle as
#       DIR/run.sh (and into it as run.sh), so that the device side needs
#       only DIR, whichever checkout the call sends.
#   scripts/bench-device.sh run [ROOT [ROUNDS]]   (or DIR/run.sh run ...)
#       unpacks DIR/bundle.tar.xz into ROOT unless ROOT/bin/vkmm_bench is
#       there (DIR: $BENCH_BUNDLE_DIR, else this script's own folder if the
#       bundle is there, else .devbench in the repository root), then runs `vkmm_bench ROUNDS` (default 1) once per mode in
#       $BENCH_MODES (default "fast strict") with VKMM_MODE set to it, and
#       prints each run's raw output, the strict/fast table of
#       run-strict-bench.sh (when both modes ran) and each run's peak
#       resident memory (the machine's /usr/bin/time, else the bundled one).
#       Like run-strict-bench.sh it sets VKMM_BENCH_SCALE (default 4),
#       VKMM_HOST_READ=after-wait and VKMM_BENCH_VKMM_ONLY=1, each unless
#       already set: VKMM_BENCH_VKMM_ONLY=0 runs lavapipe too.  Other VKMM_*
#       settings (VKMM_HOST_TRAP=0, VKMM_THREADS) pass through.
#
# A device call (run's carry: .devbench; /.devbench/ in .git/info/exclude):
#   here:  scripts/bench-device.sh pack .devbench /tmp/vkbench \
#            /work/bench-snapshot/vkmm_bench /work/bench-snapshot/libvkmm.so
#          (about 10 minutes: xz with a 256 MiB window, one thread)
#   there: bash .devbench/run.sh run /tmp/vkbench
#          VKMM_BENCH_VKMM_ONLY=0 bash .devbench/run.sh run /tmp/vkbench
#          VKMM_HOST_TRAP=0 BENCH_MODES=strict bash .devbench/run.sh run /tmp/vkbench
# The bundle is about 55 MiB (two LLVMs: vkmm's and lavapipe's; 60 MiB with
# plain xz -9e), close to the 64 MiB a device call can carry with the tree.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
here=$(cd "$(dirname "$0")" && pwd) # strict-bench-table.sh lies beside this script
cmd=${1:?usage: bench-device.sh pack|run ...}; shift

case "$cmd" in
pack)
  . "$top/scripts/device-bundle-libs.sh"
  dir=${1:-$top/.devbench}; root=${2:-/tmp/vkbench}
  bench=$(readlink -f "${3:-$top/build-release/bench/vkmm_bench}")
  vkmm=$(readlink -f "${4:-$top/build-release/lib/libvkmm.so}")
  loader=$(readlink -f /lib/x86_64-linux-gnu/libvulkan.so.1)
  lvpjson=$(ls /usr/share/vulkan/icd.d/lvp_icd.*.json | head -n1)
  lvp=$(readlink -f "$(sed -n 's/.*"library_path": *"\([^"]*\)".*/\1/p' "$lvpjson")")
  lvpapi=$(sed -n 's/.*"api_version": *"\([^"]*\)".*/\1/p' "$lvpjson")
  timebin=$(readlink -f /usr/bin/time 2>/dev/null || true)
  case "$root" in /*) ;; *) echo "ROOT must be absolute" >&2; exit 2;; esac
  stage=$(mktemp -d)
  trap 'rm -rf "$stage"' EXIT
  mkdir -p "$dir" "$stage/bin" "$stage/lib" "$stage/icd"
  strip --strip-all -o "$stage/bin/vkmm_bench" "$bench"
  # The bench reads its SPIR-V from the folder compiled into it
  # (VKMM_BENCH_SHADER_DIR, the build's bench/shaders): those files go in as
  # ROOT/shaders, and the path in the copy's .rodata is overwritten with
  # that one (NUL-padded; it must not be longer).
  sdir=$(strings -n 8 "$bench" | grep -m1 '/bench/shaders$' || true)
  shaders=${BENCH_SHADERS:-$sdir}
  if [ -z "$sdir" ] || ! ls "$shaders"/*.spv >/dev/null 2>&1; then
    echo "no shader folder (compiled in: '$sdir'); set BENCH_SHADERS" >&2; exit 1
  fi
  mkdir -p "$stage/shaders"; cp "$shaders"/*.spv "$stage/shaders/"
  python3 - "$stage/bin/vkmm_bench" "$sdir" "$root/shaders" <<'PY'
import sys
path, old, new = sys.argv[1], sys.argv[2].encode() + b"\0", sys.argv[3].encode() + b"\0"
data = open(path, "rb").read()
if data.count(old) != 1 or len(new) > len(old):
    sys.exit("cannot put %r in place of %r" % (new, old))
open(path, "wb").write(data.replace(old, new + b"\0" * (len(old) - len(new))))
PY
  # DT_RPATH (not RUNPATH): it also serves the libraries the loader dlopens
  patchelf --set-interpreter "$root/lib/ld-linux-x86-64.so.2" --force-rpath --set-rpath "$root/lib" \
    "$stage/bin/vkmm_bench"
  if [ -x "$timebin" ]; then
    strip --strip-all -o "$stage/bin/time" "$timebin"
    patchelf --set-interpreter "$root/lib/ld-linux-x86-64.so.2" --force-rpath --set-rpath "$root/lib" \
      "$stage/bin/time"
  fi
  objcopy --strip-debug "$vkmm" "$stage/lib/libvkmm.so"
  objcopy --strip-debug "$lvp" "$stage/lib/$(basename "$lvp")"
  cp -L "$loader" "$stage/lib/libvulkan.so.1"
  bundle_libs "$stage" "$bench" "$vkmm" "$lvp" "$loader" ${timebin:+"$timebin"}
  cat > "$stage/icd/vkmm_icd.json" <<EOF
{
    "file_format_version": "1.0.1",
    "ICD": { "library_path": "$root/lib/libvkmm.so", "api_version": "1.3.239", "is_portability_driver": false }
}
EOF
  cat > "$stage/icd/lvp_icd.json" <<EOF
{
    "file_format_version": "1.0.0",
    "ICD": { "library_path": "$root/lib/$(basename "$lvp")", "api_version": "$lvpapi" }
}
EOF
  cp "$0" "$stage/run.sh"
  cp "$top/scripts/strict-bench-table.sh" "$stage/"
  du -sh "$stage"
  # the x86 branch filter and a window that spans both LLVMs save 5 MiB
  tar -C "$stage" -cf - . | xz -T1 --x86 --lzma2=preset=9e,dict=256MiB > "$dir/bundle.tar.xz"
  cp "$0" "$dir/run.sh"
  cp "$top/scripts/strict-bench-table.sh" "$dir/"
  ls -la "$dir"
  ;;
run)
  root=${1:-/tmp/vkbench}; rounds=${2:-1}
  if [ ! -x "$root/bin/vkmm_bench" ]; then
    bdir=${BENCH_BUNDLE_DIR:-$(dirname "$0")}
    [ -e "$bdir/bundle.tar.xz" ] || bdir=$top/.devbench
    mkdir -p "$root"
    tar -xJf "$bdir/bundle.tar.xz" -C "$root"
  fi
  scale=${VKMM_BENCH_SCALE:-4}
  icds="$root/icd/vkmm_icd.json:$root/icd/lvp_icd.json"
  export VK_ICD_FILENAMES="$icds" VK_DRIVER_FILES="$icds" VK_LOADER_LAYERS_DISABLE="~implicit~" \
         VKMM_BENCH_SCALE=$scale \
         VKMM_BENCH_VKMM_ONLY=${VKMM_BENCH_VKMM_ONLY:-1} VKMM_HOST_READ=${VKMM_HOST_READ:-after-wait}
  unset VK_ADD_DRIVER_FILES VK_INSTANCE_LAYERS
  [ "$VKMM_BENCH_VKMM_ONLY" = 1 ] || unset VKMM_BENCH_VKMM_ONLY
  # peak memory: the machine's GNU time, else the bundled one, else none
  timer=()
  if /usr/bin/env time -f %M -o /dev/null true 2>/dev/null; then timer=(/usr/bin/env time)
  elif [ -x "$root/bin/time" ] && "$root/bin/time" -f %M -o /dev/null true 2>/dev/null; then timer=("$root/bin/time")
  fi
  # LD_LIBRARY_PATH for the bench alone: the machine's own tools (date,
  # awk, time) must keep their glibc, which need not match the bundle's
  bench=(/usr/bin/env LD_LIBRARY_PATH="$root/lib" "$root/bin/vkmm_bench" "$rounds")
  out=$(mktemp -d)
  modes=${BENCH_MODES:-fast strict}
  echo "machine: $(nproc) CPUs; scale 1/2^$scale; rounds $rounds; vkmm only: ${VKMM_BENCH_VKMM_ONLY:-0};" \
       "VKMM_HOST_TRAP=${VKMM_HOST_TRAP-unset}; VKMM_HOST_READ=$VKMM_HOST_READ"
  for mode in $modes; do
    start=$(date +%s%N)
    if [ ${#timer[@]} -gt 0 ]; then
      VKMM_MODE=$mode "${timer[@]}" -f "%M" -o "$out/$mode.rss" "${bench[@]}" >"$out/$mode.txt"
    else
      VKMM_MODE=$mode "${bench[@]}" >"$out/$mode.txt"
    fi
    echo "--- VKMM_MODE=$mode ($(( ($(date +%s%N) - start) / 1000000 )) ms)"
    cat "$out/$mode.txt"
  done
  if [ -e "$out/fast.txt" ] && [ -e "$out/strict.txt" ]; then
    echo "---"
    "$here/strict-bench-table.sh" "$out/fast.txt" "$out/strict.txt" "$scale"
  fi
  if [ ${#timer[@]} -gt 0 ]; then
    echo "peak resident memory:$(for mode in $modes; do printf " %s %s KiB" "$mode" "$(cat "$out/$mode.rss")"; done)"
  else
    echo "peak resident memory: not measured (no GNU time)"
  fi
  rm -rf "$out"
  ;;
*) echo "unknown command $cmd" >&2; exit 2;;
esac
