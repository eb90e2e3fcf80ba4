#include "cuzk/groth16/verifier.hpp"

#include <array>

#include "cuzk/ec/ops.hpp"
#include "cuzk/msm/pippenger_host.hpp"

namespace cuzk::groth16 {

template <class E>
VerifyingKey<E> verifying_key(const ProvingKey<E>& z) {
  VerifyingKey<E> vk;
  vk.alpha1 = z.alpha1;
  vk.beta2 = z.beta2;
  vk.gamma2 = z.gamma2;
  vk.delta2 = z.delta2;
  vk.ic.assign(z.ic.begin(), z.ic.end());
  vk.alphabeta = PairingOf<E>::pairing(z.alpha1, z.beta2);
  return vk;
}

template <class E>
bool verify(const VerifyingKey<E>& vk, std::span<const typename E::Fr> publics, const Proof<E>& proof) {
  using G1 = ec::Affine<typename E::G1>;
  using G2 = ec::Affine<typename E::G2>;
  if (vk.ic.empty() || publics.size() != vk.ic.size() - 1) return false;
  if (!ec::in_subgroup(proof.a) || !ec::in_subgroup(proof.b) || !ec::in_subgroup(proof.c)) return false;

  // Few publics in practice; one thread avoids spinning up the pool for them.
  const std::span<const G1> bases(vk.ic.data() + 1, publics.size());
  ec::Jacobian<typename E::G1> x = ec::Jacobian<typename E::G1>::from(vk.ic[0]);
  if (!publics.empty()) x = x.add(msm::msm<typename E::G1>(bases, publics, 1));
  const G1 vk_x = x.to_affine();

  const std::array<G1, 4> p{-proof.a, vk.alpha1, vk_x, proof.c};
  const std::array<G2, 4> q{proof.b, vk.beta2, vk.gamma2, vk.delta2};
  return PairingOf<E>::product_is_one(p, q);
}

template VerifyingKey<ec::Bn254> verifying_key(const ProvingKey<ec::Bn254>&);
template VerifyingKey<ec::Bls12_381> verifying_key(const ProvingKey<ec::Bls12_381>&);
template bool verify(const VerifyingKey<ec::Bn254>&, std::span<const ec::Bn254::Fr>, const Proof<ec::Bn254>&);
template bool verify(const VerifyingKey<ec::Bls12_381>&, std::span<const ec::Bls12_381::Fr>,
                     const Proof<ec::Bls12_381>&);

}  // namespace cuzk::groth16
