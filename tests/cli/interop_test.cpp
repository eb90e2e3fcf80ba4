// cuzk and snarkjs 0.7.6 agree, on both curves and every fixture circuit: a
// proof by `cuzk prove` verifies in `snarkjs groth16 verify` and in
// `cuzk verify`, snarkjs's proof verifies in `cuzk verify`, both reject the
// same tampered proofs and public inputs, and `cuzk export-vk` writes
// snarkjs's verification_key.json byte for byte.
#include <nlohmann/json.hpp>

#include <regex>
#include <tuple>

#include "cli_support.hpp"

namespace cuzk::test {
namespace {

using json = nlohmann::json;

json read_json(const fs::path& p) { return json::parse(read_bytes(p)); }
void write_json(const fs::path& p, const json& j) {
  const std::string s = j.dump(1);
  write_bytes(p, Bytes(s.begin(), s.end()));
}

// A decimal string plus one, to move a public input to a different (still
// canonical: the fixtures' values are far below r) field element.
std::string plus_one(std::string s) {
  for (size_t i = s.size(); i-- > 0;) {
    if (s[i] != '9') {
      ++s[i];
      return s;
    }
    s[i] = '0';
  }
  return "1" + s;
}

bool is_decimal(const json& v) {
  return v.is_string() && !v.get<std::string>().empty() &&
         v.get<std::string>().find_first_not_of("0123456789") == std::string::npos;
}

std::string text_of(const fs::path& p) {
  const Bytes b = read_bytes(p);
  return {b.begin(), b.end()};
}

// A JSON file's layout without its values: every number of two digits or more
// (a coordinate, a signal) becomes N, while key order, indentation and the z
// coordinates stay, so that files by cuzk and by snarkjs can be compared.
std::string layout(const fs::path& p) {
  static const std::regex number("\"[0-9]{2,}\"");
  return std::regex_replace(text_of(p), number, "\"N\"");
}

// snarkjs's proof.json: affine points as projective triples with z = "1".
void expect_snarkjs_proof_shape(const json& p, const std::string& curve) {
  EXPECT_EQ(p.value("protocol", ""), "groth16");
  EXPECT_EQ(p.value("curve", ""), curve);
  for (const char* g1 : {"pi_a", "pi_c"}) {
    SCOPED_TRACE(g1);
    ASSERT_TRUE(p.contains(g1) && p[g1].is_array() && p[g1].size() == 3) << p.dump();
    EXPECT_TRUE(is_decimal(p[g1][0]) && is_decimal(p[g1][1])) << p[g1].dump();
    EXPECT_EQ(p[g1][2], "1");
  }
  const json& b = p.value("pi_b", json());
  ASSERT_TRUE(b.is_array() && b.size() == 3) << p.dump();
  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE(b[i].is_array() && b[i].size() == 2) << b.dump();
    EXPECT_TRUE(is_decimal(b[i][0]) && is_decimal(b[i][1])) << b.dump();
  }
  EXPECT_EQ(b[2], json::array({"1", "0"}));
  EXPECT_EQ(p.size(), 5u) << "unexpected keys in " << p.dump();
}

// Both verifiers on the same three files must say `valid`.
void expect_verdicts(const fs::path& vk, const fs::path& pub, const fs::path& proof, bool valid) {
  const ProcessResult ours = cuzk({"verify", vk, pub, proof});
  const ProcessResult theirs = snarkjs({"groth16", "verify", vk, pub, proof});
  const std::string theirs_said = theirs.out + theirs.err;
  if (valid) {
    EXPECT_EQ(ours.exit_code, 0) << ours.err;
    EXPECT_EQ(ours.out, "OK\n");
    EXPECT_EQ(theirs.exit_code, 0) << theirs_said;
    EXPECT_NE(theirs_said.find("OK!"), std::string::npos) << theirs_said;
  } else {
    EXPECT_EQ(ours.exit_code, 1) << ours.out << ours.err;
    EXPECT_EQ(ours.out, "");
    EXPECT_NE(theirs.exit_code, 0) << theirs_said;
    // Rejected as a wrong proof, not for failing to read a file.
    EXPECT_NE(theirs_said.find("Invalid proof"), std::string::npos) << theirs_said;
  }
}

class Interop : public ::testing::TestWithParam<std::tuple<const char*, CircuitFacts>> {
 protected:
  std::string curve() const { return std::get<0>(GetParam()); }
  const CircuitFacts& circuit() const { return std::get<1>(GetParam()); }
  fs::path fixture_file(const std::string& name) const { return fixture(curve(), circuit().name, name); }

  TempDir dir;
};

TEST_P(Interop, CuzkProofVerifiesInBothAndTamperingIsRejectedByBoth) {
  const fs::path proof = dir / "proof.json", pub = dir / "public.json", vk = fixture_file("vk.json");
  const ProcessResult r = cuzk({"prove", fixture_file("circuit.zkey"), fixture_file("witness.wtns"), proof, pub});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  // Byte for byte what snarkjs wrote, but for "[]" where it writes "[\n]".
  if (circuit().n_public > 0)
    EXPECT_EQ(read_bytes(pub), read_bytes(fixture_file("public.json")));
  else
    EXPECT_EQ(text_of(pub), "[]");
  expect_snarkjs_proof_shape(read_json(proof), curve());
  EXPECT_EQ(layout(proof), layout(fixture_file("proof.json")));
  {
    SCOPED_TRACE("cuzk's proof");
    expect_verdicts(vk, pub, proof, true);
  }
  {
    // pi_a and pi_c are both valid G1 points, so the swapped proof passes
    // every format check and can only be caught by the pairing.
    SCOPED_TRACE("pi_a and pi_c swapped");
    json p = read_json(proof);
    std::swap(p["pi_a"], p["pi_c"]);
    write_json(dir / "swapped.json", p);
    expect_verdicts(vk, pub, dir / "swapped.json", false);
  }
  if (circuit().n_public > 0) {
    SCOPED_TRACE("first public input + 1");
    json s = read_json(pub);
    s[0] = plus_one(s[0].get<std::string>());
    write_json(dir / "tampered_public.json", s);
    expect_verdicts(vk, dir / "tampered_public.json", proof, false);
  }
}

TEST_P(Interop, SnarkjsProofVerifiesInCuzk) {
  const ProcessResult r =
      cuzk({"verify", fixture_file("vk.json"), fixture_file("public.json"), fixture_file("proof.json")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "OK\n");
}

TEST_P(Interop, ExportVkIsByteIdenticalToSnarkjs) {
  const ProcessResult r = cuzk({"export-vk", fixture_file("circuit.zkey"), dir / "vk.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_bytes(dir / "vk.json"), read_bytes(fixture_file("vk.json")));
  EXPECT_EQ(listing(dir.path()), std::vector<std::string>{"vk.json"}) << "temporary files left behind";
}

TEST_P(Interop, InfoDescribesEveryFileType) {
  for (const char* name : {"circuit.zkey", "witness.wtns", "circuit.r1cs", "vk.json", "proof.json", "public.json"}) {
    SCOPED_TRACE(name);
    const fs::path p = fixture_file(name);
    const ProcessResult r = cuzk({"info", p});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.rfind(p.string() + ": ", 0), 0u) << r.out;
    // public.json alone does not say which curve it is for.
    if (std::string(name) != "public.json") {
      EXPECT_NE(r.out.find(curve()), std::string::npos) << r.out;
    }
  }
}

// A native example through the commands alone: `cuzk setup` and `cuzk witness`
// make the files, both provers prove, both verifiers accept both proofs.
TEST(InteropNative, SetupWitnessProveVerifyWithSnarkjs) {
  for (const char* curve : {"bn254", "bls12_381"}) {
    SCOPED_TRACE(curve);
    TempDir dir;
    const fs::path zkey = dir / "p.zkey", vk = dir / "vk.json", wtns = dir / "p.wtns";
    const std::vector<std::string> native = {"--circuit", "partition", "--curve", curve, "--constraints", "2048"};
    auto with = [&](std::vector<std::string> args, const std::vector<std::string>& tail) {
      args.insert(args.end(), native.begin(), native.end());
      args.insert(args.end(), tail.begin(), tail.end());
      return args;
    };
    const ProcessResult setup = cuzk(with({"setup"}, {zkey, "--vk", vk}));
    ASSERT_EQ(setup.exit_code, 0) << setup.err;
    EXPECT_NE(setup.err.find("NOT FOR PRODUCTION"), std::string::npos) << setup.err;
    ASSERT_EQ(cuzk(with({"witness"}, {wtns})).exit_code, 0);

    const fs::path proof = dir / "proof.json", pub = dir / "public.json";
    const ProcessResult ours = cuzk({"prove", zkey, wtns, proof, pub});
    ASSERT_EQ(ours.exit_code, 0) << ours.err;
    expect_verdicts(vk, pub, proof, true);

    const fs::path sj_proof = dir / "sj_proof.json", sj_pub = dir / "sj_public.json";
    const ProcessResult theirs = snarkjs({"groth16", "prove", zkey, wtns, sj_proof, sj_pub});
    ASSERT_EQ(theirs.exit_code, 0) << theirs.out << theirs.err;
    expect_verdicts(vk, sj_pub, sj_proof, true);
    EXPECT_EQ(layout(proof), layout(sj_proof));
    EXPECT_EQ(read_bytes(pub), read_bytes(sj_pub));
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, Interop, ::testing::Combine(::testing::ValuesIn(kCurves), ::testing::ValuesIn(kCircuits)),
                         [](const auto& info) {
                           return std::string(std::get<0>(info.param)) + "_" + std::get<1>(info.param).name;
                         });

}  // namespace
}  // namespace cuzk::test
