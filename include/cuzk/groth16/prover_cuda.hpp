// The Groth16 prover on a GPU: the same two halves as prover.hpp, for keys in
// either convention (keys.hpp), and for the same r and s the very same proof,
// bit for bit.
//
//   DeviceKey      a proving key on one GPU: its points (A, B1, B2, C, H)
//                  resident, or streamed from page-locked host memory in
//                  double-buffered chunks when the GPU cannot hold them; the
//                  domain's twiddles; under bellman's convention the lists of
//                  A's and B's dense variables; optionally the A and B rows,
//                  so that a, b and c are computed on the GPU and only the
//                  witness crosses PCIe;
//   Worker         a stream, a copy stream and the scratch memory (an arena)
//                  one proof at a time runs in; an engine keeps several per GPU;
//   upload_inputs  enqueues the copies of w (and a, b, c) on the copy stream;
//   prove_start    enqueues the quotient h (or first a, b, c from the rows),
//                  3 inverse and 3 coset NTTs fused with the coset shift, the
//                  pointwise product (bellman: divided by Z, then a coset
//                  inverse NTT back to coefficients), and the five MSMs
//                  (bellman: A's and B's scalars gathered from w first); it
//                  waits once, for the classification of the witness scalars
//                  (their significant ones and ones, shared by the witness
//                  MSMs A, B1, B2 and C), and returns with the rest queued
//                  (H, over random scalars, classifies nothing);
//   prove_finish   waits for them, then does the CPU backend's prove_finish:
//                  randomness, constant-time assembly, verification.
//
// Host inputs come in pieces (host_inputs.hpp), each uploaded where it lies:
// page-locked pieces (cuda::PinnedBuffer, cudaHostAlloc'd or registered) by
// DMA without blocking the caller; pageable ones through the worker's ring of
// pinned blocks (cuda::StagedUpload), the calling thread filling each block
// while the previous ones are on their way. Every uploaded value is checked
// below the modulus on the device; wait() fails when one is not.
#pragma once

#include <memory>
#include <optional>
#include <span>

#include "cuzk/cuda/runtime.hpp"
#include "cuzk/groth16/host_inputs.hpp"
#include "cuzk/groth16/prover.hpp"

namespace cuzk::groth16::gpu {

// A key's A, B1, B2, C and H made on a GPU (setup_cuda.hpp), which they never
// leave: ProvingKey::on_gpu holds them, and every DeviceKey of that key on
// that GPU reads them in place.
template <class E>
struct DevicePoints {
  cuda::DeviceBuffer<ec::Affine<typename E::G1>> a, b1, c, h;
  cuda::DeviceBuffer<ec::Affine<typename E::G2>> b2;
};

struct DeviceKeyOptions {
  // Keep the points in host memory (page-locked in place) and stream each MSM's
  // bases in chunks of stream_chunk G2 points (or as many bytes of G1's: twice
  // the points), two chunks on the GPU at a time.
  bool streamed = false;
  size_t stream_chunk = size_t(1) << 22;
  // Upload the A and B rows, so that prove_start can compute a, b, c itself.
  // Ignored for a key without coefficients (a bellperson parameter file
  // alone), whose a, b, c come from the host.
  bool matrices = false;
};

template <class E>
class DeviceKey {
 public:
  // Uploads onto `device`, holding `prepared` (whose points a streamed key
  // reads, and whose verifying key prove_finish checks with) while it lives.
  // Throws cuda::Error (naming the sizes) when what must be resident does not
  // fit, or when the key's points were made on another GPU (or streaming is
  // asked of such a key).
  DeviceKey(SharedKey<E> prepared, int device, DeviceKeyOptions options = {});
  // Frees the device memory on the key's device, from any thread.
  ~DeviceKey();
  DeviceKey(const DeviceKey&) = delete;
  DeviceKey& operator=(const DeviceKey&) = delete;

  const PreparedKey<E>& prepared() const { return *prepared_; }
  const SharedKey<E>& prepared_handle() const { return prepared_; }
  int device() const { return device_; }
  const DeviceKeyOptions& options() const { return options_; }
  bool streamed() const { return options_.streamed; }
  // Whether the rows are on the GPU: asked for, and the key has coefficients.
  bool has_matrices() const { return options_.matrices; }
  // Device memory this DeviceKey holds, in bytes (points a GPU setup made
  // belong to their ProvingKey and are not counted: they outlive it).
  size_t bytes() const;

  // Device bytes a key would hold: its points (unless streamed, or made on
  // the GPU, where they belong to the key), the domain's tables, the dense
  // variables' lists (bellman) and the rows (if asked for and the key has
  // them). What a cache budgets by.
  static size_t bytes_needed(const PreparedKey<E>& prepared, const DeviceKeyOptions& options);

  struct Resident;  // device buffers, defined in the .cu
  const Resident& resident() const { return *resident_; }

  // Where the upload's time went, in seconds: the device memory and the
  // domain's tables, the host's side of the points' copies (they return once
  // their source is read; points_ring_wait of it waiting for a staging block
  // to come free, where the copy engine was the limit), the wait for the
  // rows' sort (it runs beside both), the rows' copies, and the wait for what
  // was still on its way.
  struct UploadTimes {
    double prepare = 0, points = 0, points_ring_wait = 0, sort_wait = 0, rows = 0, wait = 0;
    double total() const { return prepare + points + sort_wait + rows + wait; }
  };
  const UploadTimes& upload_times() const { return upload_times_; }

 private:
  SharedKey<E> prepared_;
  int device_;
  DeviceKeyOptions options_;
  std::unique_ptr<Resident> resident_;
  UploadTimes upload_times_;
};

// The streams and scratch memory one proof at a time runs in, on one device:
// kernels on stream(), host-to-device copies on copy_stream(), pageable host
// inputs through staging() (its pinned blocks allocated on first use and kept),
// and the pinned memory that a proof's checks of its values (the first index
// of each piece not below the modulus, in a block of the proof's scratch) are
// read back into with its results. The arena and that memory rely on the
// order of stream() (see cuda::Arena); use one Worker per concurrent proof,
// from prove_start to wait(). It holds no device memory of its own beyond the
// arena's, so that the memory plan (proof_device_bytes) counts all of it.
class Worker {
 public:
  // A proof's checks: one slot per piece of w, then a, b, c.
  static constexpr size_t kCheckSlots = kMaxWitnessPieces + 3;

  explicit Worker(int device) : device_(device), stream_(device), copy_stream_(device) {
    cuda::DeviceScope on(device);
    staging_.emplace(copy_stream_);
    first_bad_read_ = cuda::PinnedBuffer<unsigned long long>(kCheckSlots);
  }
  int device() const { return device_; }
  cudaStream_t stream() const { return stream_; }
  cudaStream_t copy_stream() const { return copy_stream_; }
  cuda::Arena& arena() { return arena_; }
  cuda::StagedUpload& staging() { return *staging_; }
  unsigned long long* first_bad_read() { return first_bad_read_.data(); }

 private:
  int device_;
  cuda::Stream stream_, copy_stream_;
  cuda::Arena arena_;
  std::optional<cuda::StagedUpload> staging_;  // made on the worker's device, for its copy stream
  cuda::PinnedBuffer<unsigned long long> first_bad_read_;
};

template <class E>
class PendingGpuProof;

// How a proof's a, b and c meet on the device. together: all three go up
// with w (or are computed from the key's rows) and the quotient runs on
// three vectors, w's block still held. in_turn, for a GPU short of memory:
// w's block goes back once the witness MSMs are enqueued, and prove_start
// uploads a and b into two vectors, takes their product, then c into the
// second: two vectors of the domain at the peak instead of three plus w, the
// same h bit for bit. The caller's host a, b, c are then read until the
// proof's wait(), not only until wait_uploaded().
enum class AbcSchedule { together, in_turn };

// Device bytes one proof of `key` takes at its peak beside the key itself:
// the witness scalars and their classification, a streamed key's staging
// blocks, the a/b/c vectors of `schedule`, and the scratch of MSM chunks of
// 2^21 (G1) and 2^20 (G2) significant scalars, the least a plan keeps for
// them (an MSM takes larger chunks when it finds more free memory).
template <class E>
size_t proof_device_bytes(const PreparedKey<E>& prepared, const DeviceKeyOptions& options, AbcSchedule schedule);
template <class E>
size_t proof_device_bytes(const DeviceKey<E>& key, AbcSchedule schedule) {
  return proof_device_bytes(key.prepared(), key.options(), schedule);
}

// Where a key goes on a GPU with `free` bytes: resident when its points and
// the least a proof of it needs (in_turn) fit there, else streamed (also when
// `options` asks for it), in chunks halved from options.stream_chunk down to
// kSmallestStreamChunk points until a proof fits beside the staging blocks,
// or, where one fits, doubled up to kLargestStreamChunk while the two staging
// blocks take at most 1/kStagingShareOfFree of `free` and a proof still fits
// (chunks count G2 points; G1's are twice as many in the same bytes).
// Returns the options to make the DeviceKey with; throws cuda::Error naming
// the shortfall when not even that fits (try_plan_residency: nullopt).
inline constexpr size_t kSmallestStreamChunk = size_t(1) << 18;
inline constexpr size_t kLargestStreamChunk = size_t(1) << 24;
inline constexpr size_t kStagingShareOfFree = 6;
template <class E>
DeviceKeyOptions plan_residency(const PreparedKey<E>& prepared, DeviceKeyOptions options, size_t free);
template <class E>
std::optional<DeviceKeyOptions> try_plan_residency(const PreparedKey<E>& prepared, DeviceKeyOptions options,
                                                   size_t free);

// together when it fits in `room` bytes or when a, b, c are computed from the
// key's rows (has_abc false: they are made on the GPU from w, all three at
// once), else in_turn.
template <class E>
AbcSchedule choose_schedule(const DeviceKey<E>& key, bool has_abc, size_t room);

// One proof's w and a, b, c on the device, with the events of their copies.
template <class E>
class DeviceInputs {
 public:
  DeviceInputs(DeviceInputs&&) noexcept;
  DeviceInputs& operator=(DeviceInputs&&) noexcept;
  ~DeviceInputs();

  // Blocks until the copies enqueued so far are done: from then on the host
  // buffers may be reused, unless host_abc_pending(). Returns the copies' GPU
  // time in seconds.
  double wait_uploaded();
  // Blocks until w is on the device, all that the witness MSMs need: a, b, c
  // may still be on their way (prove_start's quotient waits for them on the
  // GPU), so that a single proof's kernels start without them.
  void wait_witness() const;
  // Bytes copied from the host (w, and a, b, c unless they go up in turn).
  size_t bytes() const;
  // The in_turn schedule: prove_start uploads a, b, c, so the caller keeps
  // them until the proof's wait().
  bool host_abc_pending() const;

  struct State;

 private:
  template <class E2>
  friend DeviceInputs<E2> upload_inputs(const DeviceKey<E2>&, Worker&, const HostInputs<typename E2::Fr>&,
                                        std::optional<AbcSchedule>);
  template <class E2>
  friend PendingGpuProof<E2> prove_start(const DeviceKey<E2>&, Worker&, DeviceInputs<E2>);
  explicit DeviceInputs(std::unique_ptr<State> s);
  std::unique_ptr<State> state_;
};

// Enqueues the copies of w's pieces (n_vars values together) and of a, b, c
// (`rows` each, the device rows past them zeroed) on the worker's copy
// stream; under the in_turn schedule a, b and c are copied later, by
// prove_start. a, b and c may all be empty when the key has its matrices:
// prove_start then computes them on the GPU. The host pieces must stay valid
// and unchanged until wait_uploaded(), or the proof's wait() when
// host_abc_pending(). The schedule, unless given, is choose_schedule's for the
// device's free memory and the worker's free scratch. Throws
// std::invalid_argument on wrong lengths (HostInputs::check_shape) or a worker
// on another GPU.
template <class E>
DeviceInputs<E> upload_inputs(const DeviceKey<E>& key, Worker& worker, const HostInputs<typename E::Fr>& in,
                              std::optional<AbcSchedule> schedule = {});
// Whole vectors: w (n_vars values), a, b, c (domain_size each, or none).
template <class E>
DeviceInputs<E> upload_inputs(const DeviceKey<E>& key, Worker& worker, std::span<const typename E::Fr> w,
                              std::span<const typename E::Fr> a, std::span<const typename E::Fr> b,
                              std::span<const typename E::Fr> c, std::optional<AbcSchedule> schedule = {}) {
  if (!(a.empty() && b.empty() && c.empty()))
    for (const auto* v : {&a, &b, &c}) check_length("an a/b/c buffer", v->size(), key.prepared().key().domain_size());
  return upload_inputs<E>(key, worker, HostInputs<typename E::Fr>::whole(w, a, b, c), schedule);
}

// The kernel stages of a GPU proof, in the order they run on the worker's stream.
inline constexpr Stage kGpuKernelStages[] = {Stage::msm_a, Stage::msm_b1, Stage::msm_b2, Stage::msm_c,
                                            Stage::abc,   Stage::ntt,    Stage::msm_h};

template <class E>
class PendingGpuProof {
 public:
  PendingGpuProof(PendingGpuProof&&) noexcept;
  PendingGpuProof& operator=(PendingGpuProof&&) noexcept;
  ~PendingGpuProof();

  // Blocks until the GPU work is done; then the MSM results, as prove_start of
  // the CPU backend returns them. Once only. `times` gets the GPU times of the
  // stages, from events on the worker's streams: upload (the inputs' copies:
  // w, and a, b, c when given together; a, b, c going up in turn count in abc
  // (a and b) and ntt (c)), then the kernel stages, which ran one after another
  // on the worker's stream in the order kGpuKernelStages and add up to
  // kernel_seconds(); for a streamed key they include the waits for its
  // chunks' copies. Its other stages are left as they are. Throws
  // std::invalid_argument (not_below_modulus) when an uploaded value is not
  // below the modulus.
  PendingProof<E> wait(StageTimes* times = nullptr);
  // The inputs' wait_uploaded(), for a caller that let prove_start take them
  // before their copies ended (DeviceInputs::wait_witness): from its return
  // the host buffers may be reused, unless the schedule is in_turn.
  double wait_uploaded();

  struct State;

 private:
  template <class E2>
  friend PendingGpuProof<E2> prove_start(const DeviceKey<E2>&, Worker&, DeviceInputs<E2>);
  explicit PendingGpuProof(std::unique_ptr<State> s);
  std::unique_ptr<State> state_;
};

// Enqueues a proof from uploaded inputs on `worker`: the witness MSMs as soon
// as w is on the device, the quotient once a, b, c are. The inputs must have
// been uploaded for this key on this worker (std::invalid_argument otherwise).
template <class E>
PendingGpuProof<E> prove_start(const DeviceKey<E>& key, Worker& worker, DeviceInputs<E> inputs);

// upload_inputs then prove_start: the uploads of a, b and c hide behind the
// witness MSMs.
template <class E>
PendingGpuProof<E> prove_start(const DeviceKey<E>& key, Worker& worker, std::span<const typename E::Fr> w,
                               std::span<const typename E::Fr> a, std::span<const typename E::Fr> b,
                               std::span<const typename E::Fr> c) {
  return prove_start<E>(key, worker, upload_inputs<E>(key, worker, w, a, b, c));
}

// wait(), then the CPU backend's prove_finish (fresh r and s, verification).
template <class E>
Proof<E> prove_finish(const DeviceKey<E>& key, PendingGpuProof<E>& pending, StageTimes* times = nullptr) {
  return groth16::prove_finish(key.prepared(), pending.wait(times));
}

}  // namespace cuzk::groth16::gpu
