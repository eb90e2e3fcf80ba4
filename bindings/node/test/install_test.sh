#!/usr/bin/env bash
# The binding as a user installs it, in a project of their own: libcuzk
# `cmake --install`ed into a fresh prefix, bindings/node packed by `npm pack`,
# the tarball installed into a fresh project (its install script builds the
# addon with cmake-js against the prefix, named by CMAKE_PREFIX_PATH), and a
# script there (user_script.js) that requires 'cuzk', proves with fullProve
# and verifies with snarkjs. Offline: the project starts from cuzk's root
# package-lock.json, whose snarkjs, cmake-js and node-addon-api are the
# versions npm ci put into npm's cache, so npm needs no registry metadata;
# --offline keeps it off the network.
#   install_test.sh BUILD_DIR SOURCE_DIR NODE NPM
set -euo pipefail
build=$(cd "$1" && pwd) source=$(cd "$2" && pwd) node=$3 npm=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A step's output is shown only when it fails.
quiet() { "$@" > "$work/step.log" 2>&1 || { cat "$work/step.log" >&2; return 1; }; }

quiet cmake --install "$build" --prefix "$work/prefix"
quiet "$npm" pack "$source/bindings/node" --pack-destination "$work"
mkdir "$work/project"
cd "$work/project"
snarkjs=$("$node" -p "require('$source/package.json').dependencies.snarkjs")
printf '{"name": "cuzk-user", "version": "1.0.0", "private": true, "dependencies": {"snarkjs": "%s"}}\n' "$snarkjs" \
  > package.json
cp "$source/package-lock.json" "$source/bindings/node/test/user_script.js" .
unset CUZK_NODE_ADDON
start=$SECONDS
CMAKE_PREFIX_PATH=$work/prefix quiet "$npm" install --offline --no-audit --no-fund --foreground-scripts "$work"/cuzk-*.tgz
echo "npm install of the tarball, the addon's build included: $((SECONDS - start)) s"
addon=node_modules/cuzk/build/Release/cuzk.node
# ldd's output is taken whole before grep reads it: `ldd | grep -q` under
# pipefail fails whenever grep stops reading before ldd has written all.
deps=$(ldd "$addon")
grep -q "libcuzk.so.0 => $work/prefix/" <<< "$deps" ||
  { echo "error: the addon does not load the installed libcuzk:" >&2; echo "$deps" >&2; exit 1; }
"$node" user_script.js "$source/tests/fixtures"
