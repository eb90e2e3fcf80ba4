#!/usr/bin/env bash
# The binding as a user builds it outside cuzk's tree: `cmake --install` into
# a fresh prefix, then bindings/node configured on its own as cmake-js does it
# (CMAKE_JS_INC names the Node-API and node-addon-api headers; cmake-js
# itself is not needed offline) against the installed package
# (find_package(cuzk)), and groth16.test.js run with the addon it built,
# which must load the installed libcuzk.
#   install_test.sh BUILD_DIR SOURCE_DIR NODE NODE_API_INCLUDE NODE_ADDON_API_INCLUDE
set -euo pipefail
build=$(cd "$1" && pwd) source=$(cd "$2" && pwd) node=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
cmake -S "$source/bindings/node" -B "$work/addon" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$work/prefix" "-DCMAKE_JS_INC=$4;$5" > "$work/configure.log" ||
  { cat "$work/configure.log"; exit 1; }
cmake --build "$work/addon" > "$work/build.log" || { cat "$work/build.log"; exit 1; }
addon=$work/addon/cuzk.node
# ldd's output is taken whole before grep reads it: `ldd | grep -q` under
# pipefail fails whenever grep stops reading before ldd has written all.
deps=$(ldd "$addon")
grep -q "libcuzk.so.0 => $work/prefix/" <<< "$deps" ||
  { echo "error: the addon does not load the installed libcuzk:" >&2; echo "$deps" >&2; exit 1; }
cd "$source"
CUZK_NODE_ADDON=$addon "$node" --test bindings/node/test/groth16.test.js
