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

// f(Bn254{}) or f(Bls12_381{}): runs code templated over the curve bundle for
// a curve known only at run time (from a file).
template <class F>
decltype(auto) visit_curve(Curve c, F&& f) {
  return c == Curve::bn254 ? f(Bn254{}) : f(Bls12_381{});
}

// The standard generator of group G, for code templated over the group.
template <class G>
Affine<G> generator();
template <>
inline Affine<bn254::G1> generator<bn254::G1>() { return bn254::g1_generator(); }
template <>
inline Affine<bn254::G2> generator<bn254::G2>() { return bn254::g2_generator(); }
template <>
inline Affine<bls12_381::G1> generator<bls12_381::G1>() { return bls12_381::g1_generator(); }
template <>
inline Affine<bls12_381::G2> generator<bls12_381::G2>() { return bls12_381::g2_generator(); }

}  // namespace cuzk::ec
