// A key in bellman's convention through a bellperson parameter file and back
// (with its circuit), the verifying key read from the file's head, and proofs
// in bellperson's 192-byte encoding: round trips, and every malformed input
// refused on one line that names the file and the fault.
#include "cuzk/io/bellperson_key.hpp"

#include <gtest/gtest.h>

#include "cuzk/circuit/examples/hash_chain.hpp"
#include "cuzk/circuit/matrices.hpp"
#include "cuzk/circuit/witness.hpp"
#include "cuzk/ec/encoding.hpp"
#include "cuzk/ec/ops.hpp"
#include "cuzk/ec/random_points.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/io/bellperson_proof.hpp"
#include "io_test_support.hpp"
#include "seed.hpp"

namespace cuzk::test {
namespace {

using E = ec::Bls12_381;
using Fr = E::Fr;
using Chain = circuit::HashChain<E>;

struct KeyFile : ::testing::Test {
  TempDir dir;
  const fs::path params = dir / "chain.params";
  const r1cs::ConstraintMatrices<E> m = circuit::constraint_matrices(Chain::for_constraints(64, 0));
  groth16::DevKey<E> dev = groth16::dev_setup(m, groth16::ToxicWaste<E>::draw(), 0, groth16::Convention::bellman);

  void SetUp() override { io::write_bellperson_params(params, io::to_bellperson(dev.key)); }
};

// The file holds the key's points in order; with the circuit it proves again.
TEST_F(KeyFile, RoundTripsAndProves) {
  const auto read = io::read_bellperson_params(params);
  EXPECT_EQ(read, io::to_bellperson(dev.key));
  const auto key = groth16::PreparedKey<E>::make(io::bellman_key(read, m, params.string()));
  const auto& k = key->key();
  EXPECT_EQ(k.convention, groth16::Convention::bellman);
  EXPECT_EQ(k.n_vars(), dev.key.n_vars());
  EXPECT_EQ(k.domain_size(), dev.key.domain_size());
  EXPECT_EQ(k.a_density, dev.key.a_density);
  EXPECT_EQ(k.b_density, dev.key.b_density);
  EXPECT_EQ(k.coefs.size(), dev.key.coefs.size());

  auto in = circuit::synthesize_assignment(Chain::for_constraints(64, 9));
  const auto pending = groth16::prove_start(*key, std::span<const Fr>(in.w), std::span<Fr>(in.a),
                                            std::span<Fr>(in.b), std::span<Fr>(in.c));
  const auto proof = groth16::prove_finish(*key, pending);
  EXPECT_TRUE(groth16::verify<E>(io::verifying_key(io::read_bellperson_vk(params)), pending.publics, proof));
}

// The head of the file is a verifying key; a .vk file is that head alone.
TEST_F(KeyFile, VerifyingKeyFromTheHead) {
  bool is_params = false;
  const auto vk = io::read_bellperson_vk(params, &is_params);
  EXPECT_TRUE(is_params);
  EXPECT_EQ(io::verifying_key(vk), groth16::verifying_key(dev.key));
  const Bytes all = read_bytes(params);
  const size_t head = 3 * 96 + 3 * 192 + 4 + 96 * dev.key.ic.size();
  write_bytes(dir / "chain.vk", Bytes(all.begin(), all.begin() + head));
  EXPECT_EQ(io::read_bellperson_vk(dir / "chain.vk", &is_params), vk);
  EXPECT_FALSE(is_params);
  write_bytes(dir / "short.vk", Bytes(all.begin(), all.begin() + head - 1));
  expect_format_error((dir / "short.vk").string(), [&] { io::read_bellperson_vk(dir / "short.vk"); },
                      "ic claims 3 points");
  write_bytes(dir / "tiny.vk", Bytes(all.begin(), all.begin() + 100));
  expect_format_error((dir / "tiny.vk").string(), [&] { io::read_bellperson_vk(dir / "tiny.vk"); }, "truncated");
}

// The counts found by seeking are the vectors' sizes, and a layout that does
// not add up is refused by them as by the reader.
TEST_F(KeyFile, CountsBySeeking) {
  const auto c = io::read_bellperson_counts(params);
  const auto p = io::to_bellperson(dev.key);
  EXPECT_EQ(c.ic, p.ic.size());
  EXPECT_EQ(c.h, p.h.size());
  EXPECT_EQ(c.l, p.l.size());
  EXPECT_EQ(c.a, p.a.size());
  EXPECT_EQ(c.b_g1, p.b_g1.size());
  EXPECT_EQ(c.b_g2, p.b_g2.size());
  EXPECT_NO_THROW(io::check_circuit(c, m, "chain.params"));

  const Bytes all = read_bytes(params);
  const size_t head = 3 * 96 + 3 * 192 + 4 + 96 * p.ic.size();
  Bytes longer = all;
  longer.push_back(7);
  const std::vector<BadCase> cases = {
      {"missing", [](const fs::path&) {}, "cannot open"},
      {"short_vk", [&](const fs::path& f) { write_bytes(f, Bytes(all.begin(), all.begin() + 500)); },
       "offset 0: truncated: the verifying key needs 864 bytes but 500 remain"},
      {"vk_only", [&](const fs::path& f) { write_bytes(f, Bytes(all.begin(), all.begin() + head)); },
       "offset " + std::to_string(head) + ": truncated: h count"},
      {"half", [&](const fs::path& f) { write_bytes(f, Bytes(all.begin(), all.begin() + all.size() / 2)); }, "claims"},
      {"longer", [&](const fs::path& f) { write_bytes(f, longer); }, "1 bytes after the last point"},
  };
  run_bad_cases(dir, cases, [](const fs::path& f) { io::read_bellperson_counts(f); }, ".params");
  // The reader says the same of them.
  for (const char* name : {"half", "longer"}) {
    const fs::path f = dir / (std::string(name) + ".params");
    expect_format_error(f.string(), [&] { io::read_bellperson_params(f); }, name == std::string("half") ? "claims" : "1 bytes after the last point");
  }
}

// Parameters of another circuit are told apart by their counts, each named.
TEST_F(KeyFile, CircuitThatDoesNotFit) {
  const auto p = io::to_bellperson(dev.key);
  struct Case {
    const char* name;
    r1cs::ConstraintMatrices<E> m;
    const char* expect;
  };
  auto more_public = m;
  more_public.n_public += 1;
  auto more_private = m;
  more_private.n_vars += 1;
  auto more_rows = m;  // constraint 0 again until the domain doubles: same signals
  for (size_t i = 0; i < dev.key.domain_size(); ++i)
    for (int mat = 0; mat < 3; ++mat) {
      const auto lc = m.lc(0, mat);
      more_rows.terms.insert(more_rows.terms.end(), lc.begin(), lc.end());
      more_rows.starts.push_back(more_rows.terms.size());
    }
  // One more wire in B, in constraint 0's B: a wire that is in no B row yet.
  uint32_t sparse = 0;
  while (dev.key.b_density.has(sparse)) ++sparse;
  auto denser_b = m;
  denser_b.terms.insert(denser_b.terms.begin() + (long)m.starts[2], {sparse, Fr::one()});
  for (size_t k = 2; k < denser_b.starts.size(); ++k) ++denser_b.starts[k];
  const Case cases[] = {{"public", more_public, "IC has"},
                        {"private", more_private, "L has"},
                        {"more_rows", more_rows, "H has"},
                        {"denser_b", denser_b, "B_G1 has"}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    expect_format_error("chain.params", [&] { io::bellman_key(p, c.m, "chain.params"); }, c.expect);
  }
  auto snarkjs = groth16::dev_setup(m, groth16::ToxicWaste<E>::draw());
  EXPECT_THROW(io::to_bellperson(snarkjs.key), std::invalid_argument);
}

groth16::Proof<E> random_proof(uint64_t seed) {
  const auto g1 = ec::random_points(2, ec::generator<E::G1>(), seed);
  const auto g2 = ec::random_points(1, ec::generator<E::G2>(), seed + 1);
  return {g1[0], g2[0], g1[1]};
}

TEST(BellpersonProof, RoundTrips) {
  SEED_TRACE();
  TempDir dir;
  for (uint64_t i = 0; i < 4; ++i) {
    const auto proof = random_proof(test_seed() + 2 * i);
    const auto bytes = io::encode_bellperson_proof(proof);
    // Compressed ZCash points, the flag bit set on each.
    EXPECT_TRUE(bytes[0] & 0x80);
    EXPECT_TRUE(bytes[48] & 0x80);
    EXPECT_TRUE(bytes[144] & 0x80);
    EXPECT_EQ(io::decode_bellperson_proof("p", bytes), proof);
    io::write_bellperson_proof(dir / "p.proof", proof);
    EXPECT_EQ(read_bytes(dir / "p.proof"), Bytes(bytes.begin(), bytes.end()));
    EXPECT_EQ(io::read_bellperson_proof(dir / "p.proof"), proof);
  }
}

TEST(BellpersonProof, BadProofs) {
  SEED_TRACE();
  TempDir dir;
  const auto good = io::encode_bellperson_proof(random_proof(test_seed()));
  const Bytes g(good.begin(), good.end());
  const auto edit = [&](auto change) {
    return [=](const fs::path& p) {
      Bytes b = g;
      change(b);
      write_bytes(p, b);
    };
  };
  const std::vector<BadCase> cases = {
      {"missing", [](const fs::path&) {}, "cannot open"},
      {"empty", edit([](Bytes& b) { b.clear(); }), "0 bytes; a bellperson proof is exactly 192"},
      {"truncated", edit([](Bytes& b) { b.resize(191); }), "191 bytes"},
      {"long", edit([](Bytes& b) { b.push_back(0); }), "more than 192 bytes"},
      {"uncompressed_flag", edit([](Bytes& b) { b[0] &= 0x7f; }), "offset 0: A"},
      {"b_not_a_point", edit([](Bytes& b) { b[60] ^= 0x55; }), "offset 48: B"},
      {"c_infinity", edit([](Bytes& b) {
         std::fill(b.begin() + 144, b.end(), 0);
         b[144] = 0xc0;
       }),
       "offset 144: C: the point at infinity"},
      {"random", [](const fs::path& p) { write_bytes(p, Bytes(192, 0xa5)); }, "offset 0: A"},
  };
  run_bad_cases(dir, cases, [](const fs::path& p) { io::read_bellperson_proof(p); }, ".proof");
}

}  // namespace
}  // namespace cuzk::test
