// What a user sees when things go right, and what a failure leaves behind:
// prove's one line on success (and --quiet), CUZK_TIMING's heading, outputs
// removed before proving so that a failure leaves no older proof to mistake
// for this run's, prove-batch making its --out folder and a CPU summary that
// speaks only of what applies, and the witness check that names the first
// failing constraint.
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <thread>

#include "cli_support.hpp"

namespace cuzk::test {
namespace {

const fs::path kZkey = fixture("bn128", "multiplier", "circuit.zkey");
const fs::path kWtns = fixture("bn128", "multiplier", "witness.wtns");
const fs::path kR1cs = fixture("bn128", "multiplier", "circuit.r1cs");

// The fixture witness with the output (signal 1) changed: the last
// constraint, c = x[250]·a (index 250), no longer holds.
fs::path unsatisfied_witness(const TempDir& dir) {
  Container w = Container::load(kWtns);
  w.section(2).data[32] ^= 1;
  const fs::path path = dir / "unsatisfied.wtns";
  w.save(path);
  return path;
}

TEST(Prove, SaysWhatItWroteUnlessQuiet) {
  TempDir out;
  const fs::path proof = out / "proof.json", pub = out / "public.json";
  const ProcessResult r = cuzk({"prove", kZkey, kWtns, proof, pub, "--backend", "cpu"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  for (const std::string& word : {proof.string(), pub.string(), std::string("bn128"), std::string("verified"),
                                  std::string("cpu backend"), std::string(" s\n")})
    EXPECT_NE(r.out.find(word), std::string::npos) << "no \"" << word << "\" in: " << r.out;
  EXPECT_EQ(r.err, "");

  const ProcessResult q = cuzk({"prove", kZkey, kWtns, proof, pub, "--backend", "cpu", "--quiet"});
  ASSERT_EQ(q.exit_code, 0) << q.err;
  EXPECT_EQ(q.out, "");
  EXPECT_EQ(q.err, "");
  EXPECT_EQ(cuzk({"verify", fixture("bn128", "multiplier", "vk.json"), pub, proof}).exit_code, 0);
}

// Every command that writes says, in one line, what it wrote (issue 35 item 8).
TEST(Commands, SayWhatTheyWrote) {
  TempDir out;
  const auto says = [](const ProcessResult& r, const std::vector<std::string>& words) {
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
    for (const std::string& word : words) EXPECT_NE(r.out.find(word), std::string::npos) << "no \"" << word << "\" in: " << r.out;
  };
  const fs::path vk = out / "vk.json";
  says(cuzk({"export-vk", kZkey, vk}), {"cuzk export-vk: wrote " + vk.string(), "bn128 verification key", "2 public signals"});
  const fs::path wtns = out / "w.wtns";
  says(cuzk({"witness", "--circuit", "partition", "--curve", "bls12_381", "--constraints", "1024", wtns}),
       {"cuzk witness: wrote " + wtns.string(), "bls12381"});
  const fs::path zkey = out / "k.zkey", setup_vk = out / "setup-vk.json";
  says(cuzk({"setup", kR1cs, zkey, "--vk", setup_vk}),
       {zkey.string() + ": bn128 key", "; verification key in " + setup_vk.string()});
  EXPECT_TRUE(fs::exists(setup_vk));
}

// The processes whose command line names `dir` (/proc/<pid>/cmdline).
std::vector<int> processes_naming(const fs::path& dir) {
  std::vector<int> pids;
  for (const auto& e : fs::directory_iterator("/proc")) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(e.path() / "cmdline", std::ios::binary);
    const std::string cmdline((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (cmdline.find(dir.string()) != std::string::npos) pids.push_back(std::stoi(name));
  }
  return pids;
}

// cuzk prove ends before the kernel takes back what it holds, through a
// helper that shares its memory and files (cli/exit_early.hpp): the outputs
// are whole when the status comes, the standard streams end with the process
// (the capture here reads them to their end), and no helper outlives it, the
// race between the process's exit and the helper's start included.
TEST(Prove, EndsBeforeItsTeardownAndLeavesNoProcessBehind) {
  TempDir out;
  const fs::path proof = out / "proof.json", pub = out / "public.json";
  for (int run = 0; run < 12; ++run) {
    if (run == 6) ::setenv("CUZK_WAIT_TEARDOWN", "1", 1);
    const ProcessResult r = cuzk({"prove", kZkey, kWtns, proof, pub, "--backend", "cpu"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("verified"), std::string::npos) << r.out;
    ASSERT_EQ(cuzk({"verify", fixture("bn128", "multiplier", "vk.json"), pub, proof}).exit_code, 0) << "run " << run;
  }
  ::unsetenv("CUZK_WAIT_TEARDOWN");
  std::vector<int> left = processes_naming(out.path());
  for (int i = 0; i < 100 && !left.empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    left = processes_naming(out.path());
  }
  EXPECT_TRUE(left.empty()) << left.size() << " processes naming " << out.path() << " are still running, the first "
                            << left.front();
}

TEST(Prove, TimingLinesHaveAHeading) {
  TempDir out;
  const ProcessResult r =
      cuzk_with_timing({"prove", kZkey, kWtns, out / "p.json", out / "s.json", "--backend", "cpu", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.rfind("cuzk timing: stage", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("cuzk timing: read zkey"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("cuzk timing: stage", 1), std::string::npos) << "one heading: " << r.err;
  // The process's age where the command's clock starts and at its exit call:
  // both read, the second not the smaller, both within the test's minute.
  const auto age_ms = [&](const std::string& where) {
    const std::string label = "cuzk timing: process age at " + where;
    const size_t at = r.err.find(label);
    if (at == std::string::npos) return -1.0;
    return std::stod(r.err.substr(at + label.size()));
  };
  const double at_clock = age_ms("clock"), at_exit = age_ms("exit");
  EXPECT_GE(at_clock, 0) << r.err;
  EXPECT_GE(at_exit, at_clock) << r.err;
  EXPECT_LT(at_exit, 60e3) << r.err;
  const ProcessResult help = cuzk({"--help"});
  EXPECT_NE(help.out.find("CUZK_TIMING=1"), std::string::npos) << help.out;
}

// make's .DELETE_ON_ERROR: a failed prove leaves no proof.json, not even an
// older valid one.
TEST(Prove, AFailureLeavesNoOlderProof) {
  TempDir in, out;
  const fs::path proof = out / "proof.json", pub = out / "public.json";
  ASSERT_EQ(cuzk({"prove", kZkey, kWtns, proof, pub, "--backend", "cpu", "-q"}).exit_code, 0);
  ASSERT_TRUE(fs::exists(proof) && fs::exists(pub));
  const ProcessResult r = cuzk({"prove", kZkey, unsatisfied_witness(in), proof, pub, "--backend", "cpu"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("--r1cs"), std::string::npos) << "should point to --r1cs: " << r.err;
  EXPECT_FALSE(fs::exists(proof));
  EXPECT_FALSE(fs::exists(pub));
  EXPECT_TRUE(listing(out.path()).empty());
}

// A wrong command line is not a failed proof: the earlier proof stays until
// the arguments are valid (issue 35 item 1: a usage error deleted it).
TEST(Prove, AUsageErrorLeavesTheEarlierProof) {
  TempDir out;
  const fs::path proof = out / "proof.json", pub = out / "public.json";
  ASSERT_EQ(cuzk({"prove", kZkey, kWtns, proof, pub, "--backend", "cpu", "-q"}).exit_code, 0);
  const Bytes before = read_bytes(proof);
  // No GPU: "--backend cuda: no CUDA device"; a GPU: "--gpus: device 99 does not exist".
  EXPECT_EQ(cuzk({"prove", kZkey, kWtns, proof, pub, "--backend", "cuda", "--gpus", "99"}).exit_code, 2);
  // --circuit is for bellperson parameter files only.
  EXPECT_EQ(cuzk({"prove", kZkey, kWtns, proof, pub, "--circuit", "partition"}).exit_code, 2);
  EXPECT_EQ(read_bytes(proof), before);
  EXPECT_TRUE(fs::exists(pub));
}

// Removing earlier outputs never removes an input named in an output's place,
// whether its name or its content gives it away.
TEST(Prove, RefusesToReplaceAFileOfAnotherKind) {
  TempDir out;
  const fs::path key_copy = out / "circuit.zkey", disguised = out / "proof.json";
  fs::copy_file(kZkey, key_copy);
  fs::copy_file(kZkey, disguised);
  const ProcessResult by_name = cuzk({"prove", kZkey, kWtns, key_copy, out / "public.json", "--backend", "cpu"});
  EXPECT_EQ(by_name.exit_code, 2) << by_name.err;
  EXPECT_NE(by_name.err.find("a .zkey name for the json file"), std::string::npos) << by_name.err;
  const ProcessResult by_content = cuzk({"prove", kZkey, kWtns, disguised, out / "public.json", "--backend", "cpu"});
  EXPECT_EQ(by_content.exit_code, 2) << by_content.err;
  EXPECT_NE(by_content.err.find("exists and is a zkey file"), std::string::npos) << by_content.err;
  EXPECT_EQ(read_bytes(key_copy), read_bytes(kZkey));
  EXPECT_EQ(read_bytes(disguised), read_bytes(kZkey));
  EXPECT_EQ(listing(out.path()), (std::vector<std::string>{"circuit.zkey", "proof.json"}));
}

// JSON outputs are told apart by content: a proof replaces only a proof,
// public signals only public signals, a verification key only a verification
// key; a circuit's input.json, or any JSON cuzk did not write, never.
TEST(Prove, ReplacesOnlyJsonOfItsOwnKind) {
  TempDir out;
  const fs::path input = out / "input.json", vk = out / "vk.json", proof = out / "proof.json", pub = out / "public.json";
  write_bytes(input, Bytes{'{', '"', 'a', '"', ':', '"', '3', '"', '}', '\n'});
  fs::copy_file(fixture("bn128", "multiplier", "vk.json"), vk);
  const auto refused = [&](const std::vector<std::string>& args, const fs::path& kept, const std::string& why) {
    const Bytes before = read_bytes(kept);
    const ProcessResult r = cuzk(args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find(kept.string() + " exists and is " + why), std::string::npos) << r.err;
    EXPECT_EQ(read_bytes(kept), before) << kept;
  };
  refused({"prove", kZkey, kWtns, proof, input, "--backend", "cpu"}, input, "JSON that cuzk did not write");
  refused({"prove", kZkey, kWtns, vk, pub, "--backend", "cpu"}, vk,
          "a verification key: it is not replaced by a proof, even with --force");
  EXPECT_FALSE(fs::exists(proof));
  EXPECT_FALSE(fs::exists(pub));
  ASSERT_EQ(cuzk({"prove", kZkey, kWtns, proof, pub, "--backend", "cpu", "-q"}).exit_code, 0);
  refused({"export-vk", kZkey, proof}, proof, "a proof: it is not replaced by a verification key");
  refused({"export-vk", kZkey, input}, input, "JSON that cuzk did not write");
  // Its own kind is replaced: a proof by a proof, a verification key by one.
  ASSERT_EQ(cuzk({"prove", kZkey, kWtns, proof, pub, "--backend", "cpu", "-q"}).exit_code, 0);
  ASSERT_EQ(cuzk({"export-vk", kZkey, vk}).exit_code, 0);
  EXPECT_EQ(read_bytes(vk), read_bytes(fixture("bn128", "multiplier", "vk.json")));
}

TEST(Check, NamesTheFirstFailingConstraint) {
  TempDir in, out;
  const fs::path bad = unsatisfied_witness(in);
  const ProcessResult ok = cuzk({"check", kR1cs, kWtns});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_NE(ok.out.find("OK"), std::string::npos) << ok.out;

  const ProcessResult r = cuzk({"check", kR1cs, bad});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("constraint 250 "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(bad.string()), std::string::npos) << r.err;

  // prove --r1cs: the same error, before any proving, and no output.
  const ProcessResult p =
      cuzk({"prove", kZkey, bad, out / "proof.json", out / "public.json", "--backend", "cpu", "--r1cs", kR1cs});
  EXPECT_EQ(p.exit_code, 1) << p.err;
  EXPECT_NE(p.err.find("constraint 250 "), std::string::npos) << p.err;
  EXPECT_TRUE(listing(out.path()).empty());

  // A circuit that is not the key's is refused by name.
  const ProcessResult other = cuzk({"prove", kZkey, kWtns, out / "proof.json", out / "public.json", "--backend", "cpu",
                                    "--r1cs", fixture("bn128", "linear", "circuit.r1cs")});
  EXPECT_EQ(other.exit_code, 2) << other.err;
  EXPECT_NE(other.err.find("is not the circuit of"), std::string::npos) << other.err;
}

TEST(ProveBatch, MakesItsOutputFolderAndSpeaksOnlyOfWhatApplies) {
  TempDir in, out;
  fs::copy_file(kWtns, in / "one.wtns");
  const fs::path dir = out / "new" / "folder";
  const ProcessResult r = cuzk({"prove-batch", kZkey, in / "one.wtns", "--out", dir, "--backend", "cpu"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(listing(dir), (std::vector<std::string>{"one.proof.json", "one.public.json"}));
  EXPECT_NE(r.out.find("1 of 1 witness proved"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 worker;"), std::string::npos) << r.out;
  for (const char* absent : {"GPU", "upload", "lock", "1 workers", "1 synthesis threads"})
    EXPECT_EQ(r.out.find(absent), std::string::npos) << "\"" << absent << "\" in a CPU run's summary:\n" << r.out;

  // --r1cs fails the bad witness alone, naming its constraint.
  const fs::path bad = unsatisfied_witness(in);
  const ProcessResult b =
      cuzk({"prove-batch", kZkey, in / "one.wtns", bad, "--out", dir, "--backend", "cpu", "--r1cs", kR1cs, "-q"});
  EXPECT_EQ(b.exit_code, 1) << b.err;
  EXPECT_EQ(b.out, "");
  EXPECT_NE(b.err.find("constraint 250 "), std::string::npos) << b.err;
  EXPECT_EQ(listing(dir), (std::vector<std::string>{"one.proof.json", "one.public.json"}));
}

}  // namespace
}  // namespace cuzk::test
