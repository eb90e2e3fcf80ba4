// cuzk info <file>: what a .zkey, .wtns, .r1cs, snarkjs JSON or bellperson
// file (parameters, verifying key, proof) holds, after the same validation the
// prover applies (so `info` doubles as a check).
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "bellperson.hpp"
#include "commands.hpp"
#include "cuzk/io/json.hpp"
#include "cuzk/io/r1cs.hpp"
#include "cuzk/io/wtns.hpp"
#include "cuzk/io/zkey.hpp"
#include "output.hpp"

namespace cuzk::cli {

namespace {

void row(const char* key, const std::string& value) { std::printf("  %-14s %s\n", key, value.c_str()); }
std::string str(uint64_t v) { return std::to_string(v); }

void zkey_info(const std::string& path) {
  const io::Zkey zkey = io::Zkey::open(path);
  const io::ZkeyHeader& h = zkey.header();
  std::printf("%s: snarkjs Groth16 proving key\n", path.c_str());
  row("curve", ec::curve_name(h.curve));
  row("signals", str(h.n_vars) + " (the constant 1, " + str(h.n_public) + " public, " +
                     str(h.n_vars - h.n_public - 1) + " private)");
  row("domain", str(h.domain_size) + " = 2^" + str(__builtin_ctz(h.domain_size)));
  zkey.visit([&](const auto& key) {
    size_t per_matrix[2] = {0, 0};
    for (const auto& c : key.coefs) ++per_matrix[c.matrix];
    row("coefficients", str(key.coefs.size()) + " (A " + str(per_matrix[0]) + ", B " + str(per_matrix[1]) + ")");
    row("points", "IC " + str(key.ic.size()) + ", A " + str(key.a.size()) + ", B1 " + str(key.b1.size()) + ", B2 " +
                      str(key.b2.size()) + ", C " + str(key.c.size()) + ", H " + str(key.h.size()));
  });
}

void wtns_info(const std::string& path) {
  const io::Witness w = io::read_wtns(path);
  std::printf("%s: witness\n", path.c_str());
  row("curve", ec::curve_name(w.curve()));
  row("values", str(w.size()) + " (signal 0 is the constant 1)");
}

void r1cs_info(const std::string& path) {
  const io::R1cs r = io::R1cs::open(path);
  const io::R1csHeader& h = r.header();
  std::printf("%s: circom constraint system\n", path.c_str());
  row("curve", ec::curve_name(h.curve));
  row("constraints", str(h.n_constraints));
  row("wires", str(h.n_wires) + " (outputs " + str(h.n_pub_out) + ", public inputs " + str(h.n_pub_in) +
                   ", private inputs " + str(h.n_prv_in) + ")");
  row("labels", str(h.n_labels));
}

void json_info(const std::string& path) {
  const io::JsonKind kind = io::json_kind(path);
  if (kind == io::JsonKind::public_signals) {
    // public.json names no curve; checked against the larger of the two
    // scalar fields (BLS12-381's r > BN254's), so any valid file passes.
    const auto values = io::read_public_json<ec::Bls12_381>(path);
    std::printf("%s: public signals\n", path.c_str());
    row("values", str(values.size()));
    return;
  }
  const ec::Curve curve = io::read_json_curve(path);
  ec::visit_curve(curve, [&](auto c) {
    using E = decltype(c);
    if (kind == io::JsonKind::proof) {
      io::read_proof_json<E>(path);
      std::printf("%s: Groth16 proof\n", path.c_str());
    } else {
      const auto vk = io::read_vk_json<E>(path);
      std::printf("%s: Groth16 verification key\n", path.c_str());
      row("public", str(vk.n_public()));
    }
  });
  row("curve", ec::curve_name(curve));
}

}  // namespace

int info(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw io::FormatError(path + ": cannot open: " + std::strerror(errno));
  const std::string kind = content_kind(path);
  if (kind == "zkey") zkey_info(path);
  else if (kind == "wtns") wtns_info(path);
  else if (kind == "r1cs") r1cs_info(path);
  else if (kind == "json") json_info(path);
  else if (looks_like_bellperson(path)) bellperson_info(path);
  else throw io::FormatError(path + ": not a .zkey, .wtns, .r1cs, snarkjs JSON or bellperson file");
  return 0;
}

}  // namespace cuzk::cli
