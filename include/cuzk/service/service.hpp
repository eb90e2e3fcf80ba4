// The proving service (docs/ARCHITECTURE.md, layer `service`): what every front end
// needs and none should copy. The CLI, the daemon (cuzkd) and the C API are
// thin shells over one Service:
//   - keys of both curves, loaded from files or bytes, held as owned shared
//     handles under ids; evicting or replacing a key while jobs use it is safe
//     (the jobs keep their handle);
//   - one backend choice (CPU, or GPUs), one engine per curve on the same
//     GPUs: one kernel lock per GPU and one host-memory pool for both;
//   - witness sources: .wtns bytes or files, and native circuits by name;
//   - jobs with priority and deadline, cancel, await; admission control that
//     refuses work beyond a bound at once instead of queueing it;
//   - status and cumulative counters for metrics;
//   - one error taxonomy (errors.hpp) that the CLI maps to exit statuses and
//     the daemon to gRPC codes.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "cuzk/ec/curves.hpp"
#include "cuzk/engine/backend.hpp"
#include "cuzk/engine/gpu_report.hpp"
#include "cuzk/engine/trace.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/service/errors.hpp"
#include "cuzk/service/native.hpp"
#include "cuzk/service/placement.hpp"
#include "cuzk/service/proof.hpp"
#include "cuzk/util/stages.hpp"

namespace cuzk::io {
struct Witness;  // io/wtns.hpp
}

namespace cuzk::service {

// How keys are held in host memory. `copy` reads the file into memory the
// service owns, so replacing or truncating the file while the service runs
// cannot fault it (a mapping would SIGBUS); `map` maps it (no copy, page
// cache shared with other processes; for a CLI run that ends soon).
enum class KeyStorage { copy, map };

struct ServiceOptions {
  PlacementRequest placement;     // backend and GPUs
  unsigned threads = 0;           // CPU threads of one CPU proof or a/b/c evaluation (0: all)
  unsigned synthesis_threads = 2;
  unsigned cpu_workers = 1;       // cpu backend: partitions proved at once
  unsigned workers_per_gpu = 2;   // cuda backend
  unsigned finalizer_threads = 1;
  AbcPlace abc = AbcPlace::automatic;
  bool pageable = false;          // heap buffers instead of pinned ones (cuda), for comparisons
  // Bytes of pooled host buffers, for both curves together; 0: enough for
  // every stage to hold a partition of the largest key loaded so far.
  size_t host_budget = 0;
  size_t key_budget = 0;          // cuda: device bytes per GPU for resident keys (0: 70% of free)
  KeyStorage key_storage = KeyStorage::copy;
  // Admission control: submit() refuses (ErrorKind::resource_exhausted) a job
  // that would take the partitions queued or running past this number, or the
  // witness bytes held by such jobs past max_pending_bytes (0: a quarter of
  // the host's memory).
  size_t max_pending_partitions = 4096;
  size_t max_pending_bytes = 0;
  // Where server-side witness paths may lie (WitnessFile), and key files a
  // client names (load_key with PathFrom::client): each is opened beneath one
  // of these directories, so no "..", link or later swap leads out of it.
  std::vector<std::filesystem::path> witness_dirs;
  std::vector<std::filesystem::path> key_dirs;
  // With either list empty: true, any path the process can read (the CLI's
  // and the C API's own files); false, none (cuzkd: its clients are strangers).
  bool any_path_without_dirs = true;
  // Keys loaded at once (0: no limit); a load under a new id past it is
  // refused (resource_exhausted) before the key is read.
  size_t max_keys = 0;
  // Host bytes of loaded keys together (KeyInfo::host_bytes; 0: no limit): a
  // load that would take them past it is refused (resource_exhausted) before
  // the key's body is read, counting a key it replaces as freed. Mapped keys
  // (KeyStorage::map) hold none: their pages are the page cache's.
  size_t max_key_bytes = 0;
  // Keys loaded by `load` are hashed (SHA-256 of the file or bytes) so that a
  // later load with SameContent::reuse finds them (cuzkd). Off, only `reuse`
  // loads hash: a one-shot CLI proof does not read a multi-GB key twice
  // (hashing a 2^22 BN254 key cost 2.7 s of a 3.4 s `cuzk prove`).
  bool hash_loaded_keys = false;
  // The circuits NativeWitness partitions may name (native.hpp), which the
  // front end registers; empty: such partitions are refused. cuzkd registers
  // the examples only when configured to.
  NativeCircuits native_circuits;
  // Finished jobs kept for await(); beyond it the oldest unawaited go, so a
  // client that never awaits cannot grow the service without bound.
  size_t max_unawaited_jobs = 1024;
  bool record_timing_lines = false;  // CUZK_TIMING lines on stderr
  // false: no span is recorded, so spans, summaries and metrics stay empty
  // (cuzk's CUZK_SPANS=0, which shows what recording costs).
  bool record_spans = true;
  // The latest spans kept for spans() (a trace, a stage summary; about 48
  // bytes each). Metrics need none: they are made of totals. cuzkd keeps 0.
  size_t spans_kept = engine::Recorder::kDefaultCapacity;
  // cuda: a GPU that faulted is reset and self-checked this long after the
  // fault, and again at this interval until it passes and returns to
  // rotation; 0: it stays out until the process restarts.
  std::chrono::milliseconds gpu_recovery_interval{10000};
  // Test-only fault injection: a WitnessBytes partition named "fault:throw",
  // "fault:nonstd" or "fault:bad_alloc" throws a std::runtime_error, an int
  // or std::bad_alloc from its synthesis, and one named "fault:gpu:N" makes
  // GPU N fault for real (cuda::inject_sticky_fault) before it fails, so
  // that tests of a front end can see how it reports them. cuzkd sets it
  // when CUZK_TEST_FAULTS=1.
  bool test_faults = false;
};

// A loaded key, as status and ListKeys report it.
struct KeyInfo {
  std::string id;
  std::string source;  // the file, or "<bytes>" with the name given
  ec::Curve curve = ec::Curve::bn254;
  uint64_t n_vars = 0, n_public = 0, domain_size = 0;
  uint64_t host_bytes = 0;  // the key's bytes held in host memory
  uint64_t jobs = 0;        // jobs not yet finished that prove with it
  std::vector<engine::KeyOnGpu> gpus;  // the GPUs that hold it (none on the CPU backend)
};

// Where one partition's witness comes from.
struct WitnessBytes {
  // A .wtns file's contents: a string, which a front end moves in from a
  // protobuf message's bytes field (cuzkd) without a copy.
  std::string bytes;
  std::string name = "witness";  // for messages
};
struct WitnessFile {
  std::filesystem::path path;  // opened beneath ServiceOptions::witness_dirs
};
// A witness the caller has decoded already (to check it against its circuit,
// cuzk prove --r1cs): copied into the partition's buffer, not decoded again.
struct DecodedWitness {
  std::shared_ptr<const io::Witness> witness;
};
struct NativeWitness {
  std::string circuit;       // a name in ServiceOptions::native_circuits
  uint64_t constraints = 0;  // the size the key was made for (cuzk setup --constraints)
  uint64_t seed = 0;         // the witness
};
// A partition whose a, b, c and assignment its caller computed, as
// bellperson's prover hands them to supraseal-c2 (capi/supraseal_api.cpp):
// values of the key's Fr in Montgomery form, 4 little-endian 64-bit limbs
// each, as blst and cuzk lay them out. Lent, not copied (engine::Lent): a GPU
// uploads them from where they lie (by DMA when page-locked, through a small
// pinned ring when not) and checks them below the modulus on the device; the
// CPU backend copies them once into its buffer, checking them on the way.
// They must stay valid and unchanged until `hold` is let go of, or the job is
// awaited. The only input a key without its circuit's coefficients (a
// bellperson parameter file alone) can prove: its a, b, c come from the host
// whatever ServiceOptions::abc says (engine::abc_on_gpu_for), as do a key's
// with coefficients when a partition gives them.
struct Evaluations {
  // ⟨A_j, w⟩, ⟨B_j, w⟩, ⟨C_j, w⟩ for the constraints j (bellman's input
  // constraints included), at most the key's domain; the rows past them are 0.
  std::span<const uint64_t> a, b, c;
  std::span<const uint64_t> inputs;  // the public inputs, 1 first
  std::span<const uint64_t> aux;     // the private signals
  // r and s (4 limbs each) when the caller chooses them: then every partition
  // of the job must; empty: drawn fresh. Copied at submit.
  std::span<const uint64_t> r, s;
  // Held (may be null) while the service may read the spans above, and let go
  // of as soon as it no longer does: after their upload, their copy, or the
  // partition's end, whichever is first. A caller waits for its deleter to
  // know that its memory is free again before the proof is done.
  std::shared_ptr<const void> hold;
};
// A partition whose assignment its caller computed, for a key that holds its
// circuit's rows (a parameter file with the circuit's matrices,
// io::bellman_key): the service evaluates a, b, c from them, on the GPU where
// it computes them there (abc gpu), else on the host; witness-only proving
// (capi/supraseal_circuit.cpp). Lent as Evaluations are, in the same
// representation, as w's two pieces: where the GPU evaluates a, b, c they go
// up from where they lie; where the host does, they are copied (and checked)
// once into a pool buffer beside them. They must stay valid and unchanged
// until `hold` is let go of, or the job is awaited.
struct Assignment {
  std::span<const uint64_t> inputs;  // the public inputs, 1 first
  std::span<const uint64_t> aux;     // the private signals
  std::span<const uint64_t> r, s;    // as Evaluations' r and s
  std::shared_ptr<const void> hold;  // as Evaluations' hold
};
using PartitionInput =
    std::variant<WitnessBytes, WitnessFile, DecodedWitness, NativeWitness, Evaluations, Assignment>;

using Clock = std::chrono::steady_clock;

using JobId = uint64_t;

struct SubmitOptions {
  int priority = 0;  // higher first; equal priorities in submission order
  Clock::time_point deadline = Clock::time_point::max();
  std::string label;  // free text, shown in status
  // Who submitted it, as the front end names callers (cuzkd: daemon/auth.hpp);
  // shown in status, and asked for with owner() by a front end that lets
  // only its owner see the job.
  std::string owner = {};
  // Called once when the job's last partition is done and await() would
  // hand it over at once; keep it short. It comes from an engine thread, or
  // from within submit() or cancel() (what fails or stops at once): a caller
  // must not hold a lock it takes across those.
  std::function<void(JobId)> on_finished = nullptr;
};

struct PartitionOutcome {
  bool ok() const { return error_kind == ErrorKind::none; }
  std::optional<AnyProved> proved;  // when ok; snarkjs_json makes its files
  ErrorKind error_kind = ErrorKind::none;
  std::string error;         // one line, when not ok
  std::exception_ptr cause;  // what a stage threw, when one did (a cancel, a deadline or a stop throws nothing)
  PhaseTimes times;  // seconds in each phase of the pipeline
  // When not ok: throws an Error of the kind and message, the cause nested in it.
  [[noreturn]] void rethrow() const;
};

struct JobOutcome {
  JobId id = 0;
  std::string key;
  ec::Curve curve = ec::Curve::bn254;
  std::vector<PartitionOutcome> partitions;  // in submission order
  size_t failed() const;
};

enum class JobState { queued, running, done };
const char* job_state_name(JobState s);

// The host's physical memory in bytes (16 GiB where it cannot be read): what
// the defaults of the memory bounds are fractions of.
size_t physical_memory();

struct JobStatus {
  JobId id = 0;
  std::string key, label, owner;
  JobState state = JobState::queued;
  int priority = 0;
  size_t partitions = 0, done = 0, failed = 0;
  double age = 0;  // seconds since submission
};

struct GpuStatus {
  int device = 0;
  std::string name;
  bool healthy = true;
  std::string fault;           // the error that took it out of rotation, when not healthy
  std::string recovery_error;  // why the last recovery failed, while not healthy
  engine::GpuCounters counters;  // since the service started, both curves' engines merged
};

struct Status {
  std::string backend;  // "cpu" or "cuda"
  bool draining = false;
  size_t queued_partitions = 0;   // admitted, not yet synthesizing
  size_t running_partitions = 0;  // synthesizing, proving or finishing
  size_t pending_bytes = 0;       // witness bytes held by unfinished jobs
  std::vector<JobStatus> jobs;    // unfinished jobs, and finished ones not yet awaited
  std::vector<KeyInfo> keys;
  uint64_t key_bytes = 0, max_key_bytes = 0;  // host bytes of the loaded keys, and their budget (0: none)
  std::vector<GpuStatus> gpus;
  uint64_t host_pool_bytes = 0, host_pool_budget = 0, host_pool_allocations = 0, host_pool_waits = 0;
};

// Cumulative counters since the service started, for metrics.
struct Counters {
  uint64_t jobs_submitted = 0, jobs_rejected = 0, partitions_proved = 0;
  // Failed partitions by kind (indexed by ErrorKind).
  std::array<uint64_t, kErrorKindCount> partitions_failed{};
  engine::StageTotals stages;  // per stage and GPU: count, seconds, bytes
};

// A finished partition, as an observer sees it.
struct PartitionEvent {
  JobId job = 0;
  size_t partition = 0;  // its index in the job
  const std::string& key;
  ec::Curve curve;
  const PartitionOutcome& outcome;
};

// Called once per finished partition, from an engine thread: keep it short.
using PartitionObserver = std::function<void(const PartitionEvent&)>;

// The backend a Service's engine of E's keys proves with, for `where` (the
// resolved options.placement) and the options' workers, threads, a/b/c place
// and key budget: for a front end that times one proof at a time through
// what the service proves with (cuzk bench prove). Error(invalid_argument)
// for pageable buffers without the cuda backend.
template <class E>
std::unique_ptr<engine::Backend<E>> make_backend(const Placement& where, const ServiceOptions& options);

// A prepared key of either curve.
using AnyKey = std::variant<groth16::SharedKey<ec::Bn254>, groth16::SharedKey<ec::Bls12_381>>;

// A snarkjs key file read, checked and prepared outside any service (the CLI's
// own file: any path), for add_key: a one-shot front end reads it while its
// service starts (the GPU driver's start, ~0.24 s, happens there). Throws
// Error: not_found (no such file), invalid_argument (not a key, malformed).
// PointChecks::deferred leaves the bulk of the points' checks to the key's
// first use (groth16::PreparedKey::require_checked_points), where a GPU that
// uploads the key checks them in place.
AnyKey read_zkey(const std::filesystem::path& path, groth16::PointChecks checks = groth16::PointChecks::on_read);

class Service {
 public:
  // Resolves the placement (ErrorKind::invalid_argument when cuda is asked
  // for and cannot run). Engines are made when the first key of their curve
  // is loaded.
  explicit Service(ServiceOptions options);
  // drain(), then stops every engine.
  ~Service();
  Service(const Service&) = delete;
  Service& operator=(const Service&) = delete;

  const ServiceOptions& options() const;
  const Placement& placement() const;

  // Loads and validates a key under `id` (default: the file's stem, or
  // `name` for bytes). A key already under that id is replaced: jobs already
  // submitted keep the old one. Errors: invalid_argument (malformed key),
  // not_found (no such file).
  // A path from a client must lie under key_dirs (see any_path_without_dirs);
  // one from the operator's configuration may lie anywhere.
  enum class PathFrom { client, configuration };
  // Keys loaded from a file or bytes are known by their contents' SHA-256.
  // `reuse`: contents a loaded key has are answered with that key, under its
  // id, before anything past the hash is read or allocated (cuzkd's Preload:
  // a client's id is a suggestion, and two loads of one file must not hold it
  // twice). `load`: the key goes under `id` whatever is loaded (a configured
  // or queued key, whose id is what jobs name).
  enum class SameContent { reuse, load };
  KeyInfo load_key(const std::filesystem::path& path, std::string id = "", PathFrom from = PathFrom::client,
                   SameContent same = SameContent::load);
  KeyInfo load_key_bytes(std::vector<uint8_t> bytes, std::string name, std::string id = "",
                         SameContent same = SameContent::load);
  // Forgets the key: its GPU copies go once no job uses them. False if unknown.
  bool evict(const std::string& id);
  std::vector<KeyInfo> keys() const;
  // The key's verification key, as snarkjs's verification_key.json; not_found
  // for an unknown id.
  nlohmann::ordered_json verifying_key(const std::string& id) const;

  // Admits a job or throws Error: not_found (unknown key), invalid_argument
  // (no partitions, a witness of the wrong curve or length, malformed bytes,
  // a path outside the allowed directories, an unknown native circuit),
  // resource_exhausted (beyond the admission bounds), unavailable (draining).
  // Witness bytes are checked here, so a malformed one fails the submit.
  JobId submit(const std::string& key, std::vector<PartitionInput> partitions, SubmitOptions options = {});
  // Waits for the job and hands over its outcome, once: a second await of the
  // same id is not_found. With a timeout, nullopt when it is not done by then.
  std::optional<JobOutcome> await(JobId id, std::optional<Clock::duration> timeout = std::nullopt);
  // Cancels a job: partitions not yet done fail with ErrorKind::cancelled.
  // False if the id is unknown or already awaited.
  bool cancel(JobId id);
  // The owner the job was submitted with (SubmitOptions::owner); nullopt if
  // the id is unknown or already awaited.
  std::optional<std::string> owner(JobId id) const;

  Status status() const;
  Counters counters() const;
  // The recorder's kept spans (for --trace and the summary).
  std::vector<engine::Span> spans() const;
  // "CPU, 1 worker" / "GPU 0: 2 workers each; ...", per engine made.
  std::string describe() const;
  void on_partition(PartitionObserver observer);

  // A key made in memory (a development key of a native circuit, a key of a
  // parameter file read elsewhere), under `id`; `source` names it in
  // messages and status.
  KeyInfo add_key(std::string id, std::shared_ptr<const groth16::PreparedKey<ec::Bn254>> key,
                  std::string source = "<memory>");
  KeyInfo add_key(std::string id, std::shared_ptr<const groth16::PreparedKey<ec::Bls12_381>> key,
                  std::string source = "<memory>");
  KeyInfo add_key(std::string id, AnyKey key, std::string source = "<memory>");
  // Starts the engine of the curve a key file's header names (on a GPU its
  // context, streams and workers), and returns once it runs; nothing where
  // the header does not read. For a front end that reads the key itself
  // (read_zkey) while its service starts, as load_key overlaps the two.
  void start_engine_for(const std::filesystem::path& key_file);

  // Stops admitting (submit answers unavailable) and waits until every
  // admitted job is done; the outcomes stay awaitable.
  void drain();
  // Waits until no job is left (every outcome awaited or forgotten) or
  // `until`, whichever comes first; returns the number of jobs left.
  size_t wait_until_collected(Clock::time_point until);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cuzk::service
