#!/usr/bin/env bash
# libcuzk as a user installs it: `cmake --install` into a fresh prefix, then
# the rapidsnark program built against the installed library twice, with
# `cc` and pkg-config, and as a separate CMake project through
# find_package(cuzk); each proves (its `buffers` mode) with the installed
# library alone, and so does the program of cuzk's own API (`prove` mode).
#   install_test.sh BUILD_DIR SOURCE_DIR FIXTURES
set -euo pipefail
build=$(cd "$1" && pwd) source=$(cd "$2" && pwd) fixtures=$(cd "$3" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" > "$work/install.log"
for f in bin/cuzk include/cuzk/cuzk.h include/cuzk/prover.h; do
  [ -e "$prefix/$f" ] || { echo "error: $f was not installed" >&2; exit 1; }
done
libdir=$(dirname "$(find "$prefix" -name 'libcuzk.so.0' | head -1)")
[ -n "$libdir" ] && [ -L "$libdir/libcuzk.so" ] || { echo "error: libcuzk.so.0 and its link were not installed" >&2; exit 1; }
mkdir -p "$work/out"

# pkg-config and cc.
export PKG_CONFIG_PATH=$libdir/pkgconfig
[ "$(pkg-config --modversion cuzk)" = "$(sed -n 's/^project(cuzk VERSION \([0-9.]*\).*/\1/p' "$source/CMakeLists.txt")" ] ||
  { echo "error: pkg-config cuzk gives version $(pkg-config --modversion cuzk)" >&2; exit 1; }
# shellcheck disable=SC2046
# rapidsnark's users include "prover.h" from the installed include/cuzk.
for program in rapidsnark_compat cuzk_api_test; do
  cc -std=c11 -o "$work/$program" "$source/tests/capi/$program.c" "$source/tests/capi/capi_support.c" \
    $(pkg-config --cflags --libs cuzk) -lpthread
done
LD_LIBRARY_PATH=$libdir "$work/rapidsnark_compat" buffers "$fixtures" "$work/out"
LD_LIBRARY_PATH=$libdir "$work/cuzk_api_test" prove "$fixtures" "$work/out"

# find_package(cuzk) from a project outside the tree.
cmake -S "$source/tests/capi/consumer" -B "$work/consumer" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
  -DCAPI_TESTS="$source/tests/capi" > "$work/consumer.log" ||
  { cat "$work/consumer.log"; exit 1; }
cmake --build "$work/consumer" > "$work/consumer-build.log" || { cat "$work/consumer-build.log"; exit 1; }
LD_LIBRARY_PATH=$libdir "$work/consumer/consumer" buffers "$fixtures" "$work/out"
echo "installed libcuzk proved through pkg-config and through find_package(cuzk)"
