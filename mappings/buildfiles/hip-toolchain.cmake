# Toolchain file for CMake's HIP language (CMake >= 3.21) on Debian's packaged
# ROCm (Debian 12: HIP 5.2, CMake 3.25), which it does not configure as shipped:
#  - CMake looks for <rocm>/lib/cmake/hip-lang/hip-lang-config.cmake, and Debian
#    installs it under the multiarch lib/<triplet>/cmake: a shim root in the build
#    tree links lib/cmake/hip-lang to it;
#  - the HIP compiler must be the clang that hipcc drives (clang++-15 there, not
#    /usr/bin/clang++), by its real path so that it links with its own lld, and
#    without --rocm-path it finds no HIP runtime;
#  - hip-lang's amd_comgr dependency is found through the multiarch CMake dir;
#  - clang reads the HIP version from a file Debian does not ship, takes 3.5,
#    and then leaves out the runtime wrapper header that defines __device__
#    and friends in every HIP file (a .c file compiled as HIP that includes
#    no HIP header fails): --hip-version gives it hipconfig's version.
# On a ROCm or DTK install (/opt/rocm, /opt/dtk) none of this is needed.
#   cmake -S src -B build -DCMAKE_TOOLCHAIN_FILE=<this file>
# (docs/build-migration.md)

execute_process(COMMAND hipconfig --hipclangpath OUTPUT_VARIABLE _cu2dcu_clang_dir
                OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
execute_process(COMMAND hipconfig --rocmpath OUTPUT_VARIABLE _cu2dcu_rocm
                OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
execute_process(COMMAND hipconfig --full OUTPUT_VARIABLE _cu2dcu_hipconfig ERROR_QUIET)
if(NOT _cu2dcu_rocm)
  set(_cu2dcu_rocm /usr)
endif()
if(_cu2dcu_hipconfig MATCHES "clang version ([0-9]+)")
  set(_cu2dcu_clang_major ${CMAKE_MATCH_1})
endif()
find_program(_cu2dcu_hip_clang NAMES clang++-${_cu2dcu_clang_major} clang++
             HINTS ${_cu2dcu_clang_dir} NO_CACHE)
if(NOT CMAKE_HIP_COMPILER AND _cu2dcu_hip_clang)
  # Its real path: clang looks for lld beside itself, and /usr/bin/lld is
  # another LLVM's (a -fgpu-rdc device link would read 15's bitcode with 14).
  # One link only (clang++-15 -> llvm-15/bin/clang++): the name stays clang++.
  if(IS_SYMLINK "${_cu2dcu_hip_clang}")
    get_filename_component(_cu2dcu_link_dir "${_cu2dcu_hip_clang}" DIRECTORY)
    file(READ_SYMLINK "${_cu2dcu_hip_clang}" _cu2dcu_hip_clang)
    get_filename_component(_cu2dcu_hip_clang "${_cu2dcu_hip_clang}" ABSOLUTE BASE_DIR "${_cu2dcu_link_dir}")
  endif()
  set(CMAKE_HIP_COMPILER ${_cu2dcu_hip_clang} CACHE FILEPATH "clang driven by hipcc")
endif()

file(GLOB _cu2dcu_hip_lang "${_cu2dcu_rocm}/lib/*/cmake/hip-lang/hip-lang-config.cmake")
if(_cu2dcu_hip_lang AND NOT EXISTS "${_cu2dcu_rocm}/lib/cmake/hip-lang/hip-lang-config.cmake")
  list(GET _cu2dcu_hip_lang 0 _cu2dcu_hip_lang)
  get_filename_component(_cu2dcu_hip_lang_dir "${_cu2dcu_hip_lang}" DIRECTORY)
  get_filename_component(_cu2dcu_cmake_dir "${_cu2dcu_hip_lang_dir}" DIRECTORY)
  set(_cu2dcu_shim "${CMAKE_BINARY_DIR}/cu2dcu-rocm-shim")
  file(MAKE_DIRECTORY "${_cu2dcu_shim}/lib/cmake")
  if(NOT EXISTS "${_cu2dcu_shim}/lib/cmake/hip-lang")
    file(CREATE_LINK "${_cu2dcu_hip_lang_dir}" "${_cu2dcu_shim}/lib/cmake/hip-lang" SYMBOLIC)
  endif()
  set(CMAKE_HIP_COMPILER_ROCM_ROOT "${_cu2dcu_shim}" CACHE PATH "ROCm root as CMake expects it")
  list(APPEND CMAKE_PREFIX_PATH "${_cu2dcu_cmake_dir}")
endif()

# What hipcc passes to clang on this layout.
file(GLOB _cu2dcu_bitcode "${_cu2dcu_rocm}/lib/*/amdgcn/bitcode")
set(CMAKE_HIP_FLAGS_INIT "--rocm-path=${_cu2dcu_rocm}")
if(_cu2dcu_bitcode)
  list(GET _cu2dcu_bitcode 0 _cu2dcu_bitcode)
  string(APPEND CMAKE_HIP_FLAGS_INIT " --hip-device-lib-path=${_cu2dcu_bitcode}")
endif()
execute_process(COMMAND hipconfig --version OUTPUT_VARIABLE _cu2dcu_hip_version ERROR_QUIET)
if(_cu2dcu_hip_version MATCHES "^([0-9]+)\\.([0-9]+)")
  string(APPEND CMAKE_HIP_FLAGS_INIT " --hip-version=${CMAKE_MATCH_1}.${CMAKE_MATCH_2}.0")
  # hip-lang puts the HIP headers' folder on -isystem; where that folder is
  # /usr/include, the C++ headers' #include_next <math.h> (the wrapper's
  # <cmath>) would fail in CMake's compiler checks, which run before CMake
  # learns the folder is searched anyway.
  list(APPEND CMAKE_HIP_IMPLICIT_INCLUDE_DIRECTORIES "${_cu2dcu_rocm}/include")
endif()
