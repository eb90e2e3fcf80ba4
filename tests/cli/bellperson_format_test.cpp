// bellperson's file formats through the cuzk program, checked by snarkjs
// 0.7.6: for every BLS12-381 fixture circuit, `cuzk setup --format
// bellperson` makes a parameter file, `cuzk prove` proves with it and the
// circuit into bellperson's 192-byte encoding, `cuzk convert-proof` turns
// that into snarkjs's three JSON files, and `snarkjs groth16 verify` accepts
// them and rejects tampered ones; `export-vk` and `info` read the parameter
// file. Every bellperson-format file here is cuzk's own: what this shows is
// that cuzk's writer, its reader and snarkjs agree, not that a file
// bellperson wrote reads (no such file is among the fixtures; making one
// takes bellperson's Rust crates).
#include <nlohmann/json.hpp>

#include "cli_support.hpp"

namespace cuzk::test {
namespace {

using json = nlohmann::json;

json read_json(const fs::path& p) { return json::parse(read_bytes(p)); }

// snarkjs's verdict on three files.
bool snarkjs_accepts(const fs::path& dir) {
  const ProcessResult r = snarkjs(
      {"groth16", "verify", dir / "verification_key.json", dir / "public.json", dir / "proof.json"});
  const std::string said = r.out + r.err;
  if (r.exit_code == 0) {
    EXPECT_NE(said.find("OK!"), std::string::npos) << said;
    return true;
  }
  EXPECT_NE(said.find("Invalid proof"), std::string::npos) << "rejected for another reason: " << said;
  return false;
}

class BellpersonFormat : public ::testing::TestWithParam<CircuitFacts> {
 protected:
  fs::path fixture_file(const std::string& name) const { return fixture("bls12381", GetParam().name, name); }
  ProcessResult convert(const fs::path& proof, const fs::path& pub, const fs::path& out) const {
    return cuzk({"convert-proof", params, proof, pub, "--out", out});
  }

  TempDir dir;
  const fs::path params = dir / "key.params";
};

TEST_P(BellpersonFormat, ProofConvertsAndVerifiesInSnarkjs) {
  const fs::path r1cs = fixture_file("circuit.r1cs"), wtns = fixture_file("witness.wtns");
  ProcessResult r = cuzk({"setup", "--format", "bellperson", r1cs, params});
  ASSERT_EQ(r.exit_code, 0) << r.err;

  const fs::path proof = dir / "proof.bin", pub = dir / "public.json";
  r = cuzk({"prove", params, wtns, proof, pub, "--r1cs", r1cs, "--format", "bellperson"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(fs::file_size(proof), 192u);
  EXPECT_EQ(read_json(pub), read_json(fixture_file("public.json")));

  r = convert(proof, pub, dir / "snarkjs");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(snarkjs_accepts(dir / "snarkjs"));
  r = cuzk({"verify", dir / "snarkjs" / "verification_key.json", dir / "snarkjs" / "public.json",
            dir / "snarkjs" / "proof.json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;

  // export-vk reads the parameter file's head: the converter's vk.
  r = cuzk({"export-vk", params, dir / "vk.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_json(dir / "vk.json"), read_json(dir / "snarkjs" / "verification_key.json"));
  // That head alone is bellperson's .vk file, which converts the same.
  const Bytes all = read_bytes(params);
  write_bytes(dir / "key.vk", Bytes(all.begin(), all.begin() + 3 * 96 + 3 * 192 + 4 + 96 * (GetParam().n_public + 1)));
  r = cuzk({"convert-proof", dir / "key.vk", proof, pub, "--out", dir / "from_vk"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* f : {"verification_key.json", "proof.json", "public.json"})
    EXPECT_EQ(read_bytes(dir / "from_vk" / f), read_bytes(dir / "snarkjs" / f)) << f;
  r = cuzk({"info", dir / "key.vk"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("bellperson Groth16 verifying key"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(std::to_string(GetParam().n_public) + " inputs"), std::string::npos) << r.out;
  r = cuzk({"info", proof});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("bellperson Groth16 proof"), std::string::npos) << r.out;

  // A second proof, then C taken from it into the first: still three valid
  // points, caught only by the pairing.
  r = cuzk({"prove", params, wtns, dir / "again.bin", dir / "again.json", "--r1cs", r1cs, "--format", "bellperson"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Bytes mixed = read_bytes(proof);
  const Bytes again = read_bytes(dir / "again.bin");
  ASSERT_NE(mixed, again) << "two proofs with fresh r and s";
  std::copy(again.begin() + 144, again.end(), mixed.begin() + 144);
  write_bytes(dir / "mixed.bin", mixed);
  ASSERT_EQ(convert(dir / "mixed.bin", pub, dir / "mixed").exit_code, 0);
  EXPECT_FALSE(snarkjs_accepts(dir / "mixed"));

  if (GetParam().n_public > 0) {
    json s = read_json(pub);
    std::string v = s[0].get<std::string>();  // plus one, in decimal: still far below r
    size_t i = v.size();
    while (i > 0 && v[i - 1] == '9') v[--i] = '0';
    if (i == 0) v.insert(v.begin(), '1');
    else ++v[i - 1];
    s[0] = v;
    const std::string text = s.dump();
    write_bytes(dir / "other_public.json", Bytes(text.begin(), text.end()));
    ASSERT_EQ(convert(proof, dir / "other_public.json", dir / "other").exit_code, 0);
    EXPECT_FALSE(snarkjs_accepts(dir / "other"));
  }
}

// The same parameter file proves into snarkjs's proof.json too.
TEST_P(BellpersonFormat, SnarkjsFormatFromParameters) {
  const fs::path r1cs = fixture_file("circuit.r1cs");
  ASSERT_EQ(cuzk({"setup", "--format", "bellperson", r1cs, params, "--vk", dir / "vk.json"}).exit_code, 0);
  const ProcessResult r =
      cuzk({"prove", params, fixture_file("witness.wtns"), dir / "proof.json", dir / "public.json", "--r1cs", r1cs});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  fs::rename(dir / "vk.json", dir / "verification_key.json");
  EXPECT_TRUE(snarkjs_accepts(dir.path()));
}

TEST_P(BellpersonFormat, InfoDescribesParameters) {
  const fs::path r1cs = fixture_file("circuit.r1cs");
  ASSERT_EQ(cuzk({"setup", "--format", "bellperson", r1cs, params}).exit_code, 0);
  const ProcessResult r = cuzk({"info", params});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("bellperson Groth16 parameters (bellman's convention)"), std::string::npos) << r.out;
  const CircuitFacts& c = GetParam();
  EXPECT_NE(r.out.find(std::to_string(c.n_vars) + " (the constant 1, " + std::to_string(c.n_public) + " public"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("IC " + std::to_string(c.n_public + 1) + ","), std::string::npos) << r.out;
}

// A native example's parameter file proves with --circuit and --constraints.
TEST(BellpersonNative, ProvesWithTheNamedCircuit) {
  TempDir dir;
  const std::vector<std::string> circuit = {"--circuit", "partition", "--constraints", "1024"};
  const auto with = [&](std::vector<std::string> args) {
    args.insert(args.end(), circuit.begin(), circuit.end());
    return args;
  };
  ProcessResult r = cuzk(with({"setup", "--format", "bellperson", "--curve", "bls12_381", dir / "p.params"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = cuzk(with({"witness", "--curve", "bls12_381", "--seed", "4", dir / "w.wtns"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = cuzk(with({"prove", dir / "p.params", dir / "w.wtns", dir / "proof.bin", dir / "public.json", "--format",
                 "bellperson"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = cuzk({"convert-proof", dir / "p.params", dir / "proof.bin", dir / "public.json", "--out", dir / "snarkjs"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(snarkjs_accepts(dir / "snarkjs"));
  // Another size is another circuit.
  r = cuzk({"prove", dir / "p.params", dir / "w.wtns", dir / "proof.bin", dir / "public.json", "--circuit",
            "partition", "--constraints", "2048", "--format", "bellperson"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(": L has "), std::string::npos) << r.err;
}

INSTANTIATE_TEST_SUITE_P(Fixtures, BellpersonFormat, ::testing::ValuesIn(kCircuits),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace cuzk::test
