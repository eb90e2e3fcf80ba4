// The Groth16 verifying key, as snarkjs exports it (zkey export
// verificationkey): alpha1, beta2, gamma2, delta2, IC and the precomputed
// e(alpha1, beta2) that verification_key.json carries as vk_alphabeta_12.
#pragma once

#include <span>
#include <vector>

#include "cuzk/ec/pairing.hpp"
#include "cuzk/io/zkey.hpp"

namespace cuzk::groth16 {

// The pairing of curve bundle E (io::Bn254, io::Bls12_381): its target field
// and the functions of ec/pairing.hpp for that curve.
template <class E>
struct PairingOf;
template <>
struct PairingOf<io::Bn254> {
  using Fq12 = ff::bn254::Fq12;
  static Fq12 pairing(const ec::bn254::G1Affine& p, const ec::bn254::G2Affine& q) { return ec::bn254::pairing(p, q); }
  static bool product_is_one(std::span<const ec::bn254::G1Affine> p, std::span<const ec::bn254::G2Affine> q) {
    return ec::bn254::pairing_product_is_one(p, q);
  }
};
template <>
struct PairingOf<io::Bls12_381> {
  using Fq12 = ff::bls12_381::Fq12;
  static Fq12 pairing(const ec::bls12_381::G1Affine& p, const ec::bls12_381::G2Affine& q) {
    return ec::bls12_381::pairing(p, q);
  }
  static bool product_is_one(std::span<const ec::bls12_381::G1Affine> p,
                             std::span<const ec::bls12_381::G2Affine> q) {
    return ec::bls12_381::pairing_product_is_one(p, q);
  }
};

template <class E>
struct VerifyingKey {
  using G1 = ec::Affine<typename E::G1>;
  using G2 = ec::Affine<typename E::G2>;
  using Fq12 = typename PairingOf<E>::Fq12;

  G1 alpha1;
  G2 beta2, gamma2, delta2;
  std::vector<G1> ic;  // n_public + 1: IC_0 and one per public signal
  Fq12 alphabeta;      // e(alpha1, beta2), with snarkjs's value of e (ec/pairing.hpp)

  size_t n_public() const { return ic.empty() ? 0 : ic.size() - 1; }
  friend bool operator==(const VerifyingKey& x, const VerifyingKey& y) {
    return x.alpha1 == y.alpha1 && x.beta2 == y.beta2 && x.gamma2 == y.gamma2 && x.delta2 == y.delta2 &&
           x.ic == y.ic && x.alphabeta == y.alphabeta;
  }
};

// The verifying key of a proving key (what `snarkjs zkey export
// verificationkey` writes), alphabeta computed here.
template <class E>
VerifyingKey<E> verifying_key(const io::ZkeyData<E>& zkey);

extern template VerifyingKey<io::Bn254> verifying_key(const io::ZkeyData<io::Bn254>&);
extern template VerifyingKey<io::Bls12_381> verifying_key(const io::ZkeyData<io::Bls12_381>&);

}  // namespace cuzk::groth16
