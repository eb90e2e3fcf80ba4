// The Groth16 prover on a GPU: the same two halves as prover.hpp, and for the
// same r and s the very same proof, bit for bit.
//
//   DeviceKey     the proving key's points (A, B1, B2, C, H) and the domain's
//                 twiddles, uploaded once to one GPU and kept there;
//   Worker        a stream and the scratch memory (an arena) one proof at a time
//                 runs in; an engine keeps several per GPU;
//   prove_start   enqueues the uploads of w, a, b, c, the quotient h (3 inverse
//                 and 3 coset NTTs, fused with the coset shift, and the
//                 pointwise product) and the five MSMs, and returns at once;
//   prove_finish  waits for them, then does the CPU backend's prove_finish:
//                 randomness, constant-time assembly, verification.
//
// Host buffers should be pinned (cuda::PinnedBuffer): the copies then run at
// PCIe speed and do not block the caller. Pageable ones work, at a fraction of
// the speed and with the calling thread held for the copy.
#pragma once

#include <memory>
#include <span>

#include "cuzk/cuda/runtime.hpp"
#include "cuzk/groth16/prover.hpp"

namespace cuzk::groth16::cuda {

template <class E>
class DeviceKey {
 public:
  // Uploads onto `device`. `prepared` must outlive the DeviceKey. Throws
  // cuda::Error (naming the size) when the key does not fit.
  DeviceKey(const PreparedKey<E>& prepared, int device);
  ~DeviceKey();
  DeviceKey(const DeviceKey&) = delete;
  DeviceKey& operator=(const DeviceKey&) = delete;

  const PreparedKey<E>& prepared() const { return prepared_; }
  int device() const { return device_; }
  // Device memory the key holds, in bytes.
  size_t bytes() const;

  struct Resident;  // device buffers, defined in the .cu
  const Resident& resident() const { return *resident_; }

 private:
  const PreparedKey<E>& prepared_;
  int device_;
  std::unique_ptr<Resident> resident_;
};

// The streams and scratch memory one proof at a time runs in, on one device:
// kernels on stream(), host-to-device copies on copy_stream() so that they
// overlap the MSMs that need only the witness. The arena relies on the order
// of stream() (see cuda::Arena); use one Worker per concurrent proof.
class Worker {
 public:
  explicit Worker(int device) : device_(device), stream_(device), copy_stream_(device) {}
  int device() const { return device_; }
  cudaStream_t stream() const { return stream_; }
  cudaStream_t copy_stream() const { return copy_stream_; }
  ::cuzk::cuda::Arena& arena() { return arena_; }

 private:
  int device_;
  ::cuzk::cuda::Stream stream_, copy_stream_;
  ::cuzk::cuda::Arena arena_;
};

// GPU times of one proof's stages, in seconds, from events on the worker's
// stream (valid once the proof has been waited for).
struct GpuTimes {
  double upload = 0, ntt = 0, msm_a = 0, msm_b1 = 0, msm_b2 = 0, msm_c = 0, msm_h = 0, total = 0;
};

template <class E>
class PendingGpuProof {
 public:
  PendingGpuProof(PendingGpuProof&&) noexcept;
  PendingGpuProof& operator=(PendingGpuProof&&) noexcept;
  ~PendingGpuProof();

  // Blocks until the GPU work is done; then the MSM results, as prove_start of
  // the CPU backend returns them. Once only.
  PendingProof<E> wait(GpuTimes* times = nullptr);

  struct State;

 private:
  template <class E2>
  friend PendingGpuProof<E2> prove_start(const DeviceKey<E2>&, Worker&, std::span<const typename E2::Fr>,
                                         std::span<const typename E2::Fr>, std::span<const typename E2::Fr>,
                                         std::span<const typename E2::Fr>);
  explicit PendingGpuProof(std::unique_ptr<State> s);
  std::unique_ptr<State> state_;
};

// Enqueues a proof on `worker` (which must be on key.device()). w has n_vars
// values and a, b, c domain_size each; all four must stay valid and unchanged
// until wait(). Throws std::invalid_argument on wrong lengths.
template <class E>
PendingGpuProof<E> prove_start(const DeviceKey<E>& key, Worker& worker, std::span<const typename E::Fr> w,
                               std::span<const typename E::Fr> a, std::span<const typename E::Fr> b,
                               std::span<const typename E::Fr> c);

// wait(), then the CPU backend's prove_finish (fresh r and s, verification).
template <class E>
Proof<E> prove_finish(const DeviceKey<E>& key, PendingGpuProof<E>& pending, GpuTimes* times = nullptr) {
  return groth16::prove_finish(key.prepared(), pending.wait(times));
}

}  // namespace cuzk::groth16::cuda
