# A stand-in for HeCBench's top-level CMake, for the corpus build check
# (testsuite/corpus/build_check.py --cmake).
#
# Every corpus CMakeLists.txt calls add_hecbench_benchmark(NAME MODEL SOURCES
# [CATEGORIES] [COMPILE_OPTIONS] [LINK_LIBRARIES] [INCLUDE_DIRS] [TEST_*]),
# which HeCBench defines in its top-level cmake/ folder. The corpus holds the
# benchmark folders only (see its MANIFEST.json), so the check writes a
# top-level CMakeLists.txt above src/NAME-MODEL/ that includes this file.
# The hand-written HIP twin and the translated CUDA benchmark are configured
# and built through this same file: neither gains from it.
#
# What it keeps of HeCBench's interface, the parts that decide whether a
# benchmark compiles and links: one executable NAME-MODEL of SOURCES, all of
# them in CMake's HIP language for MODEL hip (HeCBench does the same); the
# include directories INCLUDE_DIRS, the benchmark's own folder and, for a
# model other than cuda, src/NAME-cuda (where HIP ports take shared headers
# from); C++17 for HIP; COMPILE_OPTIONS and LINK_LIBRARIES as given.
# Architectures come from CMAKE_HIP_ARCHITECTURES (the check passes gfx906).
# Left out: tests, categories and the Boost/MPI/GSL/GDAL gates (those
# benchmarks fail here for the twin and the translation alike), and MODEL
# cuda, which needs CUDA (a translated file still saying cuda fails).
function(add_hecbench_benchmark)
  cmake_parse_arguments(BENCH "" "NAME;MODEL;TEST_REGEX;TEST_TIMEOUT"
    "SOURCES;CATEGORIES;COMPILE_OPTIONS;LINK_LIBRARIES;INCLUDE_DIRS;TEST_ARGS" ${ARGN})
  string(TOLOWER "${BENCH_MODEL}" model)
  if(NOT model STREQUAL "hip")
    message(FATAL_ERROR "add_hecbench_benchmark: MODEL ${BENCH_MODEL}: this check builds HIP only")
  endif()
  set(target ${BENCH_NAME}-${model})
  set_source_files_properties(${BENCH_SOURCES} PROPERTIES LANGUAGE HIP)
  add_executable(${target} ${BENCH_SOURCES})
  set_target_properties(${target} PROPERTIES OUTPUT_NAME ${BENCH_NAME} HIP_STANDARD 17)
  target_include_directories(${target} PRIVATE ${BENCH_INCLUDE_DIRS} "${CMAKE_CURRENT_SOURCE_DIR}")
  if(EXISTS "${CMAKE_SOURCE_DIR}/src/${BENCH_NAME}-cuda")
    target_include_directories(${target} PRIVATE "${CMAKE_SOURCE_DIR}/src/${BENCH_NAME}-cuda")
  endif()
  target_compile_options(${target} PRIVATE ${BENCH_COMPILE_OPTIONS})
  target_link_libraries(${target} PRIVATE ${BENCH_LINK_LIBRARIES})
endfunction()

# HeCBench unzips input data at configure time; building needs none of it.
macro(UNZIPFILE zipfile)
endmacro()
