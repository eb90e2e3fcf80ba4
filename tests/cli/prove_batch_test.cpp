// The engine's commands. cuzk prove-batch: several witnesses of one key; good
// witnesses get proofs that verify (in cuzk and in snarkjs), bad ones fail
// alone with an error line naming them, the trace file is a Chrome trace, and
// usage errors write nothing. cuzk bench pipeline: every partition proved, the
// figures and the trace written, and replaced by a rerun (bench prove's too).
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
    write_mixed_witnesses(in.path(), curve);
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
    EXPECT_EQ(complete, 2u * 9);  // synthesis, NTT, five MSMs, finish and verify for each of the two proofs
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
      {{"prove-batch", zkey, in / "w.wtns", "--out", in / "w.wtns"}, "not a directory"},
      {{"prove-batch", zkey, in / "w.wtns", "--out", out.path(), "--workers", "0"}, "--workers"},
      {{"prove-batch", zkey, in / "w.wtns", "--out", out.path(), "--backend", "cpu", "--abc", "gpu"}, "cuda backend"},
      {{"prove-batch", zkey, in / "w.wtns", "--out", out.path(), "--backend", "cpu", "--pageable"}, "pinned"},
      {{"prove-batch", zkey, in / "w.wtns", "--out", out.path(), "--abc", "sideways"}, "--abc"},
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

TEST(BenchPipeline, ProvesEveryPartitionAndReports) {
  TempDir out;
  const fs::path trace = out / "trace.json", json = out / "figures.json";
  const ProcessResult r = cuzk({"bench", "pipeline", "--curve", "bn254", "--circuit", "hash-chain", "--constraints",
                                "1024", "--partitions", "3", "--jobs", "2", "--backend", "cpu", "--trace", trace,
                                "--json", json});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("6 partitions proved and verified"), std::string::npos) << r.out;
  std::ifstream jf(json);
  const auto figures = nlohmann::json::parse(jf);
  EXPECT_GT(figures.at("partitions_per_s").get<double>(), 0);
  // The default warm-up: as many partitions as the pool holds buffers (2 synthesis threads + 2 for 1 worker).
  EXPECT_EQ(figures.at("warmup_partitions"), 4);
  EXPECT_EQ(figures.at("stages_ms").at("finish").at("count"), 6);
  std::ifstream tf(trace);
  const auto events = nlohmann::json::parse(tf).at("traceEvents");
  EXPECT_EQ(std::count_if(events.begin(), events.end(), [](const auto& e) { return e["ph"] == "X"; }), 6 * 9);
  EXPECT_EQ(figures.at("bench"), "pipeline");
  // A rerun replaces its own report and trace, and no other JSON.
  const std::vector<std::string> rerun{"bench", "pipeline", "--curve", "bn254", "--circuit", "hash-chain",
                                       "--constraints", "1024", "--partitions", "1", "--jobs", "1", "--backend", "cpu",
                                       "--trace", trace.string(), "--json", json.string()};
  const ProcessResult again = cuzk(rerun);
  EXPECT_EQ(again.exit_code, 0) << again.err;
  const fs::path other = out / "other.json";
  std::ofstream(other) << R"({"not": "a report"})";
  auto onto_other = rerun;
  onto_other.back() = other.string();
  const ProcessResult refused = cuzk(onto_other);
  EXPECT_NE(refused.exit_code, 0);
  EXPECT_NE(refused.err.find("is not replaced by a benchmark report"), std::string::npos) << refused.err;

  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"bench", "pipeline", "--jobs", "0", "--backend", "cpu"},
        std::vector<std::string>{"bench", "pipeline", "--backend", "cuda", "--gpus", "99"},
        std::vector<std::string>{"bench", "pipeline", "--backend", "cpu", "--compare"},
        std::vector<std::string>{"bench", "pipeline", "--backend", "cpu", "--setup-on", "gpu"},
        std::vector<std::string>{"bench", "pipeline", "--setup-on", "disk"}}) {
    const ProcessResult e = cuzk(bad);
    EXPECT_EQ(e.exit_code, 2) << e.err;
    EXPECT_EQ(std::count(e.err.begin(), e.err.end(), '\n'), 1) << e.err;
  }
}

TEST(BenchProve, ARerunReplacesItsOwnReport) {
  TempDir out;
  const fs::path json = out / "prove.json";
  for (int run = 0; run < 2; ++run) {
    const ProcessResult r = cuzk({"bench", "prove", "--curve", "bn254", "--circuit", "partition", "--constraints",
                                  "1024", "--repeat", "1", "--backend", "cpu", "--json", json.string()});
    ASSERT_EQ(r.exit_code, 0) << "run " << run << ": " << r.err;
  }
  std::ifstream jf(json);
  EXPECT_EQ(nlohmann::json::parse(jf).at("bench"), "prove");
}

}  // namespace
}  // namespace cuzk::test
