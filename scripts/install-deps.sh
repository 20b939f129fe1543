#!/usr/bin/env bash
# Installs every Debian 12 package vkmm's build, tests, examples and
# benchmarks need.  Run as root.  Safe to run again.
set -euo pipefail

packages=(
  build-essential cmake pkg-config python3   # toolchain and the vk.xml generator
  libvulkan-dev                               # Vulkan headers, vk.xml, the loader
  vulkan-tools                                # vulkaninfo
  vulkan-validationlayers                     # VK_LAYER_KHRONOS_validation for the tests
  llvm-19-dev                                 # LLVM-C and ORC LLJIT: the shader compiler's back end
  spirv-tools spirv-headers                   # SPIR-V validator, parser, optimiser; enums and grammar
  glslc                                       # the tests' GLSL shaders, compiled at build time
  libcjson-dev                                # strict mode's hazard reports (JSON lines)
  libssl-dev                                  # libcrypto: pipeline-cache integrity (HMAC-SHA-256)
  libastcenc-dev                              # ASTC LDR texture decoding (the compressed format set)
  libcmocka-dev                               # unit and API test framework
  clang libclang-rt-14-dev                    # libFuzzer for the SPIR-V fuzz target
  mesa-vulkan-drivers                         # lavapipe, for side-by-side comparisons
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: everything is installed"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing ${missing[*]}; run this script as root" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
