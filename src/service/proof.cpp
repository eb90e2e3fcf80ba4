#include "cuzk/service/proof.hpp"

#include <span>

#include "cuzk/groth16/verifier.hpp"
#include "cuzk/io/json.hpp"

namespace cuzk::service {

template <class E>
SnarkjsJson snarkjs_json(const Proved<E>& proved) {
  return {io::json_text(io::proof_to_json<E>(proved.proof)),
          io::json_text(io::public_to_json<E>(std::span<const typename E::Fr>(proved.publics)))};
}

SnarkjsJson snarkjs_json(const AnyProved& proved) {
  return std::visit([](const auto& p) { return snarkjs_json(p); }, proved);
}

Verdict verify_json(const JsonDocument& vk_json, const JsonDocument& publics_json, const JsonDocument& proof_json) {
  return ec::visit_curve(io::parse_json_curve(vk_json.text, vk_json.name), [&](auto curve) {
    using E = decltype(curve);
    const auto vk = io::parse_vk_json<E>(vk_json.text, vk_json.name);
    const auto publics = io::parse_public_json<E>(publics_json.text, publics_json.name);
    const auto proof = io::parse_proof_json<E>(proof_json.text, proof_json.name);
    const Verdict counts{false, publics.size(), vk.n_public()};
    if (counts.publics != counts.expected) return counts;
    return Verdict{groth16::verify<E>(vk, publics, proof), counts.publics, counts.expected};
  });
}

template SnarkjsJson snarkjs_json<ec::Bn254>(const Proved<ec::Bn254>&);
template SnarkjsJson snarkjs_json<ec::Bls12_381>(const Proved<ec::Bls12_381>&);

}  // namespace cuzk::service
