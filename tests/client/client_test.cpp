// cuzk as a client of a real cuzkd (CPU backend, Unix socket in a temporary
// directory; daemon_support.hpp): every `cuzk client` verb, prove and
// prove-batch with --daemon, the Python example client, and the errors: a
// wrong key id (exit 2, the daemon's message), no daemon at the address (exit
// 1, one line, no files). Proofs are checked by `snarkjs groth16 verify`.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <regex>

#include "../daemon/daemon_support.hpp"

namespace cuzk::test {
namespace {

// A daemon named by the developer's shell would take the local runs these
// tests compare with; each test names its daemon itself.
const bool kNoDaemonFromTheShell = [] {
  ::unsetenv("CUZK_DAEMON");
  ::unsetenv("CUZK_DAEMON_TLS_CA");
  return true;
}();

// An environment variable set for a scope (the processes started in it inherit it).
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) { ::setenv(name, value.c_str(), 1); }
  ~ScopedEnv() { ::unsetenv(name_); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
};

size_t lines(const std::string& text) { return (size_t)std::count(text.begin(), text.end(), '\n'); }

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// One "error: ..." line, and nothing else on stderr.
void expect_one_error_line(const ProcessResult& r, const std::string& part) {
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
  EXPECT_TRUE(contains(r.err, part)) << "'" << part << "' not in: " << r.err;
}

void expect_snarkjs_accepts(const fs::path& vk, const fs::path& pub, const fs::path& proof) {
  const ProcessResult s = snarkjs({"groth16", "verify", vk, pub, proof});
  EXPECT_TRUE(contains(s.out, "OK")) << proof << ": " << s.out << s.err;
}

nlohmann::json read_json(const fs::path& p) {
  const Bytes b = read_bytes(p);
  return nlohmann::json::parse(b.begin(), b.end());
}

// A running cuzkd and the address cuzk reaches it at.
struct Served {
  explicit Served(const std::string& toml = "") : daemon(dir.path(), toml) {}
  TempDir dir;
  Daemon daemon;
  std::string address = "unix://" + daemon.socket().string();

  // cuzk ARGS --daemon ADDRESS
  ProcessResult cuzk_at(std::vector<std::string> args) const {
    args.insert(args.end(), {"--daemon", address});
    return cuzk(args);
  }
  nlohmann::json status() const {
    const ProcessResult r = cuzk_at({"client", "status", "--json"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return nlohmann::json::parse(r.out);
  }
};

TEST(Client, PreloadAndProveGiveProofsSnarkjsAccepts) {
  Served served;
  for (const char* curve : kCurves) {
    SCOPED_TRACE(curve);
    TempDir out;
    const std::string id = std::string("multiplier-") + curve;
    // bn128's key by path (read on the daemon's host), bls12381's as bytes.
    const bool bytes = std::string(curve) == "bls12381";
    std::vector<std::string> preload{"client", "preload", fixture(curve, "multiplier", "circuit.zkey"), "--id", id};
    if (bytes) preload.push_back("--bytes");
    const ProcessResult p = served.cuzk_at(preload);
    ASSERT_EQ(p.exit_code, 0) << p.err;
    EXPECT_TRUE(contains(p.out, "key " + id + ": " + curve + ", 254 variables, 2 public, domain 2^8")) << p.out;

    const fs::path proof = out / "proof.json", pub = out / "public.json";
    const ProcessResult r =
        served.cuzk_at({"client", "prove", id, fixture(curve, "multiplier", "witness.wtns"), proof, pub});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "wrote " + proof.string() + " and " + pub.string())) << r.out;
    EXPECT_EQ(read_json(pub), read_json(fixture(curve, "multiplier", "public.json")));
    EXPECT_EQ(read_json(proof).at("curve"), curve);
    expect_snarkjs_accepts(fixture(curve, "multiplier", "vk.json"), pub, proof);

    // --quiet: nothing on stdout, the same files.
    const ProcessResult q =
        served.cuzk_at({"client", "prove", id, fixture(curve, "multiplier", "witness.wtns"), proof, pub, "-q"});
    EXPECT_EQ(q.exit_code, 0) << q.err;
    EXPECT_EQ(q.out, "");
    EXPECT_EQ(cuzk({"verify", fixture(curve, "multiplier", "vk.json"), pub, proof}).exit_code, 0);
  }
  const auto keys = served.status().at("keys");
  EXPECT_EQ(keys.size(), 2u) << keys;

  // evict: the key goes; a second evict finds none (exit 2).
  const ProcessResult e = served.cuzk_at({"client", "evict", "multiplier-bn128"});
  EXPECT_EQ(e.exit_code, 0) << e.err;
  EXPECT_EQ(served.status().at("keys").size(), 1u);
  const ProcessResult again = served.cuzk_at({"client", "evict", "multiplier-bn128"});
  EXPECT_EQ(again.exit_code, 2);
  expect_one_error_line(again, "multiplier-bn128");
}

TEST(Client, ProveWithDaemonVerifiesLikeALocalProofAndReusesTheKey) {
  Served served;
  TempDir out;
  const fs::path zkey = fixture("bn128", "multiplier", "circuit.zkey"), vk = fixture("bn128", "multiplier", "vk.json");
  const fs::path wtns = fixture("bn128", "multiplier", "witness.wtns");
  const ProcessResult local = cuzk({"prove", zkey, wtns, out / "local.proof.json", out / "local.public.json",
                                    "--backend", "cpu", "--quiet"});
  ASSERT_EQ(local.exit_code, 0) << local.err;

  const ProcessResult first = served.cuzk_at({"prove", zkey, wtns, out / "proof.json", out / "public.json"});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_TRUE(contains(first.out, "cuzk prove: wrote " + (out / "proof.json").string())) << first.out;
  EXPECT_TRUE(contains(first.out, "(bn128 proof, verified) with cuzkd at " + served.address)) << first.out;
  EXPECT_TRUE(contains(first.out, "key loaded now")) << first.out;
  // The same public signals as the local proof, and a proof both verifiers accept.
  EXPECT_EQ(read_json(out / "public.json"), read_json(out / "local.public.json"));
  EXPECT_EQ(cuzk({"verify", vk, out / "public.json", out / "proof.json"}).exit_code, 0);
  expect_snarkjs_accepts(vk, out / "public.json", out / "proof.json");

  // The second run, through CUZK_DAEMON, finds the key resident.
  ::setenv("CUZK_DAEMON", served.address.c_str(), 1);
  const ProcessResult second = cuzk({"prove", zkey, wtns, out / "proof.json", out / "public.json"});
  ::unsetenv("CUZK_DAEMON");
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_TRUE(contains(second.out, "key already resident")) << second.out;
  expect_snarkjs_accepts(vk, out / "public.json", out / "proof.json");
  const auto keys = served.status().at("keys");
  ASSERT_EQ(keys.size(), 1u) << keys;
  EXPECT_EQ(keys[0].at("id").get<std::string>().rfind(fs::absolute(zkey).lexically_normal().string() + "@", 0), 0u)
      << keys;

  // What only a local run chooses is refused beside a daemon, before any
  // work: a usage error, which leaves the earlier proof where it was.
  const ProcessResult backend =
      served.cuzk_at({"prove", zkey, wtns, out / "proof.json", out / "public.json", "--backend", "cpu"});
  EXPECT_EQ(backend.exit_code, 2);
  expect_one_error_line(backend, "--backend is cuzkd's choice");
  EXPECT_TRUE(fs::exists(out / "proof.json"));

  // A witness of another circuit: the daemon's refusal, naming the file; no files.
  const fs::path other = fixture("bn128", "linear", "witness.wtns");
  const ProcessResult bad = served.cuzk_at({"prove", zkey, other, out / "proof.json", out / "public.json"});
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  expect_one_error_line(bad, other.string());
  EXPECT_EQ(listing(out.path()), (std::vector<std::string>{"local.proof.json", "local.public.json"}));
}

// One key per content: a prove --daemon of a file whose contents a client
// preloaded (here a copy, at another path) proves with that key, and a
// second preload under another id is answered with it too.
TEST(Client, APreloadedKeyIsTheOneProveWithDaemonUses) {
  Served served;
  TempDir out;
  const fs::path zkey = out / "copy.zkey", wtns = fixture("bn128", "multiplier", "witness.wtns");
  fs::copy_file(fixture("bn128", "multiplier", "circuit.zkey"), zkey);
  const ProcessResult preload = served.cuzk_at({"client", "preload", fixture("bn128", "multiplier", "circuit.zkey")});
  ASSERT_EQ(preload.exit_code, 0) << preload.err;
  const ProcessResult r = served.cuzk_at({"prove", zkey, wtns, out / "proof.json", out / "public.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "key already resident")) << r.out;
  expect_snarkjs_accepts(fixture("bn128", "multiplier", "vk.json"), out / "public.json", out / "proof.json");
  const ProcessResult again = served.cuzk_at({"client", "preload", zkey, "--id", "another", "--bytes"});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_TRUE(contains(again.out, "key circuit:")) << again.out;
  const auto keys = served.status().at("keys");
  ASSERT_EQ(keys.size(), 1u) << keys;
  EXPECT_EQ(keys[0].at("id"), "circuit");
}

TEST(Client, ProveBatchWithDaemonFailsABadWitnessAlone) {
  Served served;
  for (const char* curve : kCurves) {
    SCOPED_TRACE(curve);
    TempDir in, out;
    const fs::path zkey = fixture(curve, "multiplier", "circuit.zkey");
    write_mixed_witnesses(in.path(), curve);

    const ProcessResult r =
        served.cuzk_at({"prove-batch", zkey, in / "first.wtns", in / "other_circuit.wtns", in / "second.wtns",
                        in / "truncated.wtns", in / "missing.wtns", "--out", out.path()});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_EQ(lines(r.err), 3u) << r.err;
    EXPECT_TRUE(contains(r.err, "error: " + (in / "other_circuit.wtns").string())) << r.err;
    EXPECT_TRUE(contains(r.err, "error: " + (in / "truncated.wtns").string())) << r.err;
    EXPECT_TRUE(contains(r.err, "error: " + (in / "missing.wtns").string() + ": cannot open")) << r.err;
    EXPECT_TRUE(contains(r.out, "2 of 5 witnesses proved and verified, in " + out.path().string())) << r.out;
    EXPECT_TRUE(contains(r.out, "median ms")) << r.out;
    EXPECT_EQ(listing(out.path()), (std::vector<std::string>{"first.proof.json", "first.public.json",
                                                            "second.proof.json", "second.public.json"}));
    for (const char* name : {"first", "second"})
      expect_snarkjs_accepts(fixture(curve, "multiplier", "vk.json"), out / (std::string(name) + ".public.json"),
                             out / (std::string(name) + ".proof.json"));
  }
}

// More witnesses than prove-batch keeps in flight (64): the oldest jobs are
// awaited while later ones are submitted, and every witness gets its proof.
TEST(Client, ProveBatchWithDaemonBeyondItsWindow) {
  Served served;
  TempDir in, out;
  std::vector<std::string> args{"prove-batch", fixture("bn128", "multiplier", "circuit.zkey")};
  constexpr int kWitnesses = 70;
  for (int i = 0; i < kWitnesses; ++i) {
    fs::path w = in / "w";
    w += std::to_string(i) + ".wtns";
    fs::copy_file(fixture("bn128", "multiplier", "witness.wtns"), w);
    args.push_back(w);
  }
  args.insert(args.end(), {"--out", out.path(), "--quiet"});
  const ProcessResult r = served.cuzk_at(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(listing(out.path()).size(), 2u * kWitnesses);
  EXPECT_EQ(read_json(out / "w69.public.json"), read_json(fixture("bn128", "multiplier", "public.json")));
  EXPECT_EQ(cuzk({"verify", fixture("bn128", "multiplier", "vk.json"), out / "w69.public.json", out / "w69.proof.json"})
                .exit_code,
            0);
  EXPECT_TRUE(served.status().at("jobs").empty());  // every job awaited
}

TEST(Client, SubmitAwaitStatusAndCancel) {
  Served served;
  TempDir out;
  const fs::path wtns = fixture("bn128", "multiplier", "witness.wtns");
  ASSERT_EQ(served.cuzk_at({"client", "preload", fixture("bn128", "multiplier", "circuit.zkey")}).exit_code, 0);

  // submit prints the job's id alone; status lists the job with its label.
  const ProcessResult s = served.cuzk_at(
      {"client", "submit", "circuit", wtns, wtns, wtns, "--label", "nightly-batch", "--priority", "3"});
  ASSERT_EQ(s.exit_code, 0) << s.err;
  const std::string job = s.out.substr(0, s.out.find('\n'));
  ASSERT_FALSE(job.empty());
  EXPECT_EQ(job.find_first_not_of("0123456789"), std::string::npos) << s.out;
  const ProcessResult table = served.cuzk_at({"client", "status"});
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_TRUE(contains(table.out, "cuzkd at " + served.address)) << table.out;
  EXPECT_TRUE(contains(table.out, "cpu backend")) << table.out;
  EXPECT_TRUE(contains(table.out, "nightly-batch")) << table.out;  // done but not yet awaited
  EXPECT_TRUE(contains(table.out, "2^8")) << table.out;
  bool listed = false;
  const auto status = served.status();
  for (const auto& j : status.at("jobs"))
    if (j.at("job_id") == job) {
      listed = true;
      EXPECT_EQ(j.at("label"), "nightly-batch");
      EXPECT_EQ(j.at("priority"), 3);
      EXPECT_EQ(j.at("partitions"), "3");  // uint64 fields are strings in proto JSON
    }
  EXPECT_TRUE(listed);

  // await --out: the three proofs, named by position.
  const ProcessResult a = served.cuzk_at({"client", "await", job, "--out", out / "job"});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_TRUE(contains(a.out, "3 of 3 partitions proved and verified")) << a.out;
  EXPECT_EQ(listing(out / "job"),
            (std::vector<std::string>{"partition-0.proof.json", "partition-0.public.json", "partition-1.proof.json",
                                      "partition-1.public.json", "partition-2.proof.json",
                                      "partition-2.public.json"}));
  expect_snarkjs_accepts(fixture("bn128", "multiplier", "vk.json"), out / "job" / "partition-2.public.json",
                         out / "job" / "partition-2.proof.json");
  // The outcome was handed over: a second await, and a cancel, find no job.
  const ProcessResult again = served.cuzk_at({"client", "await", job});
  EXPECT_EQ(again.exit_code, 2);
  expect_one_error_line(again, job);
  const ProcessResult late = served.cuzk_at({"client", "cancel", job});
  EXPECT_EQ(late.exit_code, 2);
  expect_one_error_line(late, "no job " + job);

  // await without --out prints the result as JSON.
  const ProcessResult s2 = served.cuzk_at({"client", "submit", "circuit", wtns});
  ASSERT_EQ(s2.exit_code, 0) << s2.err;
  const ProcessResult j = served.cuzk_at({"client", "await", s2.out.substr(0, s2.out.find('\n'))});
  ASSERT_EQ(j.exit_code, 0) << j.err;
  const auto result = nlohmann::json::parse(j.out);
  EXPECT_EQ(result.at("key_id"), "circuit");
  ASSERT_EQ(result.at("partitions").size(), 1u);
  EXPECT_EQ(result["partitions"][0].at("public"), read_json(fixture("bn128", "multiplier", "public.json")));
}

// A job long enough to cancel while it runs: a 2^14-constraint native circuit,
// one CPU worker proving its partitions one after another.
TEST(Client, CancelAndTimeoutOfAJobUnderWay) {
  TempDir keys;
  const fs::path zkey = keys / "chain.zkey", wtns = keys / "chain.wtns", vk = keys / "chain.vk.json";
  const std::vector<std::string> native{"--circuit", "hash-chain", "--curve", "bn254", "--constraints", "16384"};
  std::vector<std::string> setup{"setup"}, witness{"witness"};
  setup.insert(setup.end(), native.begin(), native.end());
  witness.insert(witness.end(), native.begin(), native.end());
  setup.insert(setup.end(), {zkey, "--vk", vk});
  witness.push_back(wtns);
  ASSERT_EQ(cuzk(setup).exit_code, 0);
  ASSERT_EQ(cuzk(witness).exit_code, 0);

  Served served("[service]\nnative_circuits = true\n");  // the native partitions below
  ASSERT_EQ(served.cuzk_at({"client", "preload", zkey, "--id", "chain", "-q"}).exit_code, 0);
  // Three witnesses sent and three native partitions that cuzkd synthesizes.
  const std::vector<std::string> submit{"client", "submit", "chain", wtns, wtns, wtns, "--circuit", "hash-chain",
                                        "--constraints", "16384", "--seed", "7", "--partitions", "3"};
  const ProcessResult s = served.cuzk_at(submit);
  ASSERT_EQ(s.exit_code, 0) << s.err;
  const std::string job = s.out.substr(0, s.out.find('\n'));

  // await gives up after its timeout; the job goes on.
  const ProcessResult early = served.cuzk_at({"client", "await", job, "--timeout-ms", "1", "--out", keys / "out"});
  EXPECT_EQ(early.exit_code, 1);
  expect_one_error_line(early, "not done after 1 ms");
  EXPECT_TRUE(listing(keys / "out").empty());

  const ProcessResult c = served.cuzk_at({"client", "cancel", job});
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_TRUE(contains(c.out, "job " + job + " cancelled")) << c.out;

  // Each partition is either proved (and its proof verifies) or failed as
  // cancelled; six partitions of about a second each cannot all be done before the cancel.
  const ProcessResult a = served.cuzk_at({"client", "await", job, "--out", keys / "out"});
  EXPECT_EQ(a.exit_code, 1);
  size_t cancelled = 0;
  for (size_t at = 0; (at = a.err.find("error: partition ", at)) != std::string::npos; ++at) ++cancelled;
  EXPECT_GE(cancelled, 1u) << a.err;
  EXPECT_EQ(lines(a.err), cancelled) << a.err;
  EXPECT_TRUE(contains(a.err, "cancel")) << a.err;
  const auto written = listing(keys / "out");
  EXPECT_EQ(written.size(), 2 * (6 - cancelled)) << a.err;
  for (const std::string& name : written)
    if (name.ends_with(".proof.json")) {
      const std::string stem = name.substr(0, name.size() - std::string(".proof.json").size());
      EXPECT_EQ(cuzk({"verify", vk, keys / "out" / (stem + ".public.json"), keys / "out" / name}).exit_code, 0);
    }

  // Native partitions of another size than the key's are refused at submission.
  const ProcessResult misfit =
      served.cuzk_at({"client", "submit", "chain", "--circuit", "hash-chain", "--constraints", "1024"});
  EXPECT_EQ(misfit.exit_code, 2);
  EXPECT_EQ(lines(misfit.err), 1u) << misfit.err;

  // --deadline-ms: a partition of about a second cannot be proved within 1 ms.
  const ProcessResult late = served.cuzk_at({"client", "submit", "chain", wtns, "--deadline-ms", "1"});
  ASSERT_EQ(late.exit_code, 0) << late.err;
  const ProcessResult expired = served.cuzk_at({"client", "await", late.out.substr(0, late.out.find('\n'))});
  EXPECT_EQ(expired.exit_code, 1);
  expect_one_error_line(expired, "error: partition 0: deadline exceeded");
  EXPECT_EQ(nlohmann::json::parse(expired.out).at("partitions").at(0).at("error_code"), "deadline_exceeded");
}

TEST(Client, AWrongKeyIdIsExit2WithTheDaemonsMessage) {
  Served served;
  TempDir out;
  const fs::path wtns = fixture("bn128", "multiplier", "witness.wtns");
  // What the daemon says, asked directly.
  v1::SubmitRequest request;
  request.set_key_id("no-such-key");
  *request.add_partitions() = wtns_partition("bn128", "multiplier");
  v1::JobResult reply;
  const grpc::Status direct = served.daemon.stub().Prove(context().get(), request, &reply);
  ASSERT_EQ(direct.error_code(), grpc::StatusCode::NOT_FOUND);

  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"client", "prove", "no-such-key", wtns, out / "proof.json", out / "public.json"},
        std::vector<std::string>{"client", "submit", "no-such-key", wtns}}) {
    const ProcessResult r = served.cuzk_at(args);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, "error: " + direct.error_message() + "\n");
    EXPECT_EQ(r.out, "");
  }
  EXPECT_TRUE(listing(out.path()).empty());
}

TEST(Client, NoDaemonIsExit1WithOneLineAndNoFiles) {
  TempDir dir, out;
  const std::string address = "unix://" + (dir / "nobody.sock").string();
  const fs::path zkey = fixture("bn128", "multiplier", "circuit.zkey"), wtns = fixture("bn128", "multiplier", "witness.wtns");
  const std::vector<std::vector<std::string>> commands{
      {"client", "prove", "circuit", wtns, out / "proof.json", out / "public.json"},
      {"client", "submit", "circuit", wtns},
      {"client", "await", "1", "--out", out / "job"},
      {"client", "cancel", "1"},
      {"client", "status"},
      {"client", "preload", zkey},
      {"client", "evict", "circuit"},
      {"prove", zkey, wtns, out / "proof.json", out / "public.json"},
      {"prove-batch", zkey, wtns, "--out", out / "batch"},
  };
  for (std::vector<std::string> args : commands) {
    SCOPED_TRACE(args[0] + " " + args[1]);
    args.insert(args.end(), {"--daemon", address});
    const ProcessResult r = cuzk(args);
    EXPECT_EQ(r.exit_code, 1);
    expect_one_error_line(r, "error: no cuzkd at " + address + ": ");
    EXPECT_EQ(r.out, "");
    for (const char* sub : {"job", "batch"}) {
      if (fs::exists(out / sub)) {
        EXPECT_TRUE(listing(out / sub).empty());
      }
    }
    EXPECT_FALSE(fs::exists(out / "proof.json"));
    EXPECT_FALSE(fs::exists(out / "public.json"));
  }
  // A socket path longer than sun_path holds: a usage error that says so,
  // not a connection to the path cut short.
  const std::string too_long = (dir / std::string(108, 's')).string();
  for (const std::string& at : {too_long, "unix://" + too_long}) {
    const ProcessResult r = cuzk({"client", "status", "--daemon", at});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    expect_one_error_line(r, "longer than a Unix socket path can be (107)");
  }
  // No address, and no cuzkd at the default socket: where it looked, and how to name one.
  ::unsetenv("CUZK_DAEMON");
  const ScopedEnv runtime("RUNTIME_DIRECTORY", dir.path().string());
  const ProcessResult none = cuzk({"client", "status"});
  EXPECT_EQ(none.exit_code, 1);
  expect_one_error_line(none, "no cuzkd found: no socket at " + (dir / "cuzkd.sock").string());
  EXPECT_TRUE(contains(none.err, "--daemon ADDR or set CUZK_DAEMON")) << none.err;
}

// cuzkd with no --listen and a client with no address meet at the default
// socket (cuzk/service/daemon_socket.hpp), here systemd's RuntimeDirectory.
// Before: cuzkd listened on /run/cuzk/cuzkd.sock only (refused where that
// folder did not exist) and the client needed --daemon or CUZK_DAEMON.
TEST(Client, CuzkdAndTheClientMeetAtTheDefaultSocketWithoutAnAddress) {
  TempDir dir;
  const ScopedEnv runtime("RUNTIME_DIRECTORY", dir.path().string());
  Daemon daemon(dir.path(), "", {}, 0, /*default_listen=*/true);
  EXPECT_TRUE(fs::is_socket(dir / "cuzkd.sock"));
  EXPECT_TRUE(contains(daemon.log(), "ready: unix://" + (dir / "cuzkd.sock").string())) << daemon.log();
  const ProcessResult r = cuzk({"client", "status"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "cuzkd at unix://" + (dir / "cuzkd.sock").string())) << r.out;
}

// client prove removes an earlier proof only once cuzkd has taken the job
// (issue 35 item 1): no cuzkd at the address and a key id it does not hold
// leave the earlier files; a partition that fails leaves none.
TEST(Client, ProveKeepsTheEarlierProofUntilCuzkdTakesTheJob) {
  TempDir keys, out;
  const fs::path zkey = keys / "chain.zkey", wtns = keys / "chain.wtns";
  const std::vector<std::string> native{"--circuit", "hash-chain", "--curve", "bn254", "--constraints", "16384"};
  std::vector<std::string> setup{"setup"}, witness{"witness"};
  setup.insert(setup.end(), native.begin(), native.end());
  witness.insert(witness.end(), native.begin(), native.end());
  setup.push_back(zkey);
  witness.push_back(wtns);
  ASSERT_EQ(cuzk(setup).exit_code, 0);
  ASSERT_EQ(cuzk(witness).exit_code, 0);
  Served served;
  ASSERT_EQ(served.cuzk_at({"client", "preload", zkey, "--id", "chain", "-q"}).exit_code, 0);
  const fs::path proof = out / "proof.json", pub = out / "public.json";
  ASSERT_EQ(served.cuzk_at({"client", "prove", "chain", wtns, proof, pub, "-q"}).exit_code, 0);
  const Bytes proof_before = read_bytes(proof), pub_before = read_bytes(pub);

  const std::string nowhere = "unix://" + (keys / "nobody.sock").string();
  const ProcessResult unreachable = cuzk({"client", "prove", "chain", wtns, proof, pub, "--daemon", nowhere});
  EXPECT_EQ(unreachable.exit_code, 1) << unreachable.err;
  const ProcessResult unknown_key = served.cuzk_at({"client", "prove", "no-such-key", wtns, proof, pub});
  EXPECT_EQ(unknown_key.exit_code, 2) << unknown_key.err;
  EXPECT_EQ(read_bytes(proof), proof_before);
  EXPECT_EQ(read_bytes(pub), pub_before);

  // A partition of about a second cannot be proved within 1 ms.
  const ProcessResult late = served.cuzk_at({"client", "prove", "chain", wtns, proof, pub, "--deadline-ms", "1"});
  EXPECT_EQ(late.exit_code, 1) << late.err;
  expect_one_error_line(late, "deadline exceeded");
  EXPECT_TRUE(listing(out.path()).empty());
}

// A missing input is exit 2 whatever reports it: here std::filesystem's
// error (not_found, service::classify) from the size of a witness to queue,
// before any daemon is asked.
TEST(Client, AMissingWitnessToQueueIsExit2) {
  TempDir dir;
  const fs::path missing = dir / "missing.wtns";
  const ProcessResult r =
      cuzk({"client", "submit", "--queue", "circuit", missing, "--daemon", "unix://" + (dir / "nobody.sock").string()});
  EXPECT_EQ(r.exit_code, 2);
  expect_one_error_line(r, missing.string());
  EXPECT_EQ(r.out, "");
}

// A job id that is not a number is refused in cuzk's words before any
// daemon is asked.
TEST(Client, AJobIdThatIsNotANumberIsExit2) {
  for (const char* verb : {"await", "cancel"}) {
    const ProcessResult r = cuzk({"client", verb, "nosuchjob"});
    EXPECT_EQ(r.exit_code, 2) << verb;
    expect_one_error_line(r, std::string("cuzk client ") + verb + ": job-id: \"nosuchjob\" is not a whole number");
    EXPECT_EQ(r.out, "");
  }
}

// TCP with TLS: --tls-ca names the CA of the daemon's certificate (here a
// self-signed one for localhost, made by openssl); without it the handshake
// fails and nothing answers.
TEST(Client, TlsWithTheDaemonsCertificateAuthority) {
  const fs::path openssl = CUZK_OPENSSL;
  if (openssl.empty()) GTEST_SKIP() << "no openssl to make a certificate with";
  TempDir certs, out;
  const fs::path cert = certs / "cert.pem", key = certs / "key.pem";
  const std::vector<std::string> make{openssl,   "req",       "-x509",      "-newkey", "ec",         "-pkeyopt",
                                      "ec_paramgen_curve:prime256v1",      "-nodes",  "-keyout",    key,
                                      "-out",    cert,        "-days",      "1",       "-subj",      "/CN=localhost",
                                      "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"};
  const ProcessResult made = run_process(make, std::chrono::seconds(60));
  ASSERT_EQ(made.exit_code, 0) << describe(make, made);

  TempDir dir;
  Daemon daemon(dir.path(), key_entry("mult", fixture("bn128", "multiplier", "circuit.zkey")),
                {"--tcp", "127.0.0.1:0", "--tls-cert", cert, "--tls-key", key});
  std::smatch m;
  const std::string log = daemon.log();
  ASSERT_TRUE(std::regex_search(log, m, std::regex("127\\.0\\.0\\.1:([0-9]+) \\(TLS\\)"))) << log;
  const std::string address = "localhost:" + m[1].str();

  const ProcessResult r = cuzk({"client", "prove", "mult", fixture("bn128", "multiplier", "witness.wtns"),
                                out / "proof.json", out / "public.json", "--daemon", address, "--tls-ca", cert});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_snarkjs_accepts(fixture("bn128", "multiplier", "vk.json"), out / "public.json", out / "proof.json");

  const ProcessResult plain = cuzk({"client", "status", "--daemon", address});
  EXPECT_EQ(plain.exit_code, 1);
  expect_one_error_line(plain, "error: no cuzkd at " + address + ": ");
  const ProcessResult missing = cuzk({"client", "status", "--daemon", address, "--tls-ca", certs / "none.pem"});
  EXPECT_EQ(missing.exit_code, 2);
  expect_one_error_line(missing, "none.pem");
}

TEST(Client, ThePythonExampleClientProves) {
  if (std::string(CUZK_PYTHON).empty())
    GTEST_SKIP() << "no python3 here imports grpc and grpc_tools (Debian: python3-grpcio python3-grpc-tools)";
  Served served;
  TempDir out;
  const fs::path script = fs::path(CUZK_SOURCE_DIR) / "examples" / "python" / "cuzk_client.py";
  for (const char* curve : kCurves) {
    SCOPED_TRACE(curve);
    const fs::path proof = out / (std::string(curve) + ".proof.json"), pub = out / (std::string(curve) + ".public.json");
    const std::vector<std::string> argv{CUZK_PYTHON, script, "--daemon", served.address, "prove", curve,
                                        fixture(curve, "multiplier", "witness.wtns"), proof, pub, "--zkey",
                                        fixture(curve, "multiplier", "circuit.zkey")};
    const ProcessResult r = run_process(argv, std::chrono::seconds(120));
    ASSERT_EQ(r.exit_code, 0) << describe(argv, r);
    EXPECT_TRUE(contains(r.out, "wrote " + proof.string())) << r.out;
    // The curve as the CLI names it (before: the proto's BN254, BLS12_381).
    EXPECT_TRUE(contains(r.out, "(" + std::string(curve) + " proof, verified by cuzkd)")) << r.out;
    EXPECT_EQ(read_json(pub), read_json(fixture(curve, "multiplier", "public.json")));
    expect_snarkjs_accepts(fixture(curve, "multiplier", "vk.json"), pub, proof);
  }
  // status lists the keys it preloaded.
  const std::vector<std::string> status{CUZK_PYTHON, script, "--daemon", served.address, "status"};
  const ProcessResult st = run_process(status, std::chrono::seconds(120));
  ASSERT_EQ(st.exit_code, 0) << describe(status, st);
  EXPECT_TRUE(contains(st.out, "cpu backend")) << st.out;
  EXPECT_TRUE(contains(st.out, "key bn128: bn128, 254 variables, 2 public")) << st.out;
  EXPECT_TRUE(contains(st.out, "key bls12381: bls12381, 254 variables, 2 public")) << st.out;

  // Its errors follow the CLI's contract: an unknown key is exit 2, one line.
  const std::vector<std::string> argv{CUZK_PYTHON, script, "--daemon", served.address, "prove", "no-such-key",
                                      fixture("bn128", "multiplier", "witness.wtns"), out / "x.proof.json",
                                      out / "x.public.json"};
  const ProcessResult bad = run_process(argv, std::chrono::seconds(120));
  EXPECT_EQ(bad.exit_code, 2) << describe(argv, bad);
  expect_one_error_line(bad, "no-such-key");
  EXPECT_FALSE(fs::exists(out / "x.proof.json"));

  // Without --daemon or CUZK_DAEMON it finds cuzkd's default socket as the CLI does.
  const ScopedEnv runtime("RUNTIME_DIRECTORY", out.path().string());
  Daemon by_default(out.path(), "", {}, 0, /*default_listen=*/true);
  const std::vector<std::string> bare{CUZK_PYTHON, script, "status"};
  const ProcessResult found = run_process(bare, std::chrono::seconds(120));
  EXPECT_EQ(found.exit_code, 0) << describe(bare, found);
  EXPECT_TRUE(contains(found.out, "cpu backend")) << found.out;
}

}  // namespace
}  // namespace cuzk::test
