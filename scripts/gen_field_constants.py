#!/usr/bin/env python3
"""Prints the Montgomery constants of cuzk's prime fields as C++ limb lists.

The field headers under include/cuzk/ff/ carry these numbers as literals so that
device code can fold them into immediates; this script is how they were made,
and tests/ff re-derive them with GMP, so a wrong literal cannot pass CI.
"""

FIELDS = {
    "bn254_fq": 0x30644E72E131A029B85045B68181585D97816A916871CA8D3C208C16D87CFD47,
    "bn254_fr": 0x30644E72E131A029B85045B68181585D2833E84879B9709143E1F593F0000001,
    "bls12_381_fq": 0x1A0111EA397FE69A4B1BA7B6434BACD764774B84F38512BF6730D2A0F6B0F6241EABFFFEB153FFFFB9FEFFFFFFFFAAAB,
    "bls12_381_fr": 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001,
}


def limbs(x, n):
    return ", ".join(f"0x{(x >> (64 * i)) & (2**64 - 1):016x}" for i in range(n))


for name, p in FIELDS.items():
    n = (p.bit_length() + 63) // 64
    R = 1 << (64 * n)
    print(f"// {name}: {p.bit_length()} bits, {n} limbs")
    print(f"  modulus   = {{{limbs(p, n)}}}")
    print(f"  one (R)   = {{{limbs(R % p, n)}}}")
    print(f"  r2 (R^2)  = {{{limbs(R * R % p, n)}}}")
    print(f"  inv (-1/p mod 2^64) = 0x{(-pow(p, -1, 2**64)) % 2**64:016x}")
