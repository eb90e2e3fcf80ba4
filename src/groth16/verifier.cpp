#include "cuzk/groth16/verifier.hpp"

#include <array>
#include <optional>

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

namespace {

// vk_x = IC_0 + sum_i pub_i IC_i, or nothing when the proof fails its checks:
// the count of publics, and every proof point on its curve and in its subgroup.
template <class E>
std::optional<ec::Affine<typename E::G1>> checked_vk_x(std::span<const ec::Affine<typename E::G1>> ic,
                                                       std::span<const typename E::Fr> publics,
                                                       const Proof<E>& proof) {
  if (ic.empty() || publics.size() != ic.size() - 1) return std::nullopt;
  if (!ec::in_subgroup(proof.a) || !ec::in_subgroup(proof.b) || !ec::in_subgroup(proof.c)) return std::nullopt;
  // Few publics in practice; one thread avoids spinning up the pool for them.
  ec::Jacobian<typename E::G1> x = ec::Jacobian<typename E::G1>::from(ic[0]);
  if (!publics.empty()) x = x.add(msm::msm<typename E::G1>(ic.subspan(1), publics, 1));
  return x.to_affine();
}

}  // namespace

template <class E>
bool verify(const VerifyingKey<E>& vk, std::span<const typename E::Fr> publics, const Proof<E>& proof) {
  using G1 = ec::Affine<typename E::G1>;
  using G2 = ec::Affine<typename E::G2>;
  const auto vk_x = checked_vk_x<E>(vk.ic, publics, proof);
  if (!vk_x) return false;
  const std::array<G1, 4> p{-proof.a, vk.alpha1, *vk_x, proof.c};
  const std::array<G2, 4> q{proof.b, vk.beta2, vk.gamma2, vk.delta2};
  return PairingOf<E>::product_is_one(p, q);
}

template <class E>
PreparedVerifier<E>::PreparedVerifier(const VerifyingKey<E>& vk)
    : ic_(vk.ic),
      gamma2_(Pairing::prepare(vk.gamma2)),
      delta2_(Pairing::prepare(vk.delta2)),
      alphabeta_inverse_(Pairing::pairing(vk.alpha1, vk.beta2).conj()) {}  // conj: the inverse in GT

template <class E>
bool PreparedVerifier<E>::verify(std::span<const typename E::Fr> publics, const Proof<E>& proof) const {
  using G1 = ec::Affine<typename E::G1>;
  const auto vk_x = checked_vk_x<E>(ic_, publics, proof);
  if (!vk_x) return false;
  const auto b = Pairing::prepare(proof.b);
  const std::array<G1, 3> p{-proof.a, *vk_x, proof.c};
  const std::array<const typename Pairing::G2Prepared*, 3> q{&b, &gamma2_, &delta2_};
  return Pairing::final_exponentiation(Pairing::prepared_miller_loop(p, q)) == alphabeta_inverse_;
}

template VerifyingKey<ec::Bn254> verifying_key(const ProvingKey<ec::Bn254>&);
template VerifyingKey<ec::Bls12_381> verifying_key(const ProvingKey<ec::Bls12_381>&);
template bool verify(const VerifyingKey<ec::Bn254>&, std::span<const ec::Bn254::Fr>, const Proof<ec::Bn254>&);
template class PreparedVerifier<ec::Bn254>;
template class PreparedVerifier<ec::Bls12_381>;
template bool verify(const VerifyingKey<ec::Bls12_381>&, std::span<const ec::Bls12_381::Fr>,
                     const Proof<ec::Bls12_381>&);

}  // namespace cuzk::groth16
