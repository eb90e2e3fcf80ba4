// Groth16 verification (snarkjs src/groth16_verify.js):
//   e(-A, B) · e(alpha1, beta2) · e(vk_x, gamma2) · e(C, delta2) = 1,
//   vk_x = IC_0 + sum_i pub_i IC_i.
#pragma once

#include <span>
#include <vector>

#include "cuzk/groth16/keys.hpp"
#include "cuzk/groth16/proof.hpp"

namespace cuzk::groth16 {

// True iff the proof is valid for these public signals (outputs then inputs,
// as public.json lists them). False, rather than an exception, when the count
// of publics is not vk.ic.size() - 1 or a proof point is off its curve or
// outside the order-r subgroup (snarkjs checks only the curve; the subgroup
// check is what makes the pairing's inputs trustworthy, ec/pairing.hpp).
// The key itself is trusted (from a checked zkey or io::read_vk_json).
template <class E>
bool verify(const VerifyingKey<E>& vk, std::span<const typename E::Fr> publics, const Proof<E>& proof);

// A verifying key made ready for many proofs (a prover verifies each it
// makes): e(alpha1, beta2) computed once from the key's points, never taken
// from a file's vk_alphabeta_12, and gamma2's and delta2's Miller-loop lines,
// so that a verification checks
//   e(-A, B) · e(vk_x, gamma2) · e(C, delta2) = e(alpha1, beta2)^-1
// with three pairs' loops, two of them without their G2 half.
template <class E>
class PreparedVerifier {
 public:
  explicit PreparedVerifier(const VerifyingKey<E>& vk);
  // The same verdict as verify(vk, publics, proof) for the key it was made from.
  bool verify(std::span<const typename E::Fr> publics, const Proof<E>& proof) const;

 private:
  using Pairing = PairingOf<E>;
  std::vector<typename VerifyingKey<E>::G1> ic_;
  typename Pairing::G2Prepared gamma2_, delta2_;
  typename Pairing::Fq12 alphabeta_inverse_;
};

extern template bool verify(const VerifyingKey<ec::Bn254>&, std::span<const ec::Bn254::Fr>, const Proof<ec::Bn254>&);
extern template bool verify(const VerifyingKey<ec::Bls12_381>&, std::span<const ec::Bls12_381::Fr>,
                            const Proof<ec::Bls12_381>&);
extern template class PreparedVerifier<ec::Bn254>;
extern template class PreparedVerifier<ec::Bls12_381>;

}  // namespace cuzk::groth16
