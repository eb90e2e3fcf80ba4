# Writes a C++ header that holds text files' bytes, so that a program serves them
# without reading any file at run time (cuzkd's status page: its HTML, script
# and style, and uPlot from node_modules). Run as a script:
#   cmake -DOUTPUT=assets.hpp -DNAMESPACE=ns
#         "-DFILES=/url|type|file,/url|type|file" -P embed_files.cmake
# The header defines, in namespace NAMESPACE,
#   struct Asset { std::string_view path, type, bytes; };
#   inline const Asset kAssets[];   // in the order given
cmake_minimum_required(VERSION 3.25)

set(text "// Made by cmake/embed_files.cmake at build time from the files named below; not to be edited.\n")
string(APPEND text "#pragma once\n\n#include <string_view>\n\nnamespace ${NAMESPACE} {\n\n")
string(APPEND text "struct Asset {\n  std::string_view path, type, bytes;\n};\n\n")
set(table "")
set(index 0)
string(REPLACE "," ";" entries "${FILES}")
foreach(entry IN LISTS entries)
  string(REPLACE "|" ";" fields "${entry}")
  list(GET fields 0 url)
  list(GET fields 1 type)
  list(GET fields 2 file)
  if(NOT EXISTS "${file}")
    message(FATAL_ERROR "embed_files: no file ${file}")
  endif()
  # As one raw string literal: text files only (no NUL byte, which CMake's
  # strings cannot hold), and none that holds the literal's closing delimiter.
  file(READ "${file}" content)
  file(SIZE "${file}" size)
  string(LENGTH "${content}" length)
  if(NOT length EQUAL size)
    message(FATAL_ERROR "embed_files: ${file} is not a text file")
  endif()
  string(FIND "${content}" ")cuzk_asset\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "embed_files: ${file} holds the delimiter )cuzk_asset\"")
  endif()
  get_filename_component(name "${file}" NAME)
  string(APPEND text "// ${name}\ninline constexpr char kAsset${index}[] = R\"cuzk_asset(${content})cuzk_asset\";\n")
  string(APPEND text "static_assert(sizeof(kAsset${index}) == ${size} + 1, \"${name}: the literal is its bytes\");\n")
  string(APPEND table "    {\"${url}\", \"${type}\", {kAsset${index}, ${size}}},\n")
  math(EXPR index "${index} + 1")
endforeach()
string(APPEND text "\ninline constexpr Asset kAssets[] = {\n${table}};\n\n}  // namespace ${NAMESPACE}\n")

# Written only when changed, so that what includes it is not rebuilt for nothing.
set(old "")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUTPUT}" "${text}")
endif()
