// service::snarkjs_json and service::verify_json against expectations made
// without them: the fixtures' proof.json and public.json, which snarkjs wrote,
// come back byte for byte from the typed proofs read out of them; random
// proofs (points at infinity among them) are laid out as snarkjs lays them
// out, with coordinates in decimal by a conversion written here; and
// verification from JSON accepts snarkjs's proofs and tells a wrong count
// from a wrong proof.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "../io/io_test_support.hpp"
#include "cuzk/ec/random_points.hpp"
#include "cuzk/io/json.hpp"
#include "cuzk/service/proof.hpp"
#include "seed.hpp"

namespace cuzk::service {
namespace {

using ec::Bls12_381;
using ec::Bn254;
using test::fixture;
namespace fs = std::filesystem;

std::string text_of(const fs::path& p) {
  const test::Bytes b = test::read_bytes(p);
  return {b.begin(), b.end()};
}

// The decimal digits of a canonical integer (little-endian limbs), by long
// division by 10^19.
std::string decimal(std::vector<uint64_t> limbs) {
  constexpr uint64_t kChunk = 10000000000000000000ull;
  const auto nonzero = [&] { return std::any_of(limbs.begin(), limbs.end(), [](uint64_t l) { return l != 0; }); };
  std::string digits;
  do {
    unsigned __int128 rem = 0;
    for (size_t i = limbs.size(); i-- > 0;) {
      const unsigned __int128 cur = (rem << 64) | limbs[i];
      limbs[i] = uint64_t(cur / kChunk);
      rem = cur % kChunk;
    }
    std::string part = std::to_string(uint64_t(rem));
    if (nonzero()) part.insert(0, 19 - part.size(), '0');
    digits.insert(0, part);
  } while (nonzero());
  return digits;
}

template <class F>
std::string decimal(const F& a) {
  std::vector<uint64_t> v(F::N);
  a.to_canonical(v.data());
  return decimal(v);
}

std::string quoted(const std::string& s) { return "\"" + s + "\""; }

// snarkjs's projective triples: z = 1, and infinity (0, 1, 0).
template <class C>
std::array<std::string, 3> g1_triple(const ec::Affine<C>& p) {
  if (p.is_inf()) return {"0", "1", "0"};
  return {decimal(p.x), decimal(p.y), "1"};
}
template <class C>
std::array<std::array<std::string, 2>, 3> g2_triple(const ec::Affine<C>& p) {
  if (p.is_inf()) return {{{"0", "0"}, {"1", "0"}, {"0", "0"}}};
  return {{{decimal(p.x.c0), decimal(p.x.c1)}, {decimal(p.y.c0), decimal(p.y.c1)}, {"1", "0"}}};
}

// JSON.stringify(proof, null, 1) of snarkjs's proof object, "curve" last.
template <class E>
std::string expected_proof(const groth16::Proof<E>& p) {
  const auto g1 = [](const std::array<std::string, 3>& t) {
    return "[\n  " + quoted(t[0]) + ",\n  " + quoted(t[1]) + ",\n  " + quoted(t[2]) + "\n ]";
  };
  const auto b = g2_triple(p.b);
  std::string pi_b = "[";
  for (size_t i = 0; i < 3; ++i)
    pi_b += std::string(i ? "," : "") + "\n  [\n   " + quoted(b[i][0]) + ",\n   " + quoted(b[i][1]) + "\n  ]";
  pi_b += "\n ]";
  return "{\n \"pi_a\": " + g1(g1_triple(p.a)) + ",\n \"pi_b\": " + pi_b + ",\n \"pi_c\": " + g1(g1_triple(p.c)) +
         ",\n \"protocol\": \"groth16\",\n \"curve\": \"" + ec::curve_name(E::id) + "\"\n}";
}

template <class E>
std::string expected_publics(const std::vector<typename E::Fr>& publics) {
  if (publics.empty()) return "[]";
  std::string t = "[";
  for (size_t i = 0; i < publics.size(); ++i) t += std::string(i ? "," : "") + "\n " + quoted(decimal(publics[i]));
  return t + "\n]";
}

template <class E>
class ProofJsonTest : public ::testing::Test {};
using Curves = ::testing::Types<Bn254, Bls12_381>;
TYPED_TEST_SUITE(ProofJsonTest, Curves);

// snarkjs writes proof.json and public.json with JSON.stringify(x, null, 1),
// as the service's text does; the one difference is an empty public.json,
// "[\n]" from snarkjs and "[]" (the same JSON) from cuzk.
TYPED_TEST(ProofJsonTest, SnarkjsFixturesComeBackByteForByte) {
  using E = TypeParam;
  const std::string curve = ec::curve_name(E::id);
  for (const test::CircuitFacts& c : test::kCircuits) {
    SCOPED_TRACE(c.name);
    const fs::path proof = fixture(curve, c.name, "proof.json"), pub = fixture(curve, c.name, "public.json");
    const AnyProved proved = Proved<E>{io::read_proof_json<E>(proof), io::read_public_json<E>(pub)};
    const SnarkjsJson json = snarkjs_json(proved);
    EXPECT_EQ(json.proof, text_of(proof));
    if (c.n_public == 0)
      EXPECT_EQ(json.publics, "[]");
    else
      EXPECT_EQ(json.publics, text_of(pub));
  }
}

TYPED_TEST(ProofJsonTest, RandomProofsInSnarkjsLayout) {
  using E = TypeParam;
  SEED_TRACE();
  std::mt19937_64 rng = test::test_rng();
  const auto g1 = ec::random_points<typename E::G1>(8, ec::generator<typename E::G1>(), rng());
  const auto g2 = ec::random_points<typename E::G2>(4, ec::generator<typename E::G2>(), rng());
  for (size_t i = 0; i < 4; ++i) {
    Proved<E> p;
    p.proof = {g1[2 * i], g2[i], g1[2 * i + 1]};
    if (i == 1) p.proof.a = groth16::Proof<E>::G1::infinity();
    if (i == 2) p.proof.b = groth16::Proof<E>::G2::infinity();
    if (i == 3) p.proof.c = groth16::Proof<E>::G1::infinity();
    p.publics = ff::random_elements<typename E::Fr>(i, rng());
    const SnarkjsJson json = snarkjs_json(p);
    EXPECT_EQ(json.proof, expected_proof<E>(p.proof)) << "proof " << i;
    EXPECT_EQ(json.publics, expected_publics<E>(p.publics)) << "proof " << i;
    EXPECT_TRUE(io::parse_proof_json<E>(json.proof, "proof") == p.proof) << "proof " << i;
    EXPECT_EQ(io::parse_public_json<E>(json.publics, "public"), p.publics) << "proof " << i;
  }
}

TYPED_TEST(ProofJsonTest, VerifyFromJsonTellsAWrongCountFromAWrongProof) {
  using E = TypeParam;
  const std::string curve = ec::curve_name(E::id);
  const std::string vk = text_of(fixture(curve, "multiplier", "vk.json"));
  const std::string proof = text_of(fixture(curve, "multiplier", "proof.json"));
  const auto publics = io::read_public_json<E>(fixture(curve, "multiplier", "public.json"));
  const auto verdict = [&](std::vector<typename E::Fr> pub) {
    const std::string text = snarkjs_json(Proved<E>{{}, std::move(pub)}).publics;
    return verify_json({vk, "vk.json"}, {text, "public.json"}, {proof, "proof.json"});
  };
  Verdict v = verdict(publics);
  EXPECT_TRUE(v.valid);
  EXPECT_EQ(v.publics, 2u);
  EXPECT_EQ(v.expected, 2u);
  auto other = publics;
  other[1] = other[1] + E::Fr::one();
  v = verdict(other);
  EXPECT_FALSE(v.valid);
  EXPECT_EQ(v.publics, v.expected);
  v = verdict({publics[0]});
  EXPECT_FALSE(v.valid);
  EXPECT_EQ(v.publics, 1u);
  EXPECT_EQ(v.expected, 2u);
}

TEST(VerifyJson, AMalformedOrWrongCurveDocumentIsAFormatErrorNamingIt) {
  const std::string vk = text_of(fixture("bn128", "multiplier", "vk.json"));
  const std::string pub = text_of(fixture("bn128", "multiplier", "public.json"));
  const std::string other_curve = text_of(fixture("bls12381", "multiplier", "proof.json"));
  const auto message = [](const auto& call) -> std::string {
    try {
      call();
    } catch (const io::FormatError& e) {
      return e.what();
    }
    return "no FormatError";
  };
  EXPECT_EQ(message([&] { verify_json({vk, "vk.json"}, {pub, "public.json"}, {other_curve, "proof.json"}); })
                .rfind("proof.json: ", 0),
            0u);
  EXPECT_EQ(message([&] { verify_json({"{", "vk.json"}, {pub, "public.json"}, {other_curve, "proof.json"}); })
                .rfind("vk.json: invalid JSON", 0),
            0u);
  EXPECT_EQ(message([&] { verify_json({vk, "vk.json"}, {"", "public.json"}, {other_curve, "proof.json"}); }),
            "public.json: file is empty");
}

}  // namespace
}  // namespace cuzk::service
