# The optional parts of the build and of the test suite, and a record of what
# each came to, so that nothing is left out without a word.
#
# A part of the build (cuzkd, the job queue, the Node.js binding, the fuzz
# targets) is switched by a cache variable AUTO|ON|OFF. When something it
# needs is missing, ON is an error and AUTO leaves the part out with a
# message; in both cases the file that asked stops there (a macro, so that
# return() leaves the caller's file).
#   cuzk_optional_part(CUZK_DAEMON cuzkd "${missing}")   # missing: a list
#
# A group of tests that needs a tool the build does not (GMP, valgrind,
# dpkg-deb, a PostgreSQL server, python3 with grpc, openssl) is switched by
# one variable, CUZK_TEST_TOOLS: AUTO leaves out the group whose tool is
# missing, ON makes that an error (scripts/test.sh, and so CI).
#   cuzk_test_part("the GMP oracle tests" "${missing}" have_gmp)   # have_gmp: TRUE or FALSE
#
# A group whose tool is one program found on the PATH into a cache variable:
#   cuzk_test_program("the memcheck tests" valgrind CUZK_VALGRIND have_valgrind)
#
# Every part's outcome goes to CMAKE_BINARY_DIR/cuzk-parts.txt, a line
# "ON<TAB>what" or "OFF<TAB>what<TAB>why" each, which scripts/test.sh names
# in its closing line.
include_guard(GLOBAL)

set(CUZK_TEST_TOOLS AUTO CACHE STRING "Tests that need tools beyond the build's: AUTO (where found) or ON (required)")
set_property(CACHE CUZK_TEST_TOOLS PROPERTY STRINGS AUTO ON)

function(cuzk_record_part state what why)
  string(REPLACE ";" ", " why "${why}")
  set_property(GLOBAL APPEND PROPERTY CUZK_PARTS "${state}\t${what}\t${why}")
endfunction()

# cuzk_missing_unless(WHAT CONDITION...): WHAT joins the list `missing` that
# cuzk_optional_part is then given, unless CONDITION (if()'s arguments) holds.
macro(cuzk_missing_unless what)
  if(NOT (${ARGN}))
    list(APPEND missing "${what}")
  endif()
endmacro()

macro(cuzk_optional_part option what missing)
  set(_cuzk_missing "${missing}")
  if(NOT _cuzk_missing STREQUAL "")
    string(REPLACE ";" ", " _cuzk_missing "${_cuzk_missing}")
    if(${option} STREQUAL "ON")
      message(FATAL_ERROR "${option}=ON, but ${what} needs what is missing: ${_cuzk_missing}")
    endif()
    message(STATUS "cuzk: ${what} OFF (missing: ${_cuzk_missing})")
    cuzk_record_part(OFF "${what}" "missing: ${_cuzk_missing}")
    return()
  endif()
  cuzk_record_part(ON "${what}" "")
endmacro()

function(cuzk_test_part what missing out)
  if(NOT missing STREQUAL "")
    string(REPLACE ";" ", " missing "${missing}")
    if(CUZK_TEST_TOOLS STREQUAL "ON")
      message(FATAL_ERROR "CUZK_TEST_TOOLS=ON, but ${what} need what is missing: ${missing}")
    endif()
    message(STATUS "cuzk: ${what} OFF (missing: ${missing})")
    cuzk_record_part(OFF "${what}" "missing: ${missing}")
    set(${out} FALSE PARENT_SCOPE)
  else()
    cuzk_record_part(ON "${what}" "")
    set(${out} TRUE PARENT_SCOPE)
  endif()
endfunction()

function(cuzk_test_program what program variable out)
  find_program(${variable} ${program})
  set(missing "")
  if(NOT ${variable})
    set(missing "${program}")
  endif()
  cuzk_test_part("${what}" "${missing}" have)
  set(${out} ${have} PARENT_SCOPE)
endfunction()

# At the end of the top-level directory: the parts switched OFF by their
# variable (their files stop before they ask), then the file.
function(cuzk_write_parts)
  if(NOT CUZK_HAVE_CUDA)
    if(CUZK_CUDA STREQUAL "OFF")
      cuzk_record_part(OFF "the CUDA backend and its tests" "CUZK_CUDA=OFF")
    else()
      cuzk_record_part(OFF "the CUDA backend and its tests" "no CUDA compiler")
    endif()
  endif()
  foreach(option_what "CUZK_DAEMON;cuzkd" "CUZK_QUEUE;the job queue" "CUZK_NODE;the Node.js binding"
                      "CUZK_FUZZ;the fuzz targets")
    list(GET option_what 0 option)
    list(GET option_what 1 what)
    if(${option} STREQUAL "OFF")
      cuzk_record_part(OFF "${what}" "${option}=OFF")
    endif()
  endforeach()
  get_property(parts GLOBAL PROPERTY CUZK_PARTS)
  list(JOIN parts "\n" text)
  file(WRITE ${CMAKE_BINARY_DIR}/cuzk-parts.txt "${text}\n")
endfunction()
cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL cuzk_write_parts)
