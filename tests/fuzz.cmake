# The readers' libFuzzer targets (tests/fuzz/) need clang, so a nested build
# makes them with clang++ while the rest of cuzk builds with g++; each then
# runs for a bounded time as a ctest test labelled "fuzz", from the committed
# seeds plus a corpus it grows in the build tree. CUZK_FUZZ: AUTO builds them
# where clang++ links -fsanitize=fuzzer, ON makes that an error, OFF skips.
if(CUZK_FUZZ STREQUAL "OFF")
  return()
endif()

find_program(CUZK_FUZZ_CXX clang++ DOC "clang++ for the libFuzzer targets")
set(fuzz_links FALSE)
if(CUZK_FUZZ_CXX)
  # clang without compiler-rt's libFuzzer (libclang-rt-*-dev) compiles but
  # does not link, so the probe links.
  set(probe ${CMAKE_CURRENT_BINARY_DIR}/fuzz-probe)
  file(WRITE ${probe}.cpp "#include <cstddef>\n#include <cstdint>\n"
       "extern \"C\" int LLVMFuzzerTestOneInput(const uint8_t*, size_t) { return 0; }\n")
  execute_process(COMMAND ${CUZK_FUZZ_CXX} -fsanitize=fuzzer,address,undefined ${probe}.cpp -o ${probe}
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
  if(rc EQUAL 0)
    set(fuzz_links TRUE)
  endif()
endif()
set(missing "")
if(NOT fuzz_links)
  set(missing "a clang++ that links -fsanitize=fuzzer")
endif()
cuzk_optional_part(CUZK_FUZZ "the fuzz targets" "${missing}")
message(STATUS "cuzk: fuzz targets ON (${CUZK_FUZZ_CXX})")

include(ExternalProject)
set(fuzz_dir ${CMAKE_CURRENT_BINARY_DIR}/fuzz)
ExternalProject_Add(cuzk_fuzz
  SOURCE_DIR ${CMAKE_CURRENT_SOURCE_DIR}/fuzz
  BINARY_DIR ${fuzz_dir}
  CMAKE_ARGS -DCMAKE_CXX_COMPILER=${CUZK_FUZZ_CXX}
  BUILD_ALWAYS ON  # its sources live in src/, which ExternalProject does not watch
  INSTALL_COMMAND "")

# 20 s each keeps the five under two minutes of CPU per ctest run;
# -rss_limit_mb also caps single allocations (libFuzzer's malloc limit
# defaults to it), so a size field that lies is caught as well. Inputs that
# fail are kept in fuzz-crashes/, and the output names the file.
foreach(target zkey wtns r1cs json bellperson)
  add_test(NAME fuzz_${target}
           COMMAND ${fuzz_dir}/fuzz_${target} -max_total_time=20 -timeout=10 -rss_limit_mb=2048
                   -create_missing_dirs=1 -artifact_prefix=${CMAKE_CURRENT_BINARY_DIR}/fuzz-crashes/${target}-
                   ${CMAKE_CURRENT_BINARY_DIR}/fuzz-corpus/${target} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus/${target})
  set_tests_properties(fuzz_${target} PROPERTIES LABELS fuzz TIMEOUT 120 COST 200
                       ENVIRONMENT "UBSAN_OPTIONS=print_stacktrace=1")
endforeach()
