# Every dependency is a Debian 12 package; a missing one stops the configure
# step with the package's name (scripts/install-deps.sh installs them all).

function(vkmm_require_file var file package)
  find_file(${var} ${file} PATHS ${ARGN} NO_DEFAULT_PATH)
  find_file(${var} ${file})
  if(NOT ${var})
    message(FATAL_ERROR "vkmm needs ${file}: install the Debian package '${package}' "
                        "(or run scripts/install-deps.sh as root)")
  endif()
endfunction()

function(vkmm_require_program var name package)
  find_program(${var} ${name})
  if(NOT ${var})
    message(FATAL_ERROR "vkmm needs the program '${name}': install the Debian package '${package}' "
                        "(or run scripts/install-deps.sh as root)")
  endif()
endfunction()

find_package(Python3 COMPONENTS Interpreter)
if(NOT Python3_FOUND)
  message(FATAL_ERROR "vkmm needs python3 to generate code from vk.xml: install the Debian package 'python3'")
endif()

vkmm_require_file(VKMM_VK_XML vk.xml libvulkan-dev /usr/share/vulkan/registry)
vkmm_require_file(VKMM_VULKAN_H vulkan/vulkan.h libvulkan-dev /usr/include)
vkmm_require_file(VKMM_VK_ICD_H vulkan/vk_icd.h libvulkan-dev /usr/include)

find_package(Threads REQUIRED)

# Hazard reports are JSON lines written with cJSON.
vkmm_require_file(VKMM_CJSON_H cjson/cJSON.h libcjson-dev /usr/include)
find_library(VKMM_CJSON_LIBRARY cjson)
if(NOT VKMM_CJSON_LIBRARY)
  message(FATAL_ERROR "vkmm needs cJSON for hazard reports: install the Debian package 'libcjson-dev'")
endif()

# Pipeline-cache integrity (HMAC-SHA-256) from OpenSSL's libcrypto.
vkmm_require_file(VKMM_OPENSSL_H openssl/evp.h libssl-dev /usr/include)
find_library(VKMM_CRYPTO_LIBRARY crypto)
if(NOT VKMM_CRYPTO_LIBRARY)
  message(FATAL_ERROR "vkmm needs libcrypto for pipeline-cache integrity: install the Debian package 'libssl-dev'")
endif()

# ASTC LDR blocks (the compressed format set vkmm supports) decoded by
# ARM's astc-encoder.
vkmm_require_file(VKMM_ASTCENC_H astcenc.h libastcenc-dev /usr/include)
find_library(VKMM_ASTCENC_LIBRARY astcenc)
if(NOT VKMM_ASTCENC_LIBRARY)
  message(FATAL_ERROR "vkmm needs astc-encoder to decode ASTC textures: install the Debian package 'libastcenc-dev'")
endif()

# LLVM-C with ORC LLJIT (Debian 12: llvm-19-dev).
find_program(VKMM_LLVM_CONFIG NAMES llvm-config-19 PATHS /usr/lib/llvm-19/bin)
if(NOT VKMM_LLVM_CONFIG)
  message(FATAL_ERROR "vkmm needs LLVM 19: install the Debian package 'llvm-19-dev'")
endif()
execute_process(COMMAND ${VKMM_LLVM_CONFIG} --includedir OUTPUT_VARIABLE VKMM_LLVM_INCLUDE
                OUTPUT_STRIP_TRAILING_WHITESPACE)
execute_process(COMMAND ${VKMM_LLVM_CONFIG} --libdir OUTPUT_VARIABLE VKMM_LLVM_LIBDIR
                OUTPUT_STRIP_TRAILING_WHITESPACE)
find_library(VKMM_LLVM_LIBRARY NAMES LLVM-19 LLVM PATHS ${VKMM_LLVM_LIBDIR} NO_DEFAULT_PATH)
if(NOT VKMM_LLVM_LIBRARY OR NOT EXISTS ${VKMM_LLVM_INCLUDE}/llvm-c/LLJIT.h)
  message(FATAL_ERROR "vkmm needs LLVM 19's C API and shared library: install the Debian package 'llvm-19-dev'")
endif()

# SPIRV-Tools (validator, parser, optimiser) and SPIRV-Headers.
vkmm_require_file(VKMM_SPIRV_TOOLS_H spirv-tools/libspirv.h spirv-tools /usr/include)
find_library(VKMM_SPIRV_TOOLS_LIBRARY NAMES libSPIRV-Tools-opt.a)
find_library(VKMM_SPIRV_TOOLS_CORE_LIBRARY NAMES libSPIRV-Tools.a)
if(NOT VKMM_SPIRV_TOOLS_LIBRARY OR NOT VKMM_SPIRV_TOOLS_CORE_LIBRARY)
  message(FATAL_ERROR "vkmm needs the SPIRV-Tools libraries: install the Debian package 'spirv-tools'")
endif()
vkmm_require_file(VKMM_SPIRV_H spirv/unified1/spirv.h spirv-headers /usr/include)
vkmm_require_file(VKMM_SPIRV_GRAMMAR spirv/unified1/spirv.core.grammar.json spirv-headers /usr/include)
vkmm_require_file(VKMM_GLSL_GRAMMAR spirv/unified1/extinst.glsl.std.450.grammar.json spirv-headers /usr/include)

if(VKMM_BUILD_TESTS)
  find_library(VKMM_VULKAN_LOADER vulkan)
  if(NOT VKMM_VULKAN_LOADER)
    message(FATAL_ERROR "vkmm's tests need the Vulkan loader: install the Debian package 'libvulkan-dev'")
  endif()
  find_path(VKMM_CMOCKA_INCLUDE cmocka.h)
  find_library(VKMM_CMOCKA_LIBRARY cmocka)
  if(NOT VKMM_CMOCKA_INCLUDE OR NOT VKMM_CMOCKA_LIBRARY)
    message(FATAL_ERROR "vkmm's tests need CMocka: install the Debian package 'libcmocka-dev'")
  endif()
  find_program(VKMM_GLSLC glslc)
  if(NOT VKMM_GLSLC)
    message(FATAL_ERROR "vkmm's tests compile GLSL shaders: install the Debian package 'glslc'")
  endif()
  find_program(VKMM_SPIRV_AS spirv-as)
  if(NOT VKMM_SPIRV_AS)
    message(FATAL_ERROR "vkmm's tests assemble SPIR-V text: install the Debian package 'spirv-tools'")
  endif()
  find_program(VKMM_VULKANINFO vulkaninfo)
  if(NOT VKMM_VULKANINFO)
    message(FATAL_ERROR "vkmm's tests run vulkaninfo: install the Debian package 'vulkan-tools'")
  endif()
  set(VKMM_VALIDATION_LAYER_JSON /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json)
  if(NOT EXISTS ${VKMM_VALIDATION_LAYER_JSON})
    message(FATAL_ERROR "vkmm's tests run under the validation layer: install the Debian package "
                        "'vulkan-validationlayers'")
  endif()
endif()
