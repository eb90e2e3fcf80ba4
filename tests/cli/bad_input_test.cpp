// Bad input to the cuzk program: every failure keeps the contract of docs/ARCHITECTURE.md
// "Interfaces" and src/cli/commands.hpp. The documented exit status (2 for
// missing, unreadable or malformed input, 1 for a failed write or a witness
// that does not satisfy the key), exactly one line "error: ..." on stderr that
// names the file at fault, nothing on stdout, no output or temporary file left
// behind, and never a crash (cuzk() fails the test on a signal or a timeout).
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

#include "cli_support.hpp"

namespace cuzk::test {
namespace {

constexpr int kFailed = 1;    // commands.hpp: the work failed
constexpr int kBadInput = 2;  // commands.hpp: an input is missing, unreadable or malformed

class BadInput : public ::testing::Test {
 protected:
  TempDir in;   // the damaged inputs
  TempDir out;  // where outputs would go; must look the same after a failure
  const fs::path proof = out / "proof.json", pub = out / "public.json";

  static fs::path good(const std::string& curve, const std::string& file) { return fixture(curve, "multiplier", file); }

  std::vector<std::string> prove(const fs::path& zkey, const fs::path& wtns) const {
    return {"prove", zkey, wtns, proof, pub};
  }

  // Runs cuzk and checks the failure contract; `named` are the paths the
  // message must contain, `text` a distinctive part of it.
  // `bound`: run by cuzk_bound_by_permissions, so that a read-only
  // directory is one for root too.
  void expect_failure(const std::vector<std::string>& args, int code, const std::vector<fs::path>& named,
                      const std::string& text = "", bool bound = false) const {
    std::string command = "cuzk";
    for (const auto& a : args) command += " " + a;
    SCOPED_TRACE(command);
    const auto before = listing(out.path());
    const ProcessResult r = bound ? cuzk_bound_by_permissions(args) : cuzk(args);
    EXPECT_EQ(r.exit_code, code) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(r.err.ends_with("\n")) << r.err;
    for (const auto& p : named) EXPECT_NE(r.err.find(p.string()), std::string::npos) << "should name " << p << ": " << r.err;
    EXPECT_NE(r.err.find(text), std::string::npos) << "expected \"" << text << "\" in: " << r.err;
    EXPECT_EQ(listing(out.path()), before) << "a failed command changed the output directory";
  }
};

// The io tests' container damage (empty, truncated at several points, random
// bytes, wrong magic and version, section sizes that lie, missing), applied to
// the key of every command that reads one.
TEST_F(BadInput, DamagedZkey) {
  for (const char* curve : kCurves) {
    for (const auto& c : container_cases(good(curve, "circuit.zkey"), "zkey")) {
      SCOPED_TRACE(std::string(curve) + " " + c.name);
      const fs::path zkey = in / (std::string(curve) + "_" + c.name + ".zkey");
      c.make(zkey);
      expect_failure(prove(zkey, good(curve, "witness.wtns")), kBadInput, {zkey}, c.expect);
      expect_failure({"export-vk", zkey, out / "vk.json"}, kBadInput, {zkey}, c.expect);
      // info picks the reader by the magic, so its wording differs for files
      // that do not start with "zkey".
      expect_failure({"info", zkey}, kBadInput, {zkey});
    }
  }
}

TEST_F(BadInput, DamagedWitness) {
  for (const char* curve : kCurves) {
    for (const auto& c : container_cases(good(curve, "witness.wtns"), "wtns")) {
      SCOPED_TRACE(std::string(curve) + " " + c.name);
      const fs::path wtns = in / (std::string(curve) + "_" + c.name + ".wtns");
      c.make(wtns);
      expect_failure(prove(good(curve, "circuit.zkey"), wtns), kBadInput, {wtns}, c.expect);
      expect_failure({"info", wtns}, kBadInput, {wtns});
    }
  }
}

TEST_F(BadInput, WitnessForAnotherKey) {
  const fs::path bn_key = good("bn128", "circuit.zkey"), bls_key = good("bls12381", "circuit.zkey");
  const fs::path bn_wtns = good("bn128", "witness.wtns"), bls_wtns = good("bls12381", "witness.wtns");
  expect_failure(prove(bn_key, bls_wtns), kBadInput, {bls_wtns, bn_key}, "is a bls12381 witness but");
  expect_failure(prove(bls_key, bn_wtns), kBadInput, {bn_wtns, bls_key}, "is a bn128 witness but");
  const fs::path other = fixture("bn128", "nopublic", "witness.wtns");
  expect_failure(prove(bn_key, other), kBadInput, {other, bn_key}, "Invalid witness length. Circuit: 254, witness: 103");
  // The arguments in the wrong order: the first file is no key.
  expect_failure(prove(bn_wtns, bn_key), kBadInput, {bn_wtns}, "wrong magic");
}

// A well-formed witness of the right length whose values break a constraint:
// the proof fails cuzk's own verification and must not be written.
TEST_F(BadInput, WitnessThatDoesNotSatisfyTheKey) {
  for (const char* curve : kCurves) {
    SCOPED_TRACE(curve);
    Container w = Container::load(good(curve, "witness.wtns"));
    w.section(2).data[32] ^= 1;  // signal 1, the output: now out != a * b
    const fs::path wtns = in / (std::string(curve) + "_unsatisfied.wtns");
    w.save(wtns);
    expect_failure(prove(good(curve, "circuit.zkey"), wtns), kFailed, {wtns}, "does not satisfy");
  }
}

// A point of the key off its curve, which a one-shot prove checks where the
// points are first used (by the host prover here; on the GPU where it proves
// there, cuda_cli_engine_test): the key reader's one-line error all the same.
TEST_F(BadInput, KeyPointOffItsCurve) {
  for (const char* curve : kCurves) {
    SCOPED_TRACE(curve);
    Container k = Container::load(good(curve, "circuit.zkey"));
    const size_t n8q = std::string(curve) == "bn128" ? 32 : 48;
    k.section(7).data[4 * n8q + 2 * n8q] ^= 1;  // B2 point 1's y
    const fs::path zkey = in / (std::string(curve) + "_b2_off_curve.zkey");
    k.save(zkey);
    expect_failure(prove(zkey, good(curve, "witness.wtns")), kBadInput, {zkey}, "section 7: B2 point 1 is not on the curve");
  }
}

TEST_F(BadInput, InputThatIsNotAFile) {
  const fs::path zkey = good("bn128", "circuit.zkey"), wtns = good("bn128", "witness.wtns");
  const fs::path dir = in / "a_directory";
  fs::create_directory(dir);
  expect_failure(prove(dir, wtns), kBadInput, {dir}, "not a regular file");
  expect_failure(prove(zkey, dir), kBadInput, {dir}, "not a regular file");
  expect_failure({"export-vk", dir, out / "vk.json"}, kBadInput, {dir});
  expect_failure({"info", dir}, kBadInput, {dir});
}

TEST_F(BadInput, OutputThatCannotBeWritten) {
  const fs::path zkey = good("bn128", "circuit.zkey"), wtns = good("bn128", "witness.wtns");
  const fs::path nowhere = out / "no" / "such" / "dir";
  // A file's folder that does not exist is refused before any work, naming
  // the folder (prove-batch makes the --out folder it is given instead).
  const std::string no_folder = "the folder " + nowhere.string() + " does not exist";
  expect_failure({"prove", zkey, wtns, nowhere / "proof.json", pub}, kBadInput, {nowhere / "proof.json"}, no_folder);
  expect_failure({"prove", zkey, wtns, proof, nowhere / "public.json"}, kBadInput, {nowhere / "public.json"}, no_folder);
  const fs::path taken = out / "taken";  // a directory where public.json should go
  fs::create_directory(taken);
  expect_failure({"prove", zkey, wtns, proof, taken}, kBadInput, {taken}, "is a directory, not a file to write");
  expect_failure({"export-vk", zkey, nowhere / "vk.json"}, kBadInput, {nowhere / "vk.json"}, no_folder);
  expect_failure({"witness", "--circuit", "partition", nowhere / "w.wtns"}, kBadInput, {}, no_folder);
}

// root would write into a read-only directory regardless of its mode, so as
// root (CI) cuzk runs without the capabilities that override it.
TEST_F(BadInput, OutputInAReadOnlyDirectory) {
  const fs::path zkey = good("bn128", "circuit.zkey"), wtns = good("bn128", "witness.wtns");
  const fs::path ro = out / "read-only";
  fs::create_directory(ro);
  fs::permissions(ro, fs::perms::owner_read | fs::perms::owner_exec);
  const bool bound = true;
  expect_failure({"prove", zkey, wtns, ro / "proof.json", ro / "public.json"}, kFailed, {ro / "proof.json"},
                 "Permission denied", bound);
  expect_failure({"prove", zkey, wtns, proof, ro / "public.json"}, kFailed, {ro / "public.json"}, "Permission denied",
                 bound);
  expect_failure({"export-vk", zkey, ro / "vk.json"}, kFailed, {ro / "vk.json"}, "Permission denied", bound);
  EXPECT_TRUE(fs::is_empty(ro));
  fs::permissions(ro, fs::perms::owner_all);  // so that TempDir can remove it
}

// verify's three JSON inputs, each damaged in turn while the other two stay
// valid; info must reject the same files.
TEST_F(BadInput, MalformedJsonForVerify) {
  const std::string roles[] = {"vk.json", "public.json", "proof.json"};
  struct Damage {
    std::string name;
    std::function<void(const fs::path& good, const fs::path& bad)> make;
    std::string expect;  // from verify; info words some of these its own way
  };
  const auto text = [](std::string s) {
    return [s](const fs::path&, const fs::path& bad) { write_bytes(bad, Bytes(s.begin(), s.end())); };
  };
  const std::vector<Damage> damages = {
      {"missing", [](const fs::path&, const fs::path&) {}, "cannot open"},
      {"empty", text(""), "file is empty"},
      {"open_brace", text("{"), "invalid JSON"},
      {"not_json", text("not json"), "invalid JSON"},
      // An array is public.json's shape: in the other positions it is named
      // as a file in the wrong place.
      {"wrong_type", text("[\"1\", {}]"), "not a"},
      {"cut_in_half", [](const fs::path& g, const fs::path& bad) {
         const Bytes b = read_bytes(g);
         write_bytes(bad, Bytes(b.begin(), b.begin() + b.size() / 2));
       }, "invalid JSON"},
      {"number_too_big", [](const fs::path& g, const fs::path& bad) {
         // A field element with over 99 digits: above every modulus.
         const Bytes b = read_bytes(g);
         std::string s(b.begin(), b.end());
         const size_t at = s.find("\"1") + 1;
         s.insert(at, std::string(99, '9'));
         write_bytes(bad, Bytes(s.begin(), s.end()));
       }, "value is not below"},
  };
  for (size_t at = 0; at < 3; ++at) {
    for (const auto& d : damages) {
      SCOPED_TRACE(roles[at] + " " + d.name);
      fs::path files[3];
      for (size_t i = 0; i < 3; ++i) files[i] = good("bn128", roles[i]);
      const fs::path bad = in / (d.name + "_" + roles[at]);
      d.make(files[at], bad);
      files[at] = bad;
      const bool misplaced_array = d.name == "wrong_type" && at != 1;
      expect_failure({"verify", files[0], files[1], files[2]}, kBadInput, {bad},
                     misplaced_array ? "in this position" : d.expect);
      expect_failure({"info", bad}, kBadInput, {bad});
    }
  }
}

// verify's files in the wrong positions are named as such.
TEST_F(BadInput, VerifyArgumentsInTheWrongOrder) {
  const fs::path vk = good("bn128", "vk.json"), pub = good("bn128", "public.json"), prf = good("bn128", "proof.json");
  expect_failure({"verify", prf, pub, vk}, kBadInput, {prf}, "holds a proof, but a verification key goes in this position");
  expect_failure({"verify", vk, prf, pub}, kBadInput, {prf}, "holds a proof, but public signals go");
  expect_failure({"verify", pub, vk, prf}, kBadInput, {pub}, "holds public signals, but a verification key goes");
}

TEST_F(BadInput, MissingFileSaysWhy) {
  const fs::path nothere = in / "nothere.zkey";
  expect_failure({"info", nothere}, kBadInput, {nothere}, "cannot open: No such file or directory");
}

TEST_F(BadInput, ProofForTheOtherCurve) {
  const fs::path bn_proof = good("bn128", "proof.json"), bls_proof = good("bls12381", "proof.json");
  expect_failure({"verify", good("bn128", "vk.json"), good("bn128", "public.json"), bls_proof}, kBadInput, {bls_proof},
                 "the file is for bls12381, not bn128");
  expect_failure({"verify", good("bls12381", "vk.json"), good("bls12381", "public.json"), bn_proof}, kBadInput,
                 {bn_proof}, "the file is for bn128, not bls12381");
}

// Issue 16: `cuzk setup merkle.r1cs` once took the circuit for the output and
// wrote a key over it. A lone circuit is refused, by its name or its magic,
// and the file stays as it was.
TEST_F(BadInput, SetupWithALoneR1cs) {
  const Bytes circuit = read_bytes(good("bn128", "circuit.r1cs"));
  const fs::path named = out / "merkle.r1cs", unnamed = out / "merkle.bin";
  write_bytes(named, circuit);
  write_bytes(unnamed, circuit);
  for (const fs::path& r1cs : {named, unnamed}) {
    expect_failure({"setup", r1cs}, kBadInput, {r1cs}, "cuzk setup " + r1cs.string() + " <out.zkey>");
    expect_failure({"setup", r1cs, "--circuit", "partition"}, kBadInput, {r1cs}, "<out.zkey>");
    EXPECT_EQ(read_bytes(r1cs), circuit);
  }
  // Without an .r1cs the native circuit must be named: no built-in default.
  expect_failure({"setup", out / "p.zkey"}, kBadInput, {}, "setup needs a circuit");
}

// An output over an existing file: never over another kind of file (by its
// name or its magic), even with --force; over one of the same kind only with
// --force. The existing file is left as it was.
TEST_F(BadInput, SetupOrWitnessOverAnExistingFile) {
  const fs::path r1cs = good("bn128", "circuit.r1cs");
  const Bytes circuit = read_bytes(r1cs), witness = read_bytes(good("bn128", "witness.wtns"));
  const Bytes key = read_bytes(good("bn128", "circuit.zkey")), text = {'n', 'o', 't', 'e', 's', '\n'};
  struct Case {
    std::string name;
    Bytes content;
    std::vector<std::string> args;  // the command, with the file's path appended
    std::vector<std::string> tail;  // after it
    std::string expect;
  };
  const std::vector<std::string> setup = {"setup", r1cs}, native = {"witness", "--circuit", "partition"};
  const std::vector<Case> cases = {
      {"circuit.r1cs", circuit, setup, {"--force"}, "an .r1cs name for the zkey"},
      {"witness.zkey", witness, setup, {"--force"}, "is a wtns file: it is not replaced by a zkey file, even with --force"},
      {"notes.zkey", text, setup, {"--force"}, "is not a zkey file"},
      {"old.zkey", key, setup, {}, "exists (--force replaces it)"},
      {"vk.json", key, {"setup", r1cs, (out / "new.zkey").string(), "--vk"}, {"--force"}, "is a zkey file"},
      {"circuit.wtns", circuit, native, {"--force"}, "is an r1cs file"},
      {"old.wtns", witness, native, {}, "exists (--force replaces it)"},
      {"key.bin", key, native, {"--force"}, "is a zkey file"},
  };
  for (const auto& c : cases) {
    const fs::path target = out / c.name;
    write_bytes(target, c.content);
    std::vector<std::string> args = c.args;
    args.push_back(target);
    args.insert(args.end(), c.tail.begin(), c.tail.end());
    expect_failure(args, kBadInput, {target}, c.expect);
    EXPECT_EQ(read_bytes(target), c.content) << c.name;
    fs::remove(target);
  }
}

// --force replaces a key with a new one.
TEST_F(BadInput, SetupForceReplacesAKey) {
  const fs::path r1cs = good("bn128", "circuit.r1cs"), zkey = out / "c.zkey";
  ASSERT_EQ(cuzk({"setup", r1cs, zkey}).exit_code, 0);
  const Bytes first = read_bytes(zkey);
  const ProcessResult again = cuzk({"setup", r1cs, zkey, "--force"});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(read_bytes(zkey), first) << "a fresh toxic waste gives a different key";
}

// The options of a native circuit beside an .r1cs, which fixes the circuit,
// its curve and its size; and setup takes no witness seed.
TEST_F(BadInput, SetupWithConflictingOptions) {
  const fs::path r1cs = good("bn128", "circuit.r1cs"), zkey = out / "c.zkey";
  expect_failure({"setup", r1cs, zkey, "--curve", "bls12_381"}, kBadInput, {r1cs},
                 "--curve conflicts with " + r1cs.string() + ", whose curve is fixed by the file (bn128)");
  expect_failure({"setup", r1cs, zkey, "--constraints", "4096"}, kBadInput, {r1cs},
                 "--constraints conflicts with " + r1cs.string() + ", whose size is fixed by the file");
  expect_failure({"setup", r1cs, zkey, "--circuit", "partition"}, kBadInput, {r1cs}, "--circuit conflicts with");
  expect_failure({"setup", "--circuit", "partition", zkey, "--seed", "3"}, kBadInput, {}, "--seed");
}

TEST(Cli, HelpDocumentsEveryCommand) {
  const std::pair<std::vector<std::string>, std::vector<std::string>> pages[] = {
      {{"--help"}, {"prove", "verify", "export-vk", "info"}},
      {{"prove", "--help"}, {"zkey", "wtns", "proof", "public", "--backend", "--threads", "--gpus"}},
      {{"bench", "--help"}, {"prove", "ntt", "msm", "pipeline"}},
      {{"--help"}, {"prove-batch"}},
      {{"--help"}, {"convert-proof"}},
      {{"prove", "--help"}, {"--format", "bellperson", "--circuit", "--constraints", "key.params"}},
      {{"setup", "--help"}, {"--format", "bellperson"}},
      {{"convert-proof", "--help"}, {"key", "proof", "public", "--out", "snarkjs groth16 verify"}},
      {{"bench", "prove", "--help"}, {"--format"}},
      {{"prove-batch", "--help"},
       {"--out", "--synthesis-threads", "--workers", "--workers-per-gpu", "--abc", "--pageable", "--key-budget-mib",
        "--trace", "--gpus"}},
      {{"bench", "pipeline", "--help"},
       {"--partitions", "--jobs", "--warmup", "--compare", "--workers-per-gpu", "--json", "--zkey"}},
      {{"verify", "--help"}, {"vk", "public", "proof"}},
      {{"export-vk", "--help"}, {"zkey", "vk"}},
      {{"info", "--help"}, {"file"}},
      {{"setup", "--help"},
       {"<circuit.r1cs> <out.zkey>", "--circuit C", "--vk", "--force", "--curve", "--constraints", "conflict",
        "CSPRNG"}},
      {{"witness", "--help"}, {"--circuit", "--seed", "Which witness", "--force"}},
      {{"bench", "prove", "--help"}, {"--seed", "Which witness"}},
      {{"bench", "pipeline", "--help"}, {"--seed", "S+1"}},
  };
  for (const auto& [args, words] : pages) {
    SCOPED_TRACE(args[0]);
    const ProcessResult r = cuzk(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    for (const auto& w : words) EXPECT_NE(r.out.find(w), std::string::npos) << "no \"" << w << "\" in:\n" << r.out;
  }
  // The key does not depend on a witness seed: setup takes none.
  EXPECT_EQ(cuzk({"setup", "--help"}).out.find("--seed"), std::string::npos);
}

TEST_F(BadInput, UsageErrors) {
  const fs::path zkey = good("bn128", "circuit.zkey"), wtns = good("bn128", "witness.wtns");
  expect_failure({"frobnicate"}, kBadInput, {}, "unknown command \"frobnicate\"; the commands are prove, ");
  expect_failure({"prove", zkey, wtns, proof}, kBadInput, {}, "public");
  // In cuzk's words: the option, the value, what is accepted; the nearest
  // option for a typo.
  expect_failure({"prove", zkey, wtns, proof, pub, "--backend", "gpu"}, kBadInput, {},
                 "--backend: \"gpu\" is not one of auto, cpu, cuda");
  expect_failure({"prove", zkey, wtns, proof, pub, "--threads", "-1"}, kBadInput, {},
                 "--threads: -1 is out of range (0 to 4096)");
  expect_failure({"prove", zkey, wtns, proof, pub, "--threads", "two"}, kBadInput, {},
                 "--threads: \"two\" is not a whole number");
  expect_failure({"prove", zkey, wtns, proof, pub, "--thread", "2"}, kBadInput, {},
                 "cuzk prove: unknown option --thread (did you mean --threads?)");
  expect_failure({"prove", zkey, wtns, proof, pub, "--frobnicate"}, kBadInput, {},
                 "cuzk prove: unknown option --frobnicate (cuzk prove --help lists them)");
  expect_failure({"prove", zkey, wtns, proof, pub, "extra"}, kBadInput, {}, "cuzk prove: unexpected argument \"extra\"");
  expect_failure({"prove", zkey, wtns, proof, pub, "--format", "SNARKJS"}, kBadInput, {},
                 "--format: \"SNARKJS\" is not one of snarkjs, bellperson");
  // No GPU (CI): "--backend cuda: no CUDA device"; a GPU machine: "--gpus:
  // device 99 does not exist". Either way a usage error, and nothing written.
  expect_failure({"prove", zkey, wtns, proof, pub, "--backend", "cuda", "--gpus", "99"}, kBadInput, {});
  expect_failure({"bench", "msm", "--backend", "cuda", "--gpus", "0,x"}, kBadInput, {});
  expect_failure({"bench", "prove", "--backend", "cpu", "--setup-on", "gpu"}, kBadInput, {},
                 "--setup-on gpu needs the cuda backend");
}

// cuzk alone: a short usage on stderr (every command, one line each), exit 2.
TEST(Cli, AlonePrintsAShortUsage) {
  const ProcessResult r = cuzk({});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.rfind("usage: cuzk <command>", 0), 0u) << r.err;
  for (const char* command : {"prove", "verify", "setup", "prove-batch", "bench"})
    EXPECT_NE(r.err.find(std::string("\n  ") + command + " "), std::string::npos) << command << " missing: " << r.err;
  EXPECT_LT(std::count(r.err.begin(), r.err.end(), '\n'), 30) << "not short: " << r.err;
}

// bellperson's files: parameter files (made here by setup), proofs and the
// converter's inputs, each broken in turn, on every command that reads them.
TEST_F(BadInput, BellpersonFiles) {
  const fs::path r1cs = good("bls12381", "circuit.r1cs"), wtns = good("bls12381", "witness.wtns");
  const fs::path params = in / "key.params";
  ASSERT_EQ(cuzk({"setup", "--format", "bellperson", r1cs, params}).exit_code, 0);
  const fs::path bin = out / "proof.bin";
  const std::vector<std::string> params_prove = {"prove", params, wtns, bin, pub, "--r1cs", r1cs, "--format", "bellperson"};

  // The ZCash encoding exists for BLS12-381 alone.
  expect_failure({"setup", "--format", "bellperson", good("bn128", "circuit.r1cs"), out / "k.params"}, kBadInput, {},
                 "bls12381 only");
  expect_failure({"prove", good("bn128", "circuit.zkey"), good("bn128", "witness.wtns"), bin, pub, "--format",
                  "bellperson"},
                 kBadInput, {}, "bls12381 only");
  // A parameter file holds no constraints; another circuit does not fit it.
  expect_failure({"prove", params, wtns, bin, pub, "--format", "bellperson"}, kBadInput, {params}, "--r1cs");
  expect_failure({"prove", params, wtns, bin, pub, "--r1cs", r1cs, "--circuit", "partition"}, kBadInput, {params},
                 "not both");
  expect_failure({"prove", good("bls12381", "circuit.zkey"), wtns, bin, pub, "--circuit", "partition"}, kBadInput,
                 {good("bls12381", "circuit.zkey")}, "--circuit is for bellperson parameter files");
  const fs::path linear = fixture("bls12381", "linear", "circuit.r1cs");
  expect_failure({"prove", params, fixture("bls12381", "linear", "witness.wtns"), bin, pub, "--r1cs", linear},
                 kBadInput, {params, linear}, "points");
  expect_failure({"prove", params, wtns, bin, pub, "--r1cs", good("bn128", "circuit.r1cs")}, kBadInput,
                 {good("bn128", "circuit.r1cs")}, "bls12381 only");

  // Damaged parameter files: every reader names the file and the offset.
  const Bytes whole = read_bytes(params);
  struct Damage {
    const char* name;
    Bytes bytes;
    const char* expect;
  };
  Bytes lying = whole;
  lying[3 * 96 + 3 * 192 + 3] += 1;  // IC's count, one more than there are
  Bytes g2_for_g1 = whole;  // beta_g2's first 96 bytes where alpha_g1 goes
  std::copy(whole.begin() + 192, whole.begin() + 288, g2_for_g1.begin());
  // alpha_g1's x opening with what JSON may open with, as a random key's does
  // about once in a thousand, then a byte no JSON text holds: still read as
  // parameters, not as JSON.
  Bytes text_like = whole;
  const uint8_t json_like[] = {'\r', '[', 0};
  std::copy(std::begin(json_like), std::end(json_like), text_like.begin());
  const Damage damages[] = {
      {"truncated", Bytes(whole.begin(), whole.begin() + (long)whole.size() / 2), "offset"},
      {"head_only", Bytes(whole.begin(), whole.begin() + 500), "truncated"},
      {"lying_count", lying, "offset"},
      {"g2_for_g1", g2_for_g1, "offset 0: alpha_g1"},
      {"text_like", text_like, "offset 0: alpha_g1"},
      {"random", Bytes(4096, 0x5a), "offset "},
  };
  for (const auto& d : damages) {
    SCOPED_TRACE(d.name);
    const fs::path bad = in / (std::string(d.name) + ".params");
    write_bytes(bad, d.bytes);
    expect_failure({"info", bad}, kBadInput, {bad}, d.expect);
    expect_failure({"prove", bad, wtns, bin, pub, "--r1cs", r1cs, "--format", "bellperson"}, kBadInput, {bad},
                   d.expect);
    if (std::string(d.name) != "truncated")  // its head, the verifying key, is whole
      expect_failure({"export-vk", bad, out / "vk.json"}, kBadInput, {bad}, d.expect);
  }

  // convert-proof's three inputs.
  ASSERT_EQ(cuzk(params_prove).exit_code, 0);
  const fs::path good_proof = in / "good.bin", good_public = in / "public.json";
  fs::rename(bin, good_proof);
  fs::rename(pub, good_public);
  const Bytes proof_bytes = read_bytes(good_proof);
  const auto convert = [&](const fs::path& key, const fs::path& prf, const fs::path& publics) {
    return std::vector<std::string>{"convert-proof", key, prf, publics, "--out", out / "converted"};
  };
  const fs::path short_proof = in / "short.bin", random_proof = in / "random.bin", extra = in / "extra.json";
  write_bytes(short_proof, Bytes(proof_bytes.begin(), proof_bytes.begin() + 100));
  write_bytes(random_proof, Bytes(192, 0x5a));
  const std::string three = "[\"1\", \"2\", \"3\"]";
  write_bytes(extra, Bytes(three.begin(), three.end()));
  expect_failure(convert(params, short_proof, good_public), kBadInput, {short_proof}, "100 bytes");
  expect_failure(convert(params, random_proof, good_public), kBadInput, {random_proof}, "offset 0: A");
  expect_failure(convert(params, good_proof, extra), kBadInput, {extra}, "3 public inputs; the key");
  expect_failure(convert(good("bls12381", "circuit.zkey"), good_proof, good_public), kBadInput,
                 {good("bls12381", "circuit.zkey")}, "not a bellperson");
  expect_failure(convert(in / "random.params", good_proof, good_public), kBadInput, {in / "random.params"}, "offset 0");
  expect_failure({"info", random_proof}, kBadInput, {random_proof}, "offset 0: A");
}

}  // namespace
}  // namespace cuzk::test
