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
