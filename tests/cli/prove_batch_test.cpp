// cuzk prove-batch: several witnesses of one key through the engine. Good
// witnesses get proofs that verify (in cuzk and in snarkjs); bad ones fail
// alone with an error line naming them; the trace file is a Chrome trace;
// usage errors write nothing.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>

#include "cli_support.hpp"

namespace cuzk::test {
namespace {

TEST(ProveBatch, GoodWitnessesProveAndBadOnesFailAlone) {
  for (const char* curve : kCurves) {
    SCOPED_TRACE(curve);
    TempDir in, out;
    const fs::path zkey = fixture(curve, "multiplier", "circuit.zkey");
    fs::copy_file(fixture(curve, "multiplier", "witness.wtns"), in / "first.wtns");
    fs::copy_file(fixture(curve, "multiplier", "witness.wtns"), in / "second.wtns");
    fs::copy_file(fixture(curve, "linear", "witness.wtns"), in / "other_circuit.wtns");
    {
      std::ifstream src(fixture(curve, "multiplier", "witness.wtns"), std::ios::binary);
      std::string bytes(100, '\0');
      src.read(bytes.data(), 100);
      std::ofstream(in / "truncated.wtns", std::ios::binary) << bytes;
    }
    const fs::path trace = out / "trace.json";
    const ProcessResult r =
        cuzk({"prove-batch", zkey, in / "first.wtns", in / "other_circuit.wtns", in / "second.wtns",
              in / "truncated.wtns", "--out", out.path(), "--trace", trace, "--backend", "cpu", "--workers", "2"});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    // One error line per bad witness, each naming its file.
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 2) << r.err;
    EXPECT_NE(r.err.find((in / "other_circuit.wtns").string()), std::string::npos) << r.err;
    EXPECT_NE(r.err.find((in / "truncated.wtns").string()), std::string::npos) << r.err;
    EXPECT_NE(r.out.find("2 of 4 witnesses proved"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("msm H"), std::string::npos) << r.out;  // the summary

    EXPECT_EQ(listing(out.path()), (std::vector<std::string>{"first.proof.json", "first.public.json",
                                                            "second.proof.json", "second.public.json", "trace.json"}));
    const fs::path vk = fixture(curve, "multiplier", "vk.json");
    for (const char* name : {"first", "second"}) {
      const fs::path pub = out / (std::string(name) + ".public.json"), proof = out / (std::string(name) + ".proof.json");
      EXPECT_EQ(cuzk({"verify", vk, pub, proof}).exit_code, 0) << name;
      const ProcessResult s = snarkjs({"groth16", "verify", vk, pub, proof});
      EXPECT_NE(s.out.find("OK"), std::string::npos) << name << ": " << s.out << s.err;
    }

    std::ifstream t(trace);
    const auto j = nlohmann::json::parse(t);
    size_t complete = 0;
    bool finalizer = false;
    for (const auto& e : j.at("traceEvents")) {
      if (e["ph"] == "X") ++complete;
      if (e["ph"] == "M" && e["args"]["name"] == "finalizer 0") finalizer = true;
    }
    EXPECT_EQ(complete, 2u * 8);  // synthesis, NTT, five MSMs and finish for each of the two proofs
    EXPECT_TRUE(finalizer);
  }
}

TEST(ProveBatch, UsageErrorsWriteNothing) {
  TempDir in, out;
  const fs::path zkey = fixture("bn128", "multiplier", "circuit.zkey");
  fs::create_directories(in / "x");
  fs::copy_file(fixture("bn128", "multiplier", "witness.wtns"), in / "w.wtns");
  fs::copy_file(fixture("bn128", "multiplier", "witness.wtns"), in / "x" / "w.wtns");
  const struct {
    std::vector<std::string> args;
    const char* text;
  } cases[] = {
      {{"prove-batch", zkey, in / "w.wtns", in / "x" / "w.wtns", "--out", out.path()}, "collide"},
      {{"prove-batch", zkey, in / "w.wtns", "--out", out / "missing"}, "not a directory"},
      {{"prove-batch", zkey, in / "w.wtns", "--out", out.path(), "--workers", "0"}, "--workers"},
      {{"prove-batch", in / "w.wtns", in / "w.wtns", "--out", out.path()}, "w.wtns"},
  };
  for (const auto& c : cases) {
    const ProcessResult r = cuzk(c.args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(c.text), std::string::npos) << r.err;
    EXPECT_TRUE(listing(out.path()).empty());
  }
}

}  // namespace
}  // namespace cuzk::test
