#!/usr/bin/env bash
# The arrows of DESIGN §2 run one way: objects → execution (runtime/exec/)
# → strict bridge (runtime/strict/) → engine (runtime/memmodel/).  The
# bridge and the engine know no Vulkan object: this check fails when one of
# their files includes a header outside what each may use.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
status=0

# check DIR ALLOWED...: every quoted include in DIR names an allowed header
# (a header of DIR itself is always allowed).
check() {
  local dir=$1; shift
  local allowed=" $* "
  for file in "$top/$dir"/*.[ch]; do
    while read -r header; do
      [ -e "$top/$dir/$header" ] && continue
      case "$allowed" in *" $header "*) continue ;; esac
      echo "check-arrows: $dir/$(basename "$file") includes \"$header\": not allowed there" >&2
      status=1
    done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$file")
  done
}

# The engine: itself and the generated enum names.
check runtime/memmodel vkmm_enum_strings.h
# The bridge: the engine, the shader ABI, vkmm's public header and the
# runtime's utilities (allocation, the address space, message formatting).
check runtime/strict memmodel/memmodel.h shader_abi.h vkmm/vkmm.h alloc.h address_space.h log.h

if [ "$status" -eq 0 ]; then
  echo "check-arrows: runtime/strict and runtime/memmodel include no object header"
fi
exit "$status"
