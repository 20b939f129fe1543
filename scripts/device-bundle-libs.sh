# Sourced by scripts/cts-device.sh and scripts/bench-device.sh: puts into
# STAGE/lib every shared library the given ELF files load (debug info
# stripped), glibc's loader, and a stub for libicudata.
#   bundle_libs STAGE FILE...
bundle_libs() {
  local stage=$1 lib name icud sym
  shift
  for f in "$@"; do
    ldd "$f" | awk '/=> \// { print $3 } /^\t\/.*ld-linux/ { print $1 }'
  done | sort -u | while read -r lib; do
    name=$(basename "$lib")
    [ -e "$stage/lib/$name" ] || objcopy --strip-debug "$(readlink -f "$lib")" "$stage/lib/$name"
  done
  cp -L /lib64/ld-linux-x86-64.so.2 "$stage/lib/"
  # libicudata (31 MB: ICU's locale and conversion tables) is there only
  # because libLLVM -> libxml2 -> libicuuc needs it to load; nothing the
  # bundles run converts text with ICU.  A stub that defines the one symbol
  # libicuuc binds keeps a bundle under the 64 MiB a device call can carry.
  for icud in "$stage"/lib/libicudata.so.*; do
    [ -e "$icud" ] || continue
    sym=$(nm -D --defined-only "$icud" | awk '$3 ~ /^icudt[0-9]+_dat$/ { print $3 }')
    echo "const char $sym[64] __attribute__((aligned(16))) = {0};" > "$stage/icustub.c"
    cc -shared -fPIC -o "$icud" -Wl,-soname,"$(basename "$icud")" "$stage/icustub.c"
    rm "$stage/icustub.c"
  done
  chmod +x "$stage/lib/ld-linux-x86-64.so.2"
}
