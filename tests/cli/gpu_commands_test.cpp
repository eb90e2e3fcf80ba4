// The engine's commands on the GPU: prove-batch with a/b/c from the host and
// from the key's rows on the GPU gives proofs that cuzk verify accepts, and
// bench pipeline --compare runs its three variants with no pinned allocation
// after the warm-up. bellperson parameter files (bellman's convention) prove
// on the GPU too, through prove and bench prove.
#include <nlohmann/json.hpp>

#include <fstream>
#include <set>
#include <string_view>

#include "cli_support.hpp"

namespace cuzk::test {
namespace {

// "w<i>", the stem of the i-th witness, built by appending: GCC 12 warns
// -Wrestrict, falsely, on "w" + std::to_string(i) (its bug 105329).
std::string witness_stem(int i) {
  std::string stem = "w";
  stem += std::to_string(i);
  return stem;
}

TEST(GpuCommands, ProveBatchWithAbcOnHostAndGpu) {
  for (const char* curve : kCurves)
    for (const char* abc : {"host", "gpu"}) {
      SCOPED_TRACE(curve);
      SCOPED_TRACE(abc);
      TempDir in, out;
      const fs::path zkey = fixture(curve, "multiplier", "circuit.zkey");
      std::vector<std::string> args{"prove-batch", zkey};
      for (int i = 0; i < 5; ++i) {
        const fs::path w = in / (witness_stem(i) + ".wtns");
        fs::copy_file(fixture(curve, "multiplier", "witness.wtns"), w);
        args.push_back(w);
      }
      args.push_back("--out");
      args.push_back(out.path());
      for (const char* a : {"--backend", "cuda", "--abc", abc}) args.push_back(a);
      const ProcessResult r = cuzk(args);
      ASSERT_EQ(r.exit_code, 0) << r.err;
      EXPECT_NE(r.out.find("5 of 5 witnesses proved"), std::string::npos) << r.out;
      const char* placement = std::string_view(abc) == "gpu" ? "a/b/c on the GPU" : "a/b/c from the host";
      EXPECT_NE(r.out.find(placement), std::string::npos) << r.out;
      EXPECT_NE(r.out.find("pinned buffers"), std::string::npos) << r.out;
      for (int i = 0; i < 5; ++i) {
        const std::string stem = witness_stem(i);
        EXPECT_EQ(cuzk({"verify", fixture(curve, "multiplier", "vk.json"), out / (stem + ".public.json"),
                        out / (stem + ".proof.json")})
                      .exit_code,
                  0)
            << stem;
      }
    }
}

TEST(GpuCommands, BenchPipelineCompare) {
  TempDir out;
  const fs::path json = out / "figures.json", trace = out / "trace.json";
  const ProcessResult r = cuzk({"bench", "pipeline", "--curve", "bls12_381", "--circuit", "partition",
                                "--constraints", "4096", "--partitions", "4", "--jobs", "2", "--warmup", "8",
                                "--backend", "cuda", "--compare", "--json", json, "--trace", trace});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream jf(json);
  const auto figures = nlohmann::json::parse(jf);
  const auto& variants = figures.at("variants");
  ASSERT_EQ(variants.size(), 3u);
  EXPECT_EQ(variants[0].at("memory"), "pinned");
  EXPECT_EQ(variants[1].at("workers_per_gpu"), 1);
  EXPECT_EQ(variants[2].at("memory"), "pageable");
  for (const auto& v : variants) {
    EXPECT_EQ(v.at("pool_allocations_after_warmup"), 0) << v.dump();
    EXPECT_GT(v.at("gpu_busy").get<double>(), 0) << v.dump();
    EXPECT_GT(v.at("upload_gbps").get<double>(), 0) << v.dump();
    EXPECT_EQ(v.at("stages_ms").at("verify").at("count"), 8) << v.dump();  // the timed jobs only
  }
  std::ifstream tf(trace);
  const auto events = nlohmann::json::parse(tf).at("traceEvents");
  std::set<std::string> tracks;
  for (const auto& e : events)
    if (e["ph"] == "M") tracks.insert(e["args"]["name"].get<std::string>());
  for (const char* t : {"GPU 0 worker 0", "GPU 0 worker 1", "GPU 0 copy 0", "GPU 0 copy 1", "finalizer 0"})
    EXPECT_TRUE(tracks.count(t)) << t;
  // Either synthesis thread may take every timed partition.
  EXPECT_TRUE(tracks.count("synthesis 0") || tracks.count("synthesis 1"));
}

// A key budget too small for the key: it is streamed, and the proofs verify.
TEST(GpuCommands, BenchPipelineStreamsAKeyThatDoesNotFit) {
  const ProcessResult r = cuzk({"bench", "pipeline", "--curve", "bn254", "--circuit", "hash-chain", "--constraints",
                                "4096", "--partitions", "3", "--jobs", "1", "--backend", "cuda", "--key-budget-mib",
                                "1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("3 partitions proved and verified"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 key upload, 1 of them streamed"), std::string::npos) << r.out;
}

// A one-shot prove on the GPU checks the key's points there, once uploaded:
// a good key proves; one with a point off its curve fails as the key's reader
// would have (exit 2, one line naming the file and the point) and writes nothing.
TEST(GpuCommands, ProveChecksTheKeysPointsOnTheGpu) {
  for (const char* curve : kCurves) {
    SCOPED_TRACE(curve);
    TempDir dir;
    const fs::path wtns = fixture(curve, "multiplier", "witness.wtns");
    const fs::path proof = dir / "proof.json", pub = dir / "public.json";
    const ProcessResult proved =
        cuzk({"prove", fixture(curve, "multiplier", "circuit.zkey"), wtns, proof, pub, "--backend", "cuda"});
    ASSERT_EQ(proved.exit_code, 0) << proved.err;
    fs::remove(proof), fs::remove(pub);
    Container k = Container::load(fixture(curve, "multiplier", "circuit.zkey"));
    const size_t n8q = std::string(curve) == "bn128" ? 32 : 48;
    k.section(9).data[2 * 2 * n8q + n8q] ^= 1;  // H point 2's y
    k.save(dir / "bad.zkey");
    const ProcessResult r = cuzk({"prove", dir / "bad.zkey", wtns, proof, pub, "--backend", "cuda"});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.err, "error: " + (dir / "bad.zkey").string() + ": section 9: H point 2 is not on the curve\n");
    EXPECT_FALSE(fs::exists(proof) || fs::exists(pub));
  }
}

TEST(GpuCommands, BellpersonParamsProveOnTheGpu) {
  TempDir dir;
  const std::vector<std::string> circuit{"--circuit", "partition", "--curve", "bls12_381", "--constraints", "4096"};
  const auto with = [&](std::vector<std::string> args) {
    args.insert(args.end(), circuit.begin(), circuit.end());
    return cuzk(args);
  };
  // The parameter file's points made on the GPU (the cuda backend, chosen
  // where there is a GPU), proved from on the GPU and verified.
  ASSERT_EQ(with({"setup", "--format", "bellperson", dir / "k.params"}).exit_code, 0);
  ASSERT_EQ(with({"witness", dir / "w.wtns"}).exit_code, 0);
  const ProcessResult proved = cuzk({"prove", dir / "k.params", dir / "w.wtns", dir / "proof.bin", dir / "public.json",
                                     "--circuit", "partition", "--constraints", "4096", "--format", "bellperson",
                                     "--backend", "cuda"});
  ASSERT_EQ(proved.exit_code, 0) << proved.err;
  EXPECT_NE(proved.out.find("verified) with the cuda backend"), std::string::npos) << proved.out;

  const ProcessResult bench = with({"bench", "prove", "--format", "bellperson", "--backend", "cuda"});
  ASSERT_EQ(bench.exit_code, 0) << bench.err;
  EXPECT_NE(bench.out.find("bellman's convention"), std::string::npos) << bench.out;
  EXPECT_NE(bench.out.find("backend cuda"), std::string::npos) << bench.out;
  // Its key made on the GPU (bellman's convention there too), and kept there.
  EXPECT_NE(bench.out.find("setup on the gpu"), std::string::npos) << bench.out;
  const ProcessResult on_host = with({"bench", "prove", "--format", "bellperson", "--backend", "cuda", "--setup-on",
                                      "host", "--repeat", "1"});
  ASSERT_EQ(on_host.exit_code, 0) << on_host.err;
  EXPECT_NE(on_host.out.find("setup on the host"), std::string::npos) << on_host.out;
}

}  // namespace
}  // namespace cuzk::test
