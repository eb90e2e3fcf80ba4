#!/usr/bin/env python3
"""MiMC-5 as include/cuzk/circuit/gadgets/mimc.hpp defines it, written again
from its comment with Python's integers: the independent reference of the
circuit tests (gadgets_test.cpp, examples_test.cpp).

  x_{i+1} = (x_i + k + c_{i mod 110})^5 mod r,
  c_i = the integer of limbs splitmix64(seed + (4i + j + 1) * gamma), j = 0..3
        (little-endian 64-bit limbs), cut to bits(r) - 1 bits,
  seed = 0x6d696d6335 ("mimc5"), gamma = 0x9e3779b97f4a7c15, all mod 2^64.

usage: mimc.py CURVE X K N [X K N ...]   (CURVE bn254 or bls12_381; decimals)
prints x_N for each triple, one decimal a line.
"""
import sys

# The scalar fields' moduli, from the curves' definitions (EIP-197; the
# BLS12-381 draft, draft-irtf-cfrg-pairing-friendly-curves).
R = {
    "bn254": 21888242871839275222246405745257275088548364400416034343698204186575808495617,
    "bls12_381": 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001,
}
ROUNDS = 110
SEED = int.from_bytes(b"mimc5", "big")
GAMMA = 0x9E3779B97F4A7C15
MASK = (1 << 64) - 1


def splitmix64(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def constants(r):
    bits = r.bit_length() - 1
    out = []
    for i in range(ROUNDS):
        v = sum(splitmix64((SEED + (4 * i + j + 1) * GAMMA) & MASK) << (64 * j) for j in range(4))
        out.append(v & ((1 << bits) - 1))
    return out


def iterate(r, c, x, k, n):
    for i in range(n):
        x = pow((x + k + c[i % ROUNDS]) % r, 5, r)
    return x


def main(argv):
    if len(argv) < 5 or (len(argv) - 2) % 3 or argv[1] not in R:
        sys.exit(__doc__)
    r = R[argv[1]]
    c = constants(r)
    for at in range(2, len(argv), 3):
        x, k, n = int(argv[at]), int(argv[at + 1]), int(argv[at + 2])
        if not (0 <= x < r and 0 <= k < r and n >= 0):
            sys.exit(f"mimc.py: {argv[at:at + 3]} is not X K N with X, K below r")
        print(iterate(r, c, x, k, n))


if __name__ == "__main__":
    main(sys.argv)
