// BN254 (alt_bn128): the fields and the tower used by snarkjs's "bn128".
#pragma once

#include "cuzk/ff/fp.hpp"
#include "cuzk/ff/tower.hpp"

namespace cuzk::ff {

// Constants from scripts/gen_field_constants.py; tests/ff re-derive them with GMP.
struct bn254_fq_params {
  static constexpr size_t n64 = 4;
  static constexpr unsigned bits = 254;
  static constexpr unsigned p_mod4 = 3;
  static constexpr uint64_t inv = 0x87d20782e4866389ull;
  CUZK_LIMBS(modulus, 0x3c208c16d87cfd47, 0x97816a916871ca8d, 0xb85045b68181585d, 0x30644e72e131a029)
  CUZK_LIMBS(one, 0xd35d438dc58f0d9d, 0x0a78eb28f5c70b3d, 0x666ea36f7879462c, 0x0e0a77c19a07df2f)
  CUZK_LIMBS(r2, 0xf32cfc5b538afa89, 0xb5e71911d44501fb, 0x47ab1eff0a417ff6, 0x06d89f71cab8351f)
};

struct bn254_fr_params {
  static constexpr size_t n64 = 4;
  static constexpr unsigned bits = 254;
  static constexpr unsigned p_mod4 = 1;
  static constexpr unsigned two_adicity = 28;
  static constexpr uint64_t inv = 0xc2e1f593efffffffull;
  CUZK_LIMBS(modulus, 0x43e1f593f0000001, 0x2833e84879b97091, 0xb85045b68181585d, 0x30644e72e131a029)
  CUZK_LIMBS(one, 0xac96341c4ffffffb, 0x36fc76959f60cd29, 0x666ea36f7879462e, 0x0e0a77c19a07df2f)
  CUZK_LIMBS(r2, 0x1bb8e645ae216da7, 0x53fe3ab1e35c59e3, 0x8c49833d53bb8085, 0x0216d0b17f4e44a5)
};

namespace bn254 {
using Fq = Fp<bn254_fq_params>;
using Fr = Fp<bn254_fr_params>;
// Fq6 = Fq2[v]/(v^3 - xi) with xi = 9 + u.
using Tower = tower<Fq, 9>;
using Fq2 = Tower::Fq2;
using Fq6 = Tower::Fq6;
using Fq12 = Tower::Fq12;
}  // namespace bn254

}  // namespace cuzk::ff
