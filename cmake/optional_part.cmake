# An optional part of the build (cuzkd, the Node.js binding, the fuzz
# targets), switched by a cache variable AUTO|ON|OFF. When something it needs
# is missing, ON is an error and AUTO leaves the part out with a message; in
# both cases the file that asked stops there (a macro, so that return()
# leaves the caller's file).
#   cuzk_optional_part(CUZK_DAEMON cuzkd "${missing}")   # missing: a list
macro(cuzk_optional_part option what missing)
  set(_cuzk_missing "${missing}")
  if(NOT _cuzk_missing STREQUAL "")
    string(REPLACE ";" ", " _cuzk_missing "${_cuzk_missing}")
    if(${option} STREQUAL "ON")
      message(FATAL_ERROR "${option}=ON, but ${what} needs what is missing: ${_cuzk_missing}")
    endif()
    message(STATUS "cuzk: ${what} OFF (missing: ${_cuzk_missing})")
    return()
  endif()
endmacro()
