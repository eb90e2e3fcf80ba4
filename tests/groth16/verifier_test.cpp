// groth16::verify and the snarkjs JSON files, against snarkjs's own output for
// every fixture circuit on both curves.
#include "cuzk/groth16/verifier.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "../io/io_test_support.hpp"
#include "cuzk/ff/encode.hpp"
#include "cuzk/io/json.hpp"
#include "cuzk/io/zkey.hpp"

namespace cuzk::test {
namespace {

using groth16::Proof;
using groth16::VerifyingKey;

nlohmann::json parse_file(const fs::path& p) {
  std::ifstream in(p);
  return nlohmann::json::parse(in);
}
nlohmann::json plain(const nlohmann::ordered_json& j) { return nlohmann::json::parse(j.dump()); }

void write_text(const fs::path& p, const std::string& s) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << s;
}

template <class E>
struct Fixture {
  io::Zkey zkey;
  VerifyingKey<E> vk;
  Proof<E> proof;
  std::vector<typename E::Fr> publics;
  fs::path dir;

  Fixture(const std::string& curve, const std::string& circuit)
      : zkey(io::Zkey::open(fixture(curve, circuit, "circuit.zkey"))),
        vk(groth16::verifying_key(zkey.as<E>())),
        proof(io::read_proof_json<E>(fixture(curve, circuit, "proof.json"))),
        publics(io::read_public_json<E>(fixture(curve, circuit, "public.json"))),
        dir(fixture(curve, circuit, "")) {}
};

template <class E>
typename Proof<E>::G1 twice(const typename Proof<E>::G1& p) {
  return ec::Jacobian<typename E::G1>::from(p).dbl().to_affine();
}
template <class E>
typename Proof<E>::G2 twice2(const typename Proof<E>::G2& p) {
  return ec::Jacobian<typename E::G2>::from(p).dbl().to_affine();
}

template <class E>
void check_circuit(const std::string& curve, const CircuitFacts& facts) {
  SCOPED_TRACE(curve + "/" + facts.name);
  Fixture<E> f(curve, facts.name);
  // Every verdict below from both verifiers, which must agree.
  const groth16::PreparedVerifier<E> prepared(f.vk);
  const auto verifies = [&](const std::vector<typename E::Fr>& publics, const Proof<E>& proof) {
    const bool verdict = groth16::verify<E>(f.vk, publics, proof);
    EXPECT_EQ(prepared.verify(publics, proof), verdict) << "the prepared verifier disagrees";
    return verdict;
  };
  ASSERT_EQ(f.vk.ic.size(), facts.n_public + 1u);
  ASSERT_EQ(f.publics.size(), facts.n_public);

  // snarkjs's proof verifies.
  EXPECT_TRUE(verifies(f.publics, f.proof));

  // Each proof point replaced by another subgroup point (its double).
  {
    Proof<E> p = f.proof;
    p.a = twice<E>(p.a);
    EXPECT_TRUE(ec::in_subgroup(p.a));
    EXPECT_FALSE(verifies(f.publics, p)) << "A tampered";
  }
  {
    Proof<E> p = f.proof;
    p.b = twice2<E>(p.b);
    EXPECT_TRUE(ec::in_subgroup(p.b));
    EXPECT_FALSE(verifies(f.publics, p)) << "B tampered";
  }
  {
    Proof<E> p = f.proof;
    p.c = twice<E>(p.c);
    EXPECT_FALSE(verifies(f.publics, p)) << "C tampered";
  }
  // Each public input + 1.
  for (size_t i = 0; i < f.publics.size(); ++i) {
    auto pub = f.publics;
    pub[i] = pub[i] + E::Fr::one();
    EXPECT_FALSE(verifies(pub, f.proof)) << "public " << i << " + 1";
  }
  // Wrong counts.
  {
    auto more = f.publics;
    more.push_back(E::Fr::zero());
    EXPECT_FALSE(verifies(more, f.proof)) << "one public too many";
    if (!f.publics.empty()) {
      auto fewer = f.publics;
      fewer.pop_back();
      EXPECT_FALSE(verifies(fewer, f.proof)) << "one public too few";
    }
  }
  // A point off the curve or outside the subgroup is rejected, not paired.
  {
    Proof<E> p = f.proof;
    p.a.y = p.a.y + E::Fq::one();
    EXPECT_FALSE(verifies(f.publics, p)) << "A off the curve";
    Proof<E> q = f.proof;
    q.b.x = q.b.x + decltype(q.b.x)::one();
    EXPECT_FALSE(verifies(f.publics, q)) << "B off the curve";
  }

  // The prepared verifier pairs alpha and beta itself: a key whose
  // vk_alphabeta_12 was altered (read as written) changes nothing.
  {
    VerifyingKey<E> altered = f.vk;
    altered.alphabeta = altered.alphabeta * altered.alphabeta;
    EXPECT_TRUE(groth16::PreparedVerifier<E>(altered).verify(f.publics, f.proof));
  }

  // Our verifying key, as JSON, is snarkjs's vk.json (vk_alphabeta_12 included,
  // so our pairing is snarkjs's).
  const nlohmann::json ours = plain(io::vk_to_json(f.vk));
  const nlohmann::json theirs = parse_file(f.dir / "vk.json");
  EXPECT_EQ(ours["vk_alphabeta_12"], theirs["vk_alphabeta_12"]);
  EXPECT_EQ(ours, theirs);

  TempDir tmp;
  // vk.json: read snarkjs's, write ours, read back.
  const VerifyingKey<E> read_vk = io::read_vk_json<E>(f.dir / "vk.json");
  EXPECT_TRUE(read_vk == f.vk);
  EXPECT_EQ(io::read_json_curve(f.dir / "vk.json"), E::id);
  io::write_vk_json(tmp / "vk.json", f.vk);
  EXPECT_EQ(parse_file(tmp / "vk.json"), theirs);
  EXPECT_TRUE(io::read_vk_json<E>(tmp / "vk.json") == f.vk);

  // proof.json and public.json round trips, equal to snarkjs's as JSON values.
  io::write_proof_json(tmp / "proof.json", f.proof);
  EXPECT_EQ(parse_file(tmp / "proof.json"), parse_file(f.dir / "proof.json"));
  EXPECT_TRUE(io::read_proof_json<E>(tmp / "proof.json") == f.proof);
  io::write_public_json<E>(tmp / "public.json", f.publics);
  EXPECT_EQ(parse_file(tmp / "public.json"), parse_file(f.dir / "public.json"));
  EXPECT_EQ(io::read_public_json<E>(tmp / "public.json"), f.publics);
  // snarkjs's 1-space layout.
  {
    std::ifstream in(tmp / "proof.json");
    std::string first, second;
    std::getline(in, first);
    std::getline(in, second);
    EXPECT_EQ(first, "{");
    EXPECT_EQ(second, " \"pi_a\": [");
  }
  // No temporary files left behind.
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(tmp.path())) (void)e, ++files;
  EXPECT_EQ(files, 3u);
}

template <class E>
void check_all(const std::string& curve) {
  for (const auto& c : kCircuits) check_circuit<E>(curve, c);
}

TEST(Groth16Verify, Bn128AllFixtures) { check_all<ec::Bn254>("bn128"); }
TEST(Groth16Verify, Bls12381AllFixtures) { check_all<ec::Bls12_381>("bls12381"); }

TEST(Groth16Verify, CurveNames) {
  for (const char* n : {"bn128", "bn254", "altbn128", "BN128", "alt_bn128"})
    EXPECT_EQ(io::curve_from_name(n), ec::Curve::bn254) << n;
  for (const char* n : {"bls12381", "bls12-381", "BLS12_381"}) EXPECT_EQ(io::curve_from_name(n), ec::Curve::bls12_381) << n;
  for (const char* n : {"", "bn256", "secp256k1", "bls12377"}) EXPECT_FALSE(io::curve_from_name(n).has_value()) << n;
}

// z != 1 is read as Jacobian; z = 0 as infinity; infinity is written as [0, 1, 0].
TEST(Groth16Json, JacobianAndInfinity) {
  using E = ec::Bn254;
  TempDir tmp;
  const fs::path src = fixture("bn128", "multiplier", "proof.json");
  const Proof<E> proof = io::read_proof_json<E>(src);
  nlohmann::json j = parse_file(src);
  // (x z^2, y z^3, z) with z = 2.
  const E::Fq z = E::Fq::one() + E::Fq::one();
  j["pi_a"] = {ff::to_decimal(proof.a.x * z.sqr()), ff::to_decimal(proof.a.y * z.sqr() * z), "2"};
  write_text(tmp / "jac.json", j.dump());
  EXPECT_TRUE(io::read_proof_json<E>(tmp / "jac.json") == proof);

  Proof<E> inf = proof;
  inf.a = Proof<E>::G1::infinity();
  inf.b = Proof<E>::G2::infinity();
  io::write_proof_json(tmp / "inf.json", inf);
  const nlohmann::json w = parse_file(tmp / "inf.json");
  EXPECT_EQ(w["pi_a"], nlohmann::json::array({"0", "1", "0"}));
  EXPECT_EQ(w["pi_b"], nlohmann::json::array({nlohmann::json::array({"0", "0"}), nlohmann::json::array({"1", "0"}), nlohmann::json::array({"0", "0"})}));
  EXPECT_TRUE(io::read_proof_json<E>(tmp / "inf.json") == inf);
  // Rapidsnark's proof.json has no "curve" key.
  j = parse_file(src);
  j.erase("curve");
  write_text(tmp / "nocurve.json", j.dump());
  EXPECT_TRUE(io::read_proof_json<E>(tmp / "nocurve.json") == proof);
}

// Each bad file must give a one-line FormatError naming the file and the problem.
template <class E>
void bad_inputs(const std::string& curve) {
  SCOPED_TRACE(curve);
  TempDir dir;
  const fs::path proof_src = fixture(curve, "multiplier", "proof.json");
  const fs::path public_src = fixture(curve, "multiplier", "public.json");
  const fs::path vk_src = fixture(curve, "multiplier", "vk.json");
  const std::string q = ff::BigUint::from_limbs([] {
                          static uint64_t m[E::Fq::N];
                          for (size_t i = 0; i < E::Fq::N; ++i) m[i] = E::Fq::params::modulus(i);
                          return m;
                        }(), E::Fq::N).to_decimal();
  const std::string r = ff::BigUint::from_limbs([] {
                          static uint64_t m[E::Fr::N];
                          for (size_t i = 0; i < E::Fr::N; ++i) m[i] = E::Fr::params::modulus(i);
                          return m;
                        }(), E::Fr::N).to_decimal();
  const std::string other = curve == "bn128" ? "bls12381" : "bn128";

  // Edits of a parsed file, written back.
  using Edit = std::function<void(nlohmann::json&)>;
  auto edited = [](const fs::path& src, Edit e) {
    return [src, e](const fs::path& p) {
      nlohmann::json j = parse_file(src);
      e(j);
      write_text(p, j.dump(1));
    };
  };
  auto text = [](std::string s) { return [s](const fs::path& p) { write_text(p, s); }; };
  const std::string proof_text = [&] {
    std::ifstream in(proof_src);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }();

  const std::vector<BadCase> proof_cases = {
      {"missing", [](const fs::path&) {}, "cannot open"},
      {"empty", text(""), "file is empty"},
      {"truncated", text(proof_text.substr(0, proof_text.size() / 2)), "invalid JSON"},
      {"not_object", text("[1, 2]"), "not a JSON object"},
      {"missing_pi_a", edited(proof_src, [](auto& j) { j.erase("pi_a"); }), "missing key \"pi_a\""},
      {"missing_pi_c", edited(proof_src, [](auto& j) { j.erase("pi_c"); }), "missing key \"pi_c\""},
      {"unknown_curve", edited(proof_src, [](auto& j) { j["curve"] = "bn256"; }), "unknown curve \"bn256\""},
      {"other_curve", edited(proof_src, [&](auto& j) { j["curve"] = other; }), "the file is for " + other},
      {"protocol", edited(proof_src, [](auto& j) { j["protocol"] = "plonk"; }), "protocol: not \"groth16\""},
      {"non_decimal", edited(proof_src, [](auto& j) { j["pi_a"][0] = "0x1f"; }), "pi_a[0]: \"0x1f\" is not a decimal integer"},
      {"negative", edited(proof_src, [](auto& j) { j["pi_a"][1] = "-5"; }), "pi_a[1]: \"-5\" is not a decimal integer"},
      {"number_not_string", edited(proof_src, [](auto& j) { j["pi_c"][0] = 5; }), "pi_c[0]: not a decimal string"},
      {"x_eq_q", edited(proof_src, [&](auto& j) { j["pi_a"][0] = q; }), "pi_a[0]: value is not below q"},
      {"g2_ge_q", edited(proof_src, [&](auto& j) { j["pi_b"][1][1] = q + "0"; }), "pi_b[1][1]: value is not below q"},
      {"a_off_curve", edited(proof_src, [](auto& j) { j["pi_a"][0] = "5"; }), "pi_a: point is not on the curve"},
      {"b_off_curve", edited(proof_src, [](auto& j) { j["pi_b"][0][0] = "5"; }), "pi_b: point is not on the curve"},
      {"zero_affine", edited(proof_src, [](auto& j) { j["pi_c"] = {"0", "0", "1"}; }), "pi_c: point is not on the curve"},
      {"point_short", edited(proof_src, [](auto& j) { j["pi_a"] = {"1"}; }), "pi_a: not a point"},
      {"g2_coord_shape", edited(proof_src, [](auto& j) { j["pi_b"][0] = "1"; }), "pi_b[0]: not an array"},
  };
  run_bad_cases(dir, proof_cases, [](const fs::path& p) { io::read_proof_json<E>(p); }, ".proof.json");

  const std::vector<BadCase> public_cases = {
      {"p_empty", text(""), "file is empty"},
      {"p_truncated", text("[\"1\", \"2\""), "invalid JSON"},
      {"p_object", text("{}"), "not a JSON array of decimal strings"},
      {"p_non_decimal", text("[\"1\", \"abc\"]"), "[1]: \"abc\" is not a decimal integer"},
      {"p_space", text("[\" 1\"]"), "[0]: \" 1\" is not a decimal integer"},
      {"p_eq_r", text("[\"" + r + "\"]"), "[0]: value is not below r"},
      {"p_number", text("[3]"), "[0]: not a decimal string"},
  };
  run_bad_cases(dir, public_cases, [](const fs::path& p) { io::read_public_json<E>(p); }, ".public.json");

  const std::vector<BadCase> vk_cases = {
      {"v_empty", text(""), "file is empty"},
      {"v_truncated", text("{\"protocol\": \"groth16\","), "invalid JSON"},
      {"v_no_curve", edited(vk_src, [](auto& j) { j.erase("curve"); }), "missing key \"curve\""},
      {"v_no_protocol", edited(vk_src, [](auto& j) { j.erase("protocol"); }), "missing key \"protocol\""},
      {"v_no_ic", edited(vk_src, [](auto& j) { j.erase("IC"); }), "missing key \"IC\""},
      {"v_no_alphabeta", edited(vk_src, [](auto& j) { j.erase("vk_alphabeta_12"); }), "missing key \"vk_alphabeta_12\""},
      {"v_bad_curve", edited(vk_src, [](auto& j) { j["curve"] = "ed25519"; }), "unknown curve \"ed25519\""},
      {"v_other_curve", edited(vk_src, [&](auto& j) { j["curve"] = other; }), "the file is for " + other},
      {"v_npublic", edited(vk_src, [](auto& j) { j["nPublic"] = 5; }), "IC: has 3 points, expected nPublic + 1 = 6"},
      {"v_npublic_neg", edited(vk_src, [](auto& j) { j["nPublic"] = -1; }), "nPublic: not a non-negative integer"},
      {"v_alphabeta_ge_q", edited(vk_src, [&](auto& j) { j["vk_alphabeta_12"][1][2][1] = q; }),
       "vk_alphabeta_12[1][2][1]: value is not below q"},
      {"v_alphabeta_shape", edited(vk_src, [](auto& j) { j["vk_alphabeta_12"][0] = {"1"}; }),
       "vk_alphabeta_12[0]: has 1 entries, expected 3"},
      {"v_ic_off_curve", edited(vk_src, [](auto& j) { j["IC"][1][1] = "7"; }), "IC[1]: point is not on the curve"},
      {"v_gamma_non_decimal", edited(vk_src, [](auto& j) { j["vk_gamma_2"][0][0] = "1e3"; }),
       "vk_gamma_2[0][0]: \"1e3\" is not a decimal integer"},
  };
  run_bad_cases(dir, vk_cases, [](const fs::path& p) { io::read_vk_json<E>(p); }, ".vk.json");
  run_bad_cases(dir, {{"c_no_curve", text("{}"), "missing key \"curve\""}, {"c_bad", text("{\"curve\": \"x\"}"), "unknown curve"}},
                [](const fs::path& p) { io::read_json_curve(p); }, ".json");
}

TEST(Groth16Json, BadInputsBn128) { bad_inputs<ec::Bn254>("bn128"); }
TEST(Groth16Json, BadInputsBls12381) { bad_inputs<ec::Bls12_381>("bls12381"); }

// A G2 point on the curve but outside the order-r subgroup: a vk.json is
// refused, a proof's B makes verify return false. BN254's G2 has a cofactor,
// so (x, y) for the smallest x with x^3 + b' a square is almost surely outside.
TEST(Groth16Json, SubgroupChecks) {
  using E = ec::Bn254;
  using F2 = ff::bn254::Fq2;
  ec::bn254::G2Affine p{};
  bool found = false;
  for (uint64_t x = 1; x < 100 && !found; ++x) {
    const F2 xx{E::Fq::from_uint(x), E::Fq::zero()};
    const F2 rhs = xx.sqr() * xx + ec::bn254::G2::b();
    F2 y;
    if (rhs.sqrt(y)) {
      p = {xx, y};
      found = true;
    }
  }
  ASSERT_TRUE(found);
  ASSERT_TRUE(p.on_curve());
  ASSERT_FALSE(ec::in_subgroup(p));
  Fixture<E> f("bn128", "multiplier");
  Proof<E> bad = f.proof;
  bad.b = p;
  EXPECT_FALSE(groth16::verify<E>(f.vk, f.publics, bad));
  TempDir tmp;
  VerifyingKey<E> vk = f.vk;
  vk.gamma2 = p;
  io::write_vk_json(tmp / "vk.json", vk);
  try {
    io::read_vk_json<E>(tmp / "vk.json");
    ADD_FAILURE() << "no error";
  } catch (const io::FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("vk_gamma_2: point is not in the order-r subgroup"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace cuzk::test
