#!/usr/bin/env bash
# Builds the cuzk command and runs its arithmetic self-check: fields, curves and
# pairings of BN254 and BLS12-381 on fresh random inputs, and, when a GPU is
# present, every device operation against the CPU.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" --target cuzk
exec build/src/cuzk selfcheck "$@"
