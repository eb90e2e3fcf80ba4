// cuzk verify <vk.json> <public.json> <proof.json> (snarkjs groth16 verify's
// order) and cuzk export-vk <zkey or bellperson params/vk> <vk.json> (snarkjs
// zkey export verificationkey's content).
#include <cstdio>
#include <stdexcept>

#include "bellperson.hpp"
#include "commands.hpp"
#include "cuzk/io/json.hpp"
#include "cuzk/io/zkey.hpp"
#include "cuzk/service/proof.hpp"
#include "output.hpp"

namespace cuzk::cli {

namespace {

// A file of another known kind in this position is named as such, before a
// typed reader complains about a field the file was never meant to have.
void expect_kind(const std::string& path, io::JsonKind want) {
  const io::JsonKind got = io::json_kind(path);
  if (got != io::JsonKind::unknown && got != want)
    throw std::invalid_argument(path + " holds " + io::json_kind_name(got) + ", but " + io::json_kind_name(want) +
                                (want == io::JsonKind::public_signals ? " go" : " goes") +
                                " in this position: cuzk verify <verification_key.json> <public.json> <proof.json>");
}

}  // namespace

int verify(const std::string& vk_path, const std::string& public_path, const std::string& proof_path) {
  expect_kind(vk_path, io::JsonKind::verifying_key);
  expect_kind(public_path, io::JsonKind::public_signals);
  expect_kind(proof_path, io::JsonKind::proof);
  const std::string vk = io::read_json_document(vk_path), publics = io::read_json_document(public_path),
                    proof = io::read_json_document(proof_path);
  const service::Verdict verdict =
      service::verify_json({vk, vk_path}, {publics, public_path}, {proof, proof_path});
  if (verdict.publics != verdict.expected) {
    std::fprintf(stderr, "Invalid proof: %s has %zu public signals but the key expects %zu\n", public_path.c_str(),
                 verdict.publics, verdict.expected);
    return 1;
  }
  if (!verdict.valid) {
    std::fprintf(stderr, "Invalid proof\n");
    return 1;
  }
  std::printf("OK\n");
  return 0;
}

int export_vk(const std::string& zkey_path, const std::string& vk_path) {
  check_output(vk_path, FileKind::verification_key, /*force=*/true);  // replaces a verification key, as snarkjs does
  const auto write = [&]<class E>(const groth16::VerifyingKey<E>& vk) {
    io::write_vk_json<E>(vk_path, vk);
    std::printf("cuzk export-vk: wrote %s (%s verification key, %zu public signals)\n", vk_path.c_str(),
                ec::curve_name(E::id), vk.n_public());
  };
  if (looks_like_bellperson(zkey_path)) {
    write(read_bellperson_verifying_key(zkey_path));
    return 0;
  }
  const io::Zkey zkey = io::Zkey::open(zkey_path);
  zkey.visit([&](const auto& key) { write(groth16::verifying_key(key)); });
  return 0;
}

}  // namespace cuzk::cli
