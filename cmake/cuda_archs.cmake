# The GPU architectures the CUDA backend is built for.
#
# cuzk_default_cuda_archs(): before enable_language(CUDA). Sets
#   CUZK_CUDA_ARCHS_ALL   every architecture of cuzk's set (below) that the
#                         installed nvcc can make SASS for, e.g. 75;80;86;89;90;100;120
#   CUZK_CUDA_ARCHS_DEFAULT  the CMAKE_CUDA_ARCHITECTURES value for them, or for
#                         CUZK_CUDA_ARCHS where that narrows it: SASS of each
#                         (-real) and PTX of the newest (-virtual), which the
#                         driver compiles for a GPU newer than the toolkit.
# cuzk_cuda_archs_built(): after enable_language(CUDA). Sets
#   CUZK_CUDA_ARCHS_BUILT the images the binaries carry, from
#                         CMAKE_CUDA_ARCHITECTURES whoever set it, in nvcc's
#                         names: "sm_75;sm_80;...;sm_120;compute_120".
#
# The set: one architecture per generation of GPU that users own, from the
# oldest CUDA 13 compiles for (Turing) up. A GPU of a minor version in between
# (8.7 Orin, 12.1 GB10) runs the SASS of its major version's lower minor.
set(CUZK_CUDA_ARCH_SET 75 80 86 89 90 100 120)
set(CUZK_CUDA_ARCHS "" CACHE STRING
    "GPU architectures to build for, a list such as 86;90 (empty: every one nvcc supports from 75 up); CMAKE_CUDA_ARCHITECTURES, when given, wins")

function(cuzk_default_cuda_archs)
  execute_process(COMMAND "${CMAKE_CUDA_COMPILER}" --list-gpu-code
                  OUTPUT_VARIABLE codes ERROR_QUIET RESULT_VARIABLE rc)
  set(supported "")
  if(rc EQUAL 0)
    string(REGEX MATCHALL "sm_[0-9]+" codes "${codes}")
    foreach(code IN LISTS codes)
      string(REPLACE "sm_" "" arch "${code}")
      list(APPEND supported ${arch})
    endforeach()
  endif()
  if(NOT supported)
    # nvcc before 11.0 has no --list-gpu-code; Turing's is in every nvcc since 10.0.
    message(WARNING "cuzk: `${CMAKE_CUDA_COMPILER} --list-gpu-code` failed; building for 75 only")
    set(supported 75)
  endif()
  set(all "")
  foreach(arch IN LISTS CUZK_CUDA_ARCH_SET)
    if(arch IN_LIST supported)
      list(APPEND all ${arch})
    endif()
  endforeach()
  if(NOT all)
    message(FATAL_ERROR "cuzk: ${CMAKE_CUDA_COMPILER} builds for none of ${CUZK_CUDA_ARCH_SET} (it lists ${supported})")
  endif()
  set(chosen ${all})
  if(NOT CUZK_CUDA_ARCHS STREQUAL "")
    set(chosen "")
    foreach(arch IN LISTS CUZK_CUDA_ARCHS)
      if(NOT arch MATCHES "^[0-9]+$" OR arch LESS 75)
        message(FATAL_ERROR "CUZK_CUDA_ARCHS: '${arch}' is not an architecture cuzk builds for (75 and up, such as 86 or 90)")
      endif()
      if(NOT arch IN_LIST supported)
        message(FATAL_ERROR "CUZK_CUDA_ARCHS: ${CMAKE_CUDA_COMPILER} cannot build for ${arch} (it takes: ${supported})")
      endif()
      list(APPEND chosen ${arch})
    endforeach()
    list(REMOVE_DUPLICATES chosen)
    list(SORT chosen COMPARE NATURAL)
  endif()
  set(value "")
  foreach(arch IN LISTS chosen)
    list(APPEND value ${arch}-real)
  endforeach()
  list(GET chosen -1 newest)
  list(APPEND value ${newest}-virtual)
  set(CUZK_CUDA_ARCHS_ALL "${all}" PARENT_SCOPE)
  set(CUZK_CUDA_ARCHS_DEFAULT "${value}" PARENT_SCOPE)
endfunction()

function(cuzk_cuda_archs_built)
  set(archs "${CMAKE_CUDA_ARCHITECTURES}")
  # CMake's keywords: every real architecture in its list (all, all-major) or
  # the visible GPUs' (native), and for all and all-major the newest as PTX.
  if(archs STREQUAL "all" OR archs STREQUAL "all-major")
    if(archs STREQUAL "all")
      set(archs ${CMAKE_CUDA_ARCHITECTURES_ALL})
    else()
      set(archs ${CMAKE_CUDA_ARCHITECTURES_ALL_MAJOR})
    endif()
    list(TRANSFORM archs APPEND "-real")
    list(GET archs -1 newest)
    string(REPLACE "-real" "-virtual" newest "${newest}")
    list(APPEND archs ${newest})
  elseif(archs STREQUAL "native")
    set(archs ${CMAKE_CUDA_ARCHITECTURES_NATIVE})
  endif()
  set(real "")
  set(virtual "")
  foreach(entry IN LISTS archs)
    if(NOT entry MATCHES "^([0-9]+[a-z]?)(-real|-virtual)?$")
      message(FATAL_ERROR "cuzk: cannot read the CUDA architecture '${entry}' in '${CMAKE_CUDA_ARCHITECTURES}'")
    endif()
    set(arch ${CMAKE_MATCH_1})
    if(NOT CMAKE_MATCH_2 STREQUAL "-virtual")  # plain "90" is both
      list(APPEND real sm_${arch})
    endif()
    if(NOT CMAKE_MATCH_2 STREQUAL "-real")
      list(APPEND virtual compute_${arch})
    endif()
  endforeach()
  set(CUZK_CUDA_ARCHS_BUILT ${real} ${virtual} PARENT_SCOPE)
endfunction()
