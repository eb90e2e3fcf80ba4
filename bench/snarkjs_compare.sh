#!/usr/bin/env bash
# cuzk against snarkjs on the same proving key and witness: a native Partition
# circuit of 2^k constraints (cuzk setup writes a snarkjs-compatible zkey,
# cuzk witness its .wtns), proved once by `cuzk prove` and once by
# `snarkjs groth16 prove`, each proof verified by the other tool. Prints both
# wall times (whole commands: reading the key included) and the ratio, and
# cuzk's own stage table for the same circuit.
#
#   bench/snarkjs_compare.sh <bn254|bls12_381> <k> [cuzk binary]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
curve=${1:?curve}; k=${2:?log2 constraints}; cuzk=${3:-$root/build/src/cuzk}
snarkjs=$root/node_modules/.bin/snarkjs
n=$((1 << k))
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$cuzk" setup --circuit partition --curve "$curve" --constraints "$n" "$work/c.zkey" --vk "$work/vk.json" 2>/dev/null
"$cuzk" witness --circuit partition --curve "$curve" --constraints "$n" "$work/w.wtns"

now() { date +%s.%N; }
t0=$(now)
"$cuzk" prove "$work/c.zkey" "$work/w.wtns" "$work/cuzk_proof.json" "$work/cuzk_public.json"
t1=$(now)
"$snarkjs" groth16 prove "$work/c.zkey" "$work/w.wtns" "$work/sj_proof.json" "$work/sj_public.json"
t2=$(now)
"$snarkjs" groth16 verify "$work/vk.json" "$work/cuzk_public.json" "$work/cuzk_proof.json" >/dev/null
"$cuzk" verify "$work/vk.json" "$work/sj_public.json" "$work/sj_proof.json" >/dev/null

awk -v c="$curve" -v k="$k" -v a="$t0" -v b="$t1" -v d="$t2" 'BEGIN {
  printf "%s 2^%d: cuzk prove %.2f s, snarkjs groth16 prove %.2f s, ratio %.1fx (each proof verified by the other tool)\n",
         c, k, b - a, d - b, (d - b) / (b - a) }'
"$cuzk" bench prove --circuit partition --curve "$curve" --constraints "$n"
