// Groth16 verification (snarkjs src/groth16_verify.js):
//   e(-A, B) · e(alpha1, beta2) · e(vk_x, gamma2) · e(C, delta2) = 1,
//   vk_x = IC_0 + sum_i pub_i IC_i.
#pragma once

#include <span>

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

extern template bool verify(const VerifyingKey<ec::Bn254>&, std::span<const ec::Bn254::Fr>, const Proof<ec::Bn254>&);
extern template bool verify(const VerifyingKey<ec::Bls12_381>&, std::span<const ec::Bls12_381::Fr>,
                            const Proof<ec::Bls12_381>&);

}  // namespace cuzk::groth16
