#!/usr/bin/env bash
# Runs every buggy variant of the sync-bug suite (tests/sync) once on lavapipe
# and once on vkmm (strict mode), both with VK_LAYER_KHRONOS_validation and
# its synchronization validation on, and prints one Markdown table row per
# variant: the answer and what the layer said on lavapipe, the answer and
# what vkmm reported.  docs/sync-validation-survey.md holds its output.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${VKMM_BUILD_DIR:-$top/build}

cmake -S "$top" -B "$build" >/dev/null
cmake --build "$build" -j2 >/dev/null

lavapipe=$(ls /usr/share/vulkan/icd.d/lvp_icd.*.json | head -n1)
export VKMM_SYNC_SURVEY=1
export VK_LOADER_LAYERS_DISABLE='~implicit~'
export VK_LAYER_ENABLES=VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT
export MESA_SHADER_CACHE_DISABLE=true

# One line per buggy variant: suite/variant|answer|layer IDs|vkmm hazard
survey() {
    for test in "$build"/tests/sync_*; do
        local suite
        suite=$(basename "$test" | sed 's/^sync_//')
        VK_ICD_FILENAMES=$1 VK_DRIVER_FILES=$1 VKMM_MODE=strict "$test" 2>/dev/null |
            sed -n "s/^SURVEY \([^ ]*\)[^|]*| [^|]*| answer \([a-z]*\) | [^|]*| [^|]*| ids \([^|]*\) | vkmm \(.*\)$/$suite\/\1|\2|\3|\4/p"
    done
}

lavapipe_rows=$(survey "$lavapipe")
vkmm_rows=$(survey "$build/manifests/vkmm_icd.json")
echo "| variant | lavapipe: answer | lavapipe: validation + sync validation | vkmm strict: answer | vkmm strict: report |"
echo "|---|---|---|---|---|"
while IFS='|' read -r name answer ids _; do
    IFS='|' read -r _ vkmm_answer _ vkmm_hazard <<<"$(grep "^$name|" <<<"$vkmm_rows" || true)"
    [ "$ids" = "-" ] && ids="nothing"
    [ "$vkmm_hazard" = "-" ] && vkmm_hazard="nothing"
    echo "| $name | $answer | ${ids% } | $vkmm_answer | $vkmm_hazard |"
done <<<"$lavapipe_rows"
