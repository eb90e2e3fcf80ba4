// BLS12-381: the fields and the tower used by snarkjs's "bls12381".
#pragma once

#include "cuzk/ff/fp.hpp"
#include "cuzk/ff/tower.hpp"

namespace cuzk::ff {

// Constants from scripts/gen_field_constants.py; tests/ff re-derive them with GMP.
struct bls12_381_fq_params {
  static constexpr size_t n64 = 6;
  static constexpr unsigned bits = 381;
  static constexpr unsigned p_mod4 = 3;
  static constexpr uint64_t inv = 0x89f3fffcfffcfffdull;
  CUZK_LIMBS(modulus, 0xb9feffffffffaaab, 0x1eabfffeb153ffff, 0x6730d2a0f6b0f624, 0x64774b84f38512bf,
             0x4b1ba7b6434bacd7, 0x1a0111ea397fe69a)
  CUZK_LIMBS(one, 0x760900000002fffd, 0xebf4000bc40c0002, 0x5f48985753c758ba, 0x77ce585370525745,
             0x5c071a97a256ec6d, 0x15f65ec3fa80e493)
  CUZK_LIMBS(r2, 0xf4df1f341c341746, 0x0a76e6a609d104f1, 0x8de5476c4c95b6d5, 0x67eb88a9939d83c0,
             0x9a793e85b519952d, 0x11988fe592cae3aa)
};

struct bls12_381_fr_params {
  static constexpr size_t n64 = 4;
  static constexpr unsigned bits = 255;
  static constexpr unsigned p_mod4 = 1;
  static constexpr unsigned two_adicity = 32;
  // zkcrypto ff's (and blstrs's) MULTIPLICATIVE_GENERATOR: the base of bellman's
  // roots of unity and its coset shift (poly/domain.hpp).
  static constexpr uint64_t multiplicative_generator = 7;
  static constexpr uint64_t inv = 0xfffffffeffffffffull;
  CUZK_LIMBS(modulus, 0xffffffff00000001, 0x53bda402fffe5bfe, 0x3339d80809a1d805, 0x73eda753299d7d48)
  CUZK_LIMBS(one, 0x00000001fffffffe, 0x5884b7fa00034802, 0x998c4fefecbc4ff5, 0x1824b159acc5056f)
  CUZK_LIMBS(r2, 0xc999e990f3f29c6d, 0x2b6cedcb87925c23, 0x05d314967254398f, 0x0748d9d99f59ff11)
};

namespace bls12_381 {
using Fq = Fp<bls12_381_fq_params>;
using Fr = Fp<bls12_381_fr_params>;
// Fq6 = Fq2[v]/(v^3 - xi) with xi = 1 + u.
using Tower = tower<Fq, 1>;
using Fq2 = Tower::Fq2;
using Fq6 = Tower::Fq6;
using Fq12 = Tower::Fq12;
}  // namespace bls12_381

}  // namespace cuzk::ff
