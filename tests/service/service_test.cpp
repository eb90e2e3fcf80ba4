// The service as front ends use it, on the CPU backend: keys of both curves
// from files and bytes, witnesses from bytes, files and native circuits,
// proofs that verify against snarkjs's verification keys, the error taxonomy,
// admission control, cancel, evict and replace while jobs run, drain, status
// and counters, a key file replaced under a running service, one key per
// content, and the backend make_backend gives its engines, proving alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>
#include <thread>
#include <variant>
#include <vector>

#include "cuzk/circuit/examples/hash_chain.hpp"
#include "cuzk/service/example_circuits.hpp"
#include "freed_bytes.hpp"
#include "proving_support.hpp"
#include "service_test_support.hpp"

namespace cuzk::service {
namespace {

using test::Bytes;
using test::fixture;
using test::read_bytes;
using test::TempDir;
using test_support::witness_bytes;
using namespace std::chrono_literals;

ServiceOptions cpu_options() {
  ServiceOptions o;
  o.placement.backend = BackendKind::cpu;
  o.threads = 1;
  o.native_circuits = example_circuits();
  return o;
}

// The proof verifies, and its stage times add up.
template <class E>
void expect_verifies(const PartitionOutcome& p, const std::string& curve, const std::string& circuit) {
  test_support::expect_verifies<E>(p, curve, circuit);
  const PhaseTimes& t = p.times;
  EXPECT_GE(t[Phase::total], t[Phase::synthesis] + t[Phase::prove] + t[Phase::finish] - 1e-9);
  EXPECT_GT(t[Phase::prove], 0);
}

// The kind of Error that f throws, or none.
template <class F>
ErrorKind kind_thrown(F&& f, std::string* message = nullptr) {
  try {
    f();
  } catch (const Error& e) {
    if (message) *message = e.what();
    return e.kind();
  }
  return ErrorKind::none;
}

// cpu_options with one synthesis thread, so that later jobs wait in the queue.
ServiceOptions one_synthesis_thread() {
  ServiceOptions o = cpu_options();
  o.synthesis_threads = 1;
  return o;
}

// The key of the 2^12 hash chain, which hash_chain_job's partitions prove against.
groth16::SharedKey<ec::Bn254> hash_chain_key() {
  return test::dev_key<ec::Bn254>(circuit::HashChain<ec::Bn254>::for_constraints(1 << 12, 0));
}

// n native partitions of the 2^12 hash chain, seeds first_seed, first_seed + 1, ...
std::vector<PartitionInput> hash_chain_job(size_t n, uint64_t first_seed) {
  std::vector<PartitionInput> parts;
  for (size_t i = 0; i < n; ++i) parts.push_back(NativeWitness{"hash-chain", 1 << 12, first_seed + i});
  return parts;
}

// make_backend is what the engines prove with: the options' workers, a, b, c
// from the host on the CPU; a partition proved through it, as the engine
// proves one, is recorded on its worker's track and verifies.
TEST(Service, MakeBackendProvesAPartitionAsTheEngineDoes) {
  using E = ec::Bn254;
  ServiceOptions o = cpu_options();
  o.cpu_workers = 3;
  const Placement where = resolve_placement(o.placement);
  const auto backend = make_backend<E>(where, o);
  EXPECT_EQ(backend->workers(), 3u);
  EXPECT_FALSE(backend->abc_on_gpu());
  EXPECT_EQ(backend->describe(), "CPU, 3 workers");

  const auto circuit = circuit::HashChain<E>::for_constraints(1 << 10, 7);
  const auto key = test::dev_key<E>(circuit);
  const size_t bytes = engine::partition_buffer_bytes(*key, false);
  engine::BufferPool pool(backend->host_memory(), bytes);
  engine::Recorder recorder(false);
  engine::WorkItem<E> item{key, 4, 0, {{}, pool.acquire(bytes), {}}};
  const auto parts = engine::partition_spans(item.host.buffer, *key, false);
  circuit::synthesize_witness(circuit, parts.w, parts.a, parts.b, parts.c);
  item.host.inputs = groth16::HostInputs<typename E::Fr>::whole(parts.w, parts.a, parts.b, parts.c);
  const auto pending = backend->prove(2, item, recorder);
  EXPECT_EQ(item.host.buffer.data(), nullptr);  // given back once read
  EXPECT_NO_THROW(groth16::prove_finish(*key, pending));  // which verifies the proof
  const auto spans = recorder.spans();
  EXPECT_TRUE(std::any_of(spans.begin(), spans.end(), [](const engine::Span& s) {
    return s.stage == Stage::msm_h && s.job == 4 && s.track.index == 2 && s.end > s.start;
  }));

  o.pageable = true;
  EXPECT_EQ(kind_thrown([&] { make_backend<E>(where, o); }), ErrorKind::invalid_argument);
}

TEST(Service, ProvesBothCurvesFromFilesAndBytes) {
  Service svc(cpu_options());
  const KeyInfo bn = svc.load_key(fixture("bn128", "multiplier", "circuit.zkey"), "bn");
  EXPECT_EQ(bn.curve, ec::Curve::bn254);
  EXPECT_EQ(bn.n_vars, 254u);
  const KeyInfo bls = svc.load_key_bytes(read_bytes(fixture("bls12381", "linear", "circuit.zkey")), "linear.zkey", "bls");
  EXPECT_EQ(bls.curve, ec::Curve::bls12_381);

  std::vector<PartitionInput> parts;
  parts.push_back(witness_bytes("bn128", "multiplier"));
  parts.push_back(WitnessFile{fixture("bn128", "multiplier", "witness.wtns")});
  const JobId j1 = svc.submit("bn", std::move(parts));
  std::vector<PartitionInput> bls_parts;
  bls_parts.push_back(witness_bytes("bls12381", "linear"));
  const JobId j2 = svc.submit("bls", std::move(bls_parts));

  const JobOutcome o1 = *svc.await(j1);
  ASSERT_EQ(o1.partitions.size(), 2u);
  for (const auto& p : o1.partitions) expect_verifies<ec::Bn254>(p, "bn128", "multiplier");
  const JobOutcome o2 = *svc.await(j2);
  EXPECT_EQ(o2.curve, ec::Curve::bls12_381);
  expect_verifies<ec::Bls12_381>(o2.partitions.at(0), "bls12381", "linear");

  const Counters c = svc.counters();
  EXPECT_EQ(c.jobs_submitted, 2u);
  EXPECT_EQ(c.partitions_proved, 3u);
  EXPECT_GT(c.stages.at(-1)[(size_t)Stage::msm_a].count, 0u);
  EXPECT_EQ(kind_thrown([&] { svc.await(j1); }), ErrorKind::not_found) << "an outcome is handed over once";
}

// A key read outside the service (the one-shot CLI's way: read_zkey while
// the service starts) is the key load_key makes: its curve and shape, and it
// proves; a missing file and one that is not a key are refused by kind.
TEST(Service, AKeyReadBesideTheServiceProvesAsALoadedOne) {
  AnyKey read = read_zkey(fixture("bls12381", "linear", "circuit.zkey"));
  ASSERT_TRUE(std::holds_alternative<groth16::SharedKey<ec::Bls12_381>>(read));
  Service svc(cpu_options());
  svc.start_engine_for(fixture("bls12381", "linear", "circuit.zkey"));
  const KeyInfo key = svc.add_key("linear", std::move(read), "linear.zkey");
  EXPECT_EQ(key.curve, ec::Curve::bls12_381);
  EXPECT_EQ(key.n_vars, svc.load_key(fixture("bls12381", "linear", "circuit.zkey"), "loaded").n_vars);
  std::vector<PartitionInput> parts;
  parts.push_back(witness_bytes("bls12381", "linear"));
  expect_verifies<ec::Bls12_381>(svc.await(svc.submit("linear", std::move(parts)))->partitions.at(0), "bls12381",
                                 "linear");

  EXPECT_EQ(kind_thrown([] { read_zkey("/nonexistent/circuit.zkey"); }), ErrorKind::not_found);
  EXPECT_EQ(kind_thrown([] { read_zkey(fixture("bls12381", "linear", "witness.wtns")); }),
            ErrorKind::invalid_argument);
}

// A client's witness bytes are zeroed before their memory is freed, once
// decoded and when refused. before: they were freed as they were
TEST(Service, WitnessBytesAreZeroedBeforeTheirMemoryIsFreed) {
  Service svc(cpu_options());
  svc.load_key(fixture("bn128", "multiplier", "circuit.zkey"), "bn");
  for (const char* circuit : {"multiplier", "linear"}) {
    SCOPED_TRACE(circuit);
    std::vector<PartitionInput> parts;
    // Exactly as long as the file, as cuzkd's copy of a request is: every byte
    // the freed block holds is the witness's.
    const Bytes file = read_bytes(fixture("bn128", circuit, "witness.wtns"));
    parts.push_back(WitnessBytes{std::string(file.begin(), file.end()), circuit});
    test::FreedBytes::watch(std::get<WitnessBytes>(parts[0]).bytes.data());
    std::string message;
    const auto await = [&] { (void)svc.await(svc.submit("bn", std::move(parts))); };
    EXPECT_EQ(kind_thrown(await, &message), circuit == std::string("linear") ? ErrorKind::invalid_argument : ErrorKind::none)
        << message;
    EXPECT_EQ(test::FreedBytes::state(), test::Freed::zeroed);
  }
}

TEST(Service, BadRequestsAreRefusedWithTheirKind) {
  ServiceOptions o = cpu_options();
  TempDir allowed, elsewhere;
  o.witness_dirs = {allowed.path()};
  Service svc(o);
  svc.load_key(fixture("bn128", "multiplier", "circuit.zkey"), "bn");
  const auto submit_one = [&](std::string key, PartitionInput in) {
    std::vector<PartitionInput> parts;
    parts.push_back(std::move(in));
    return svc.submit(key, std::move(parts));
  };
  std::string message;
  EXPECT_EQ(kind_thrown([&] { submit_one("nope", witness_bytes("bn128", "multiplier")); }, &message),
            ErrorKind::not_found);
  EXPECT_NE(message.find("nope"), std::string::npos) << message;
  EXPECT_EQ(kind_thrown([&] { svc.submit("bn", {}); }), ErrorKind::invalid_argument);
  // Random bytes, a truncated witness, the other curve's witness, another circuit's.
  EXPECT_EQ(kind_thrown([&] { submit_one("bn", WitnessBytes{std::string(100, 0x5a), "random.wtns"}); }, &message),
            ErrorKind::invalid_argument);
  EXPECT_NE(message.find("random.wtns"), std::string::npos) << message;
  WitnessBytes truncated = witness_bytes("bn128", "multiplier");
  truncated.bytes.resize(truncated.bytes.size() - 7);
  EXPECT_EQ(kind_thrown([&] { submit_one("bn", truncated); }), ErrorKind::invalid_argument);
  EXPECT_EQ(kind_thrown([&] { submit_one("bn", witness_bytes("bls12381", "multiplier")); }, &message),
            ErrorKind::invalid_argument);
  EXPECT_NE(message.find("bls12"), std::string::npos) << message;
  EXPECT_EQ(kind_thrown([&] { submit_one("bn", witness_bytes("bn128", "linear")); }, &message),
            ErrorKind::invalid_argument);
  EXPECT_NE(message.find("Invalid witness length"), std::string::npos) << message;
  // Server-side paths: only under the allowed directories, and present.
  std::filesystem::copy_file(fixture("bn128", "multiplier", "witness.wtns"), elsewhere / "w.wtns");
  EXPECT_EQ(kind_thrown([&] { submit_one("bn", WitnessFile{elsewhere / "w.wtns"}); }), ErrorKind::invalid_argument);
  EXPECT_EQ(kind_thrown([&] { submit_one("bn", WitnessFile{allowed / ".." / elsewhere.path().filename() / "w.wtns"}); }),
            ErrorKind::invalid_argument);
  EXPECT_EQ(kind_thrown([&] { submit_one("bn", WitnessFile{allowed / "missing.wtns"}); }), ErrorKind::not_found);
  std::filesystem::copy_file(fixture("bn128", "multiplier", "witness.wtns"), allowed / "w.wtns");
  expect_verifies<ec::Bn254>(svc.await(submit_one("bn", WitnessFile{allowed / "w.wtns"}))->partitions.at(0), "bn128",
                             "multiplier");
  // Keys: a missing file, random bytes.
  EXPECT_EQ(kind_thrown([&] { svc.load_key(allowed / "none.zkey"); }), ErrorKind::not_found);
  EXPECT_EQ(kind_thrown([&] { svc.load_key_bytes(Bytes(4096, 7), "junk.zkey"); }), ErrorKind::invalid_argument);
  EXPECT_EQ(svc.counters().jobs_submitted, 1u) << "refused jobs are not submitted";
}

// A witness that does not satisfy the circuit fails its partition alone, as
// unsatisfied; the other partitions of the job are proved.
TEST(Service, AnUnsatisfiedWitnessFailsItsPartitionAlone) {
  Service svc(cpu_options());
  svc.load_key(fixture("bn128", "multiplier", "circuit.zkey"), "bn");
  WitnessBytes bad = witness_bytes("bn128", "multiplier");
  bad.bytes[bad.bytes.size() - 32] ^= 1;  // the last signal, still < r
  std::vector<PartitionInput> parts;
  parts.push_back(std::move(bad));
  parts.push_back(witness_bytes("bn128", "multiplier"));
  const JobOutcome o = *svc.await(svc.submit("bn", std::move(parts)));
  EXPECT_EQ(o.partitions[0].error_kind, ErrorKind::unsatisfied) << o.partitions[0].error;
  expect_verifies<ec::Bn254>(o.partitions[1], "bn128", "multiplier");
  EXPECT_EQ(o.failed(), 1u);
  EXPECT_EQ(svc.counters().partitions_failed[(size_t)ErrorKind::unsatisfied], 1u);
}

TEST(Service, AdmissionRefusesWorkBeyondItsBounds) {
  ServiceOptions o = cpu_options();
  o.max_pending_partitions = 3;
  o.max_pending_bytes = 3 * 254 * 32;  // three multiplier witnesses
  Service svc(o);
  svc.load_key(fixture("bn128", "multiplier", "circuit.zkey"), "bn");
  const auto job_of = [&](size_t n) {
    std::vector<PartitionInput> parts;
    for (size_t i = 0; i < n; ++i) parts.push_back(witness_bytes("bn128", "multiplier"));
    return parts;
  };
  EXPECT_EQ(kind_thrown([&] { svc.submit("bn", job_of(4)); }), ErrorKind::resource_exhausted);
  const JobId a = svc.submit("bn", job_of(2));
  std::string message;
  EXPECT_EQ(kind_thrown([&] { svc.submit("bn", job_of(2)); }, &message), ErrorKind::resource_exhausted);
  EXPECT_NE(message.find("retry later"), std::string::npos) << message;
  EXPECT_EQ(svc.await(a)->failed(), 0u);
  // The bounds are freed as work finishes.
  EXPECT_EQ(svc.await(svc.submit("bn", job_of(3)))->failed(), 0u);
  EXPECT_EQ(svc.counters().jobs_rejected, 2u);
  EXPECT_EQ(svc.status().pending_bytes, 0u);
}

// Native partitions against an in-memory key; a cancelled job's partitions
// end as cancelled; a key evicted or replaced while its job runs still proves
// that job; await with a timeout; drain refuses new work.
TEST(Service, NativeJobsCancelEvictReplaceAndDrain) {
  Service svc(one_synthesis_thread());
  const auto key = hash_chain_key();
  svc.add_key("chain", key);
  std::vector<PartitionInput> wrong;
  wrong.push_back(NativeWitness{"hash-chain", 1 << 10, 1});
  EXPECT_EQ(kind_thrown([&] { svc.submit("chain", std::move(wrong)); }), ErrorKind::invalid_argument);
  std::vector<PartitionInput> unknown;
  unknown.push_back(NativeWitness{"sudoku", 1 << 12, 1});
  EXPECT_EQ(kind_thrown([&] { svc.submit("chain", std::move(unknown)); }), ErrorKind::invalid_argument);

  const JobId running = svc.submit("chain", hash_chain_job(4, 1), {.priority = 1, .label = "first"});
  const JobId cancelled = svc.submit("chain", hash_chain_job(6, 10));
  EXPECT_TRUE(svc.cancel(cancelled));
  EXPECT_FALSE(svc.cancel(12345));
  const Status st = svc.status();
  ASSERT_EQ(st.keys.size(), 1u);
  EXPECT_EQ(st.keys[0].jobs, 1u) << "the cancelled job is done at once";
  ASSERT_EQ(st.jobs.size(), 2u);
  EXPECT_EQ(st.jobs[0].label, "first");
  EXPECT_EQ(st.backend, "cpu");

  // Replace the key under the same id, then evict it: the running job keeps its key.
  svc.add_key("chain", hash_chain_key());
  EXPECT_TRUE(svc.evict("chain"));
  EXPECT_FALSE(svc.evict("chain"));
  EXPECT_TRUE(svc.keys().empty());
  EXPECT_EQ(kind_thrown([&] { svc.submit("chain", hash_chain_job(1, 99)); }), ErrorKind::not_found);

  const JobOutcome done = *svc.await(running);
  for (const auto& p : done.partitions) EXPECT_TRUE(p.ok()) << p.error;
  const JobOutcome c = *svc.await(cancelled);
  EXPECT_GT(c.failed(), 0u);
  for (const auto& p : c.partitions)
    if (!p.ok()) {
      EXPECT_EQ(p.error_kind, ErrorKind::cancelled) << p.error;
    }

  svc.add_key("chain", key);
  const JobId slow = svc.submit("chain", hash_chain_job(3, 50));
  EXPECT_FALSE(svc.await(slow, 0ms).has_value()) << "not done at once";
  svc.drain();
  EXPECT_TRUE(svc.status().draining);
  EXPECT_EQ(kind_thrown([&] { svc.submit("chain", hash_chain_job(1, 60)); }), ErrorKind::unavailable);
  // cuzkd's shutdown waits for the outcomes to be collected, until its grace ends.
  EXPECT_EQ(svc.wait_until_collected(Clock::now() + 50ms), 1u) << "nobody has awaited the slow job";
  auto collector = std::async(std::launch::async, [&] {
    std::this_thread::sleep_for(100ms);
    return svc.await(slow);
  });
  const auto t0 = Clock::now();
  EXPECT_EQ(svc.wait_until_collected(t0 + 60s), 0u);
  EXPECT_LT(Clock::now() - t0, 30s) << "woken by the await, not by the end of the wait";
  EXPECT_EQ(collector.get()->failed(), 0u) << "drain finishes the work it admitted";
}

// A job whose deadline passes while its partitions wait in the queue is
// reported when it passes, not when a synthesis thread reaches them behind a
// long job: the partitions finished, in the order observers see them, hold
// all of the late job's failures before the last of the long job's proofs.
TEST(Service, QueuedPartitionsPastTheirDeadlineAreReportedPromptly) {
  Service svc(one_synthesis_thread());
  svc.add_key("chain", hash_chain_key());
  std::mutex mu;
  std::vector<ErrorKind> seen;  // ErrorKind::none: a proof
  svc.on_partition([&](const PartitionEvent& e) {
    std::lock_guard lock(mu);
    seen.push_back(e.outcome.ok() ? ErrorKind::none : e.outcome.error_kind);
  });
  const JobId first = svc.submit("chain", hash_chain_job(24, 1), {.priority = 1, .label = "long"});
  const JobId late = svc.submit("chain", hash_chain_job(6, 20), {.deadline = Clock::now() + 50ms, .label = "late"});
  const JobOutcome expired = *svc.await(late);
  for (const auto& p : expired.partitions) EXPECT_EQ(p.error_kind, ErrorKind::deadline_exceeded) << p.error;
  EXPECT_EQ(svc.await(first)->failed(), 0u);
  std::lock_guard lock(mu);
  ASSERT_EQ(seen.size(), 30u);
  const auto last_expired = std::find(seen.rbegin(), seen.rend(), ErrorKind::deadline_exceeded);
  const auto proofs_before = std::count(seen.begin(), last_expired.base(), ErrorKind::none);
  EXPECT_LT(proofs_before, 24) << "the late job was reported only after the long job's last proof";
}

// Keys are held as owned bytes (KeyStorage::copy), so replacing or truncating
// the key file under a running service changes nothing (a mapping would
// SIGBUS the process).
TEST(Service, AKeyFileReplacedUnderTheServiceDoesNotBringItDown) {
  TempDir dir;
  const auto path = dir / "circuit.zkey";
  std::filesystem::copy_file(fixture("bn128", "multiplier", "circuit.zkey"), path);
  Service svc(cpu_options());
  svc.load_key(path, "bn");
  std::filesystem::resize_file(path, 0);
  test::write_bytes(path, Bytes(1 << 16, 0xee));
  std::vector<PartitionInput> parts;
  parts.push_back(witness_bytes("bn128", "multiplier"));
  expect_verifies<ec::Bn254>(svc.await(svc.submit("bn", std::move(parts)))->partitions.at(0), "bn128", "multiplier");
}

// A key is known by its contents: loads that may reuse one (cuzkd's
// Preload) are answered with the key already loaded, whatever id or source
// they name, even at max_keys; a load under an id of its own (a configured
// key) and a key of other contents are keys of their own.
TEST(Service, OneKeyPerContent) {
  TempDir dir;
  const auto copy = dir / "same.zkey";
  std::filesystem::copy_file(fixture("bn128", "multiplier", "circuit.zkey"), copy);
  ServiceOptions o = cpu_options();
  o.max_keys = 2;
  Service svc(o);
  constexpr auto reuse = Service::SameContent::reuse;
  const auto from_client = Service::PathFrom::client;
  EXPECT_EQ(svc.load_key(fixture("bn128", "multiplier", "circuit.zkey"), "bn", from_client, reuse).id, "bn");
  EXPECT_EQ(svc.load_key_bytes(read_bytes(copy), "same.zkey", "by-bytes", reuse).id, "bn");
  EXPECT_EQ(svc.load_key(copy, "by-path", from_client, reuse).id, "bn");
  EXPECT_EQ(svc.keys().size(), 1u);

  EXPECT_EQ(svc.load_key(fixture("bls12381", "multiplier", "circuit.zkey"), "bls", from_client, reuse).id, "bls");
  EXPECT_EQ(svc.keys().size(), 2u);
  EXPECT_EQ(svc.load_key(copy, "third", from_client, reuse).id, "bn") << "answered at max_keys";
  EXPECT_EQ(kind_thrown([&] { svc.load_key(copy, "third"); }), ErrorKind::resource_exhausted);
  svc.evict("bls");
  EXPECT_EQ(svc.load_key(copy, "configured").id, "configured");
  EXPECT_EQ(svc.keys().size(), 2u);

  std::vector<PartitionInput> parts;
  parts.push_back(witness_bytes("bn128", "multiplier"));
  expect_verifies<ec::Bn254>(svc.await(svc.submit("bn", std::move(parts)))->partitions.at(0), "bn128", "multiplier");
}

// The loaded keys' host bytes stay within max_key_bytes: a load past it is
// refused before the key is read, in one line naming the budget, the bytes
// held and the key's size; a key replaced under the same id counts as freed,
// and an eviction makes room.
TEST(Service, KeyHostBytesAreBounded) {
  const auto multiplier = fixture("bn128", "multiplier", "circuit.zkey");
  const auto linear = fixture("bn128", "linear", "circuit.zkey");
  const uint64_t big = std::filesystem::file_size(multiplier), small = std::filesystem::file_size(linear);
  ASSERT_GT(big, small);
  ServiceOptions o = cpu_options();
  o.max_key_bytes = big + small / 2;  // the multiplier's key, not both
  Service svc(o);
  svc.load_key(multiplier, "a");
  EXPECT_EQ(svc.status().key_bytes, big);
  EXPECT_EQ(svc.status().max_key_bytes, o.max_key_bytes);

  std::string message;
  EXPECT_EQ(kind_thrown([&] { svc.load_key(linear, "b"); }, &message), ErrorKind::resource_exhausted);
  for (uint64_t n : {o.max_key_bytes, big, small}) EXPECT_NE(message.find(std::to_string(n)), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  EXPECT_EQ(kind_thrown([&] { svc.load_key_bytes(read_bytes(linear), "linear.zkey", "b"); }), ErrorKind::resource_exhausted);
  // Refused from its size alone: a file that is no key at all is not read.
  TempDir dir;
  test::write_bytes(dir / "junk.zkey", Bytes(size_t(o.max_key_bytes), 0xee));
  EXPECT_EQ(kind_thrown([&] { svc.load_key(dir / "junk.zkey", "b"); }), ErrorKind::resource_exhausted);

  svc.load_key(linear, "a");  // replaces the multiplier's key
  EXPECT_EQ(svc.status().key_bytes, small);
  EXPECT_EQ(kind_thrown([&] { svc.load_key(multiplier, "b"); }), ErrorKind::resource_exhausted);
  svc.evict("a");
  EXPECT_EQ(svc.status().key_bytes, 0u);
  svc.load_key(multiplier, "b");
  std::vector<PartitionInput> parts;
  parts.push_back(witness_bytes("bn128", "multiplier"));
  expect_verifies<ec::Bn254>(svc.await(svc.submit("b", std::move(parts)))->partitions.at(0), "bn128", "multiplier");
}

// A key loaded by `load` is hashed only where the service is told to
// (cuzkd, whose configured keys a Preload must find); the CLI's one-shot
// load does not read the key twice, so a later reuse load cannot know it.
TEST(Service, LoadedKeysAreHashedOnlyWhenAsked) {
  const auto zkey = fixture("bn128", "multiplier", "circuit.zkey");
  for (const bool hashed : {true, false}) {
    ServiceOptions o = cpu_options();
    o.hash_loaded_keys = hashed;
    Service svc(o);
    EXPECT_EQ(svc.load_key(zkey, "configured").id, "configured");
    const auto again = svc.load_key(zkey, "preloaded", Service::PathFrom::client, Service::SameContent::reuse);
    EXPECT_EQ(again.id, hashed ? "configured" : "preloaded");
    EXPECT_EQ(svc.keys().size(), hashed ? 1u : 2u);
  }
}

// Observers see every finished partition, with its key and outcome.
TEST(Service, ObserversSeeEachPartition) {
  Service svc(cpu_options());
  svc.load_key(fixture("bls12381", "multiplier", "circuit.zkey"), "bls");
  std::mutex mu;
  std::vector<std::pair<std::string, bool>> seen;
  std::vector<size_t> partitions;
  JobId observed_job = 0;
  svc.on_partition([&](const PartitionEvent& e) {
    EXPECT_EQ(e.curve, ec::Curve::bls12_381);
    std::lock_guard lock(mu);
    seen.emplace_back(e.key, e.outcome.ok());
    partitions.push_back(e.partition);
    observed_job = e.job;
  });
  std::vector<PartitionInput> parts;
  parts.push_back(witness_bytes("bls12381", "multiplier"));
  parts.push_back(witness_bytes("bls12381", "multiplier"));
  const JobId job = svc.submit("bls", std::move(parts));
  svc.await(job);
  std::lock_guard lock(mu);
  EXPECT_EQ(seen, (std::vector<std::pair<std::string, bool>>{{"bls", true}, {"bls", true}}));
  std::ranges::sort(partitions);
  EXPECT_EQ(partitions, (std::vector<size_t>{0, 1})) << "each partition once, by its index";
  EXPECT_EQ(observed_job, job);
}

// on_finished names each job once, when await hands its outcome over at once.
TEST(Service, OnFinishedNamesEachJobWhenItIsDone) {
  Service svc(cpu_options());
  svc.load_key(fixture("bn128", "multiplier", "circuit.zkey"), "bn");
  std::mutex mu;
  std::condition_variable cv;
  std::vector<JobId> finished;
  SubmitOptions so;
  so.on_finished = [&](JobId id) {
    {
      std::lock_guard lock(mu);
      finished.push_back(id);
    }
    cv.notify_all();
  };
  std::vector<JobId> ids;
  for (int i = 0; i < 3; ++i) {
    std::vector<PartitionInput> parts;
    parts.push_back(witness_bytes("bn128", "multiplier"));
    ids.push_back(svc.submit("bn", std::move(parts), so));
  }
  std::unique_lock lock(mu);
  ASSERT_TRUE(cv.wait_for(lock, 60s, [&] { return finished.size() >= ids.size(); }));
  EXPECT_TRUE(std::is_permutation(finished.begin(), finished.end(), ids.begin(), ids.end()));
  for (JobId id : finished) EXPECT_TRUE(svc.await(id, 0s)) << "job " << id;
}

}  // namespace
}  // namespace cuzk::service
