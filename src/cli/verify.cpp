// cuzk verify <vk.json> <public.json> <proof.json> (snarkjs groth16 verify's
// order) and cuzk export-vk <zkey> <vk.json> (snarkjs zkey export
// verificationkey's content).
#include <cstdio>

#include "commands.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/io/json.hpp"
#include "cuzk/io/zkey.hpp"

namespace cuzk::cli {

int verify(const std::string& vk_path, const std::string& public_path, const std::string& proof_path) {
  return ec::visit_curve(io::read_json_curve(vk_path), [&](auto curve) {
    using E = decltype(curve);
    const auto vk = io::read_vk_json<E>(vk_path);
    const auto publics = io::read_public_json<E>(public_path);
    const auto proof = io::read_proof_json<E>(proof_path);
    if (publics.size() != vk.n_public()) {
      std::fprintf(stderr, "Invalid proof: %s has %zu public signals but the key expects %zu\n", public_path.c_str(),
                   publics.size(), vk.n_public());
      return 1;
    }
    if (!groth16::verify<E>(vk, publics, proof)) {
      std::fprintf(stderr, "Invalid proof\n");
      return 1;
    }
    std::printf("OK\n");
    return 0;
  });
}

int export_vk(const std::string& zkey_path, const std::string& vk_path) {
  const io::Zkey zkey = io::Zkey::open(zkey_path);
  zkey.visit([&](const auto& key) {
    using E = typename std::remove_cvref_t<decltype(key)>::CurveTypes;
    io::write_vk_json<E>(vk_path, groth16::verifying_key(key));
  });
  return 0;
}

}  // namespace cuzk::cli
