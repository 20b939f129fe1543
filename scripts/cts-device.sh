#!/usr/bin/env bash
# Packs a prebuilt Vulkan CTS (deqp-vk, built outside this repository and
# never committed), a vkmm ICD library, the Vulkan loader and every shared
# library they load (glibc and its loader included) into one compressed
# bundle, so that the CTS can run on a bigger machine that has none of the
# packages installed, many cases at once (scripts/cts-device-run.py, which
# goes into the bundle as run.py).
#
#   scripts/cts-device.sh pack BUNDLE.tar.xz ROOT [DEQP_VK] [LIBVKMM]
#       ROOT: the absolute folder the bundle will be unpacked into on that
#       machine (deqp-vk's ELF interpreter is set to ROOT/lib/ld-linux-x86-64.so.2).
#       DEQP_VK: default $DEQP_VK; its folder is the archive dir (its vulkan/
#       data folder goes along).  LIBVKMM: default build-release/lib/libvkmm.so.
#   scripts/cts-device.sh caselists OUTDIR [DEQP_VK]
#       writes OUTDIR/all-cases.txt (every dEQP-VK case, from
#       --deqp-runmode=txt-caselist) and one OUTDIR/GROUP.txt per group that
#       issue 12 names (filters: see below).
#
# A device call (what gave the results of 2026-11-27, 64 cores, 3 calls):
#   here:  scripts/cts-device.sh pack .devcts/bundle.tar.xz /tmp/vkcts
#          cp scripts/cts-device-run.py .devcts/run.py
#          (cd .devcts && scripts/cts-device-plan.py plan LISTDIR RAWDIR fast:api.smoke:300 ...)
#   there (run's carry: .devcts; /.devcts/ in .git/info/exclude):
#          mkdir -p /tmp/vkcts; [ -x /tmp/vkcts/bin/deqp-vk ] || tar -xJf .devcts/bundle.tar.xz -C /tmp/vkcts
#          python3 .devcts/run.py --root /tmp/vkcts --work /tmp/ctswork --out $OUT \
#            --workers $(($(nproc) - 1)) --deadline $((556 - SECONDS)) .devcts/plan/plan.txt
#   here:  copy $OUT's files to RAWDIR/callN/, plan the next call from what is
#          left (cts-device-plan.py skips every case RAWDIR's results hold), and
#          at the end scripts/cts-device-report.py RAWDIR OUTDIR.
# (PLAN's format and the outputs: the head of scripts/cts-device-run.py.)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/device-bundle-libs.sh"
cmd=${1:?usage: cts-device.sh pack|caselists ...}; shift

case "$cmd" in
pack)
  bundle=${1:?BUNDLE.tar.xz}; root=${2:?ROOT}
  deqp=$(readlink -f "${3:-${DEQP_VK:?DEQP_VK}}")
  vkmm=$(readlink -f "${4:-$top/build-release/lib/libvkmm.so}")
  loader=$(readlink -f /lib/x86_64-linux-gnu/libvulkan.so.1)
  stage=$(mktemp -d)
  trap 'rm -rf "$stage"' EXIT
  mkdir -p "$stage/bin" "$stage/lib" "$stage/data"
  strip --strip-all -o "$stage/bin/deqp-vk" "$deqp"
  patchelf --set-interpreter "$root/lib/ld-linux-x86-64.so.2" "$stage/bin/deqp-vk"
  objcopy --strip-debug "$vkmm" "$stage/lib/libvkmm.so"
  cp -L "$loader" "$stage/lib/libvulkan.so.1"
  bundle_libs "$stage" "$deqp" "$vkmm" "$loader"
  # the archive data (amber scripts, SPIR-V and GLSL sources some groups
  # read), less amber/graphicsfuzz (graphics only)
  cp -r "$(dirname "$deqp")/vulkan" "$stage/data/"
  rm -rf "$stage/data/vulkan/amber/graphicsfuzz"
  cp "$top/scripts/cts-device-run.py" "$stage/run.py"
  du -sh "$stage"
  tar -C "$stage" -cf - . | xz -T2 -9e > "$bundle"
  ls -la "$bundle"
  ;;
caselists)
  outdir=${1:?OUTDIR}; deqp=$(readlink -f "${2:-${DEQP_VK:?DEQP_VK}}")
  mkdir -p "$outdir"
  "$deqp" --deqp-archive-dir="$(dirname "$deqp")" --deqp-runmode=txt-caselist --deqp-case='dEQP-VK.*' \
    --deqp-caselist-export-file="$outdir/all-raw.txt" > "$outdir/caselist.log" 2>&1
  sed -n 's/^TEST: //p' "$outdir/all-raw.txt" > "$outdir/all-cases.txt"
  rm -f "$outdir/all-raw.txt"
  a=$outdir/all-cases.txt
  grep '^dEQP-VK\.api\.smoke\.' "$a" > "$outdir/api.smoke.txt"
  grep '^dEQP-VK\.api\.info\.' "$a" > "$outdir/api.info.txt"
  grep '^dEQP-VK\.api\.' "$a" | grep -v -e '^dEQP-VK\.api\.smoke\.' -e '^dEQP-VK\.api\.info\.' > "$outdir/api.rest.txt"
  grep '^dEQP-VK\.memory_model\.' "$a" > "$outdir/memory_model.txt"
  grep '^dEQP-VK\.compute\.' "$a" > "$outdir/compute.txt"
  grep '^dEQP-VK\.synchronization\.' "$a" > "$outdir/synchronization.txt"
  grep '^dEQP-VK\.synchronization2\.' "$a" > "$outdir/synchronization2.txt"
  grep '^dEQP-VK\.spirv_assembly\.instruction\.compute\.' "$a" > "$outdir/spirv_assembly.compute.txt"
  # subgroups, compute stage: the cases whose name has "compute" in it (the
  # per-stage groups name their stage: .compute., .compute_*), plus the
  # groups that only dispatch compute work and do not name a stage:
  # subgroup_uniform_control_flow.{large,small}_* (not .discard, a fragment
  # test), multiple_dispatches.* and size_control.generic (a query).
  grep '^dEQP-VK\.subgroups\.' "$a" > "$outdir/subgroups.all.txt"
  grep -E '^dEQP-VK\.subgroups\.(.*compute|subgroup_uniform_control_flow\.(large|small)_|multiple_dispatches\.|size_control\.generic)' \
    "$a" > "$outdir/subgroups.txt" || true
  wc -l "$outdir"/*.txt
  ;;
*) echo "unknown command $cmd" >&2; exit 2;;
esac
