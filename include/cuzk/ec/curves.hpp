// The two pairing-friendly curves cuzk proves on, as bundles of their types, so
// that templates over "a curve" (the prover, the key types, the readers) take
// one parameter. Names are snarkjs's ("bn128", "bls12381"), which are also what
// vk.json and proof.json carry.
#pragma once

#include "cuzk/ec/bls12_381.hpp"
#include "cuzk/ec/bn254.hpp"

namespace cuzk::ec {

enum class Curve { bn254, bls12_381 };

constexpr const char* curve_name(Curve c) { return c == Curve::bn254 ? "bn128" : "bls12381"; }

struct Bn254 {
  static constexpr Curve id = Curve::bn254;
  using Fq = ff::bn254::Fq;
  using Fr = ff::bn254::Fr;
  using G1 = ec::bn254::G1;
  using G2 = ec::bn254::G2;
};

struct Bls12_381 {
  static constexpr Curve id = Curve::bls12_381;
  using Fq = ff::bls12_381::Fq;
  using Fr = ff::bls12_381::Fr;
  using G1 = ec::bls12_381::G1;
  using G2 = ec::bls12_381::G2;
};

}  // namespace cuzk::ec
