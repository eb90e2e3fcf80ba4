#!/usr/bin/env bash
# Proves the shipped example end to end and verifies the proof twice: with cuzk
# and with snarkjs (an independent verifier). The example is a Poseidon
# preimage circuit (examples/circuits/poseidon.circom) whose proving key and
# witness were made by circom and snarkjs (scripts/make_snarkjs_fixtures.sh).
#
#   scripts/example.sh [bn128|bls12381] [cuzk prove options, e.g. --backend cpu]
#
# The backend is auto: the GPU when one is present, else the CPU. The CUDA
# backend is built where nvidia-smi lists a GPU, for that GPU alone
# (scripts/cuda-choice.sh, the rule scripts/test.sh follows too).
set -euo pipefail
cd "$(dirname "$0")/.."
curve=bn128
[[ ${1:-} == bn128 || ${1:-} == bls12381 ]] && { curve=$1; shift; }

scripts/setup.sh
source scripts/cuda-choice.sh
echo "building cuzk: $cuda_choice"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "${cuda_cmake_args[@]}" >/dev/null
cmake --build build -j"$(nproc)" --target cuzk

example=examples/$curve/poseidon
out=build/example/$curve
mkdir -p "$out"
echo "proving $example/circuit.zkey with $example/witness.wtns"
CUZK_TIMING=1 build/src/cuzk prove "$example/circuit.zkey" "$example/witness.wtns" "$out/proof.json" "$out/public.json" "$@"
echo "public signals: $(cat "$out/public.json" | tr -d ' \n')"
echo -n "cuzk verify:    "
build/src/cuzk verify "$example/vk.json" "$out/public.json" "$out/proof.json"
echo -n "snarkjs verify: "
node_modules/.bin/snarkjs groth16 verify "$example/vk.json" "$out/public.json" "$out/proof.json" | sed 's/\x1b\[[0-9;]*m//g'
echo "proof: $out/proof.json"
