// What the engine's workers prove with: the CPU (here) or GPUs
// (engine/cuda_backend.hpp). The engine owns the threads, queues, buffers and
// the finalizer; a backend owns what one worker needs (a GPU's streams and
// its share of the key cache, or nothing on the CPU) and turns one
// partition's host buffer into prove_start's result, recording its stages.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/engine/buffer_pool.hpp"
#include "cuzk/engine/gpu_report.hpp"
#include "cuzk/engine/trace.hpp"
#include "cuzk/groth16/host_inputs.hpp"
#include "cuzk/groth16/prover.hpp"

namespace cuzk::engine {

// Whether the partitions of `key` have a, b, c computed on the device: where
// the backend computes them (Backend::abc_on_gpu) and the key has the rows to
// compute them from. A key of a bellperson parameter file alone has none: its
// partitions give a, b, c from the host (service::Evaluations), beside keys
// with circuits whose a, b, c the GPU computes, on one engine.
template <class E>
bool abc_on_gpu_for(const groth16::PreparedKey<E>& key, bool backend_abc_on_gpu) {
  return backend_abc_on_gpu && !key.key().coefs.empty();
}

// One partition's host buffer: w (n_vars values), then a, b, c (domain_size
// each) when they come from the host.
template <class E>
size_t partition_buffer_bytes(const groth16::PreparedKey<E>& key, bool backend_abc_on_gpu) {
  const bool on_gpu = abc_on_gpu_for(key, backend_abc_on_gpu);
  return (key.key().n_vars() + (on_gpu ? 0 : 3 * key.key().domain_size())) * sizeof(typename E::Fr);
}

// That buffer's parts; a, b, c are empty when they do not come from the host.
template <class E>
struct PartitionSpans {
  std::span<typename E::Fr> w, a, b, c;
};

template <class E>
PartitionSpans<E> partition_spans(const BufferPool::Lease& buffer, const groth16::PreparedKey<E>& key,
                                  bool backend_abc_on_gpu) {
  using Fr = typename E::Fr;
  const size_t n = key.key().n_vars(), rows = abc_on_gpu_for(key, backend_abc_on_gpu) ? 0 : key.key().domain_size();
  Fr* base = buffer.as<Fr>();
  return {{base, n}, {base + n, rows}, {base + n + rows, rows}, {base + n + 2 * rows, rows}};
}

// Records the stages `order`, which ran one after another from `start` on one
// track for the seconds `times` gives them (the backends measure durations,
// not instants); returns where the last ended. `unrecorded`, an interval not
// worth a span of its own, still takes its place in the layout.
inline double record_end_to_end(Recorder& recorder, const Track& track, uint32_t job, uint32_t partition,
                                double start, std::span<const Stage> order, const StageTimes& times,
                                std::optional<Stage> unrecorded = {}) {
  for (Stage s : order) {
    if (s != unrecorded) recorder.record(Span{s, track, job, partition, start, start + times[s]});
    start += times[s];
  }
  return start;
}

// A partition's inputs in host memory and what holds them: either a pool
// buffer they lie in (partition_spans) or `lent`, the caller's memory they
// lie in, lent to the engine (engine.hpp, Lent), which the caller learns is
// free again when the last holder lets go.
template <class E>
struct HeldInputs {
  groth16::HostInputs<typename E::Fr> inputs;
  BufferPool::Lease buffer;
  std::shared_ptr<const void> lent;
  // No stage reads the inputs from now on: the buffer goes back to the pool,
  // the lent memory to its caller.
  void release() {
    inputs = {};
    buffer = {};
    lent.reset();
  }
};

// One partition for a worker: its key and its inputs.
template <class E>
struct WorkItem {
  groth16::SharedKey<E> key;
  uint32_t job = 0, partition = 0;
  HeldInputs<E> host;
};

// Thrown by Backend::prove when a device failed so that every later call on
// it fails too (a sticky CUDA error: an illegal address, an ECC error, a lost
// GPU): the engine retires the device's workers and gives the partition to the
// workers left, until the device is recovered (Engine::readmit_workers).
class DeviceFault : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

template <class E>
class Backend {
 public:
  virtual ~Backend() = default;

  // Worker threads the engine runs, numbered 0 .. workers() - 1.
  virtual unsigned workers() const = 0;
  // Whether the backend computes a, b and c from the rows of keys that have
  // them (abc_on_gpu_for), so that synthesis writes w only (else w, a, b, c
  // into the buffer).
  virtual bool abc_on_gpu() const = 0;
  // Whether prove() reads a lent partition's pieces where they lie (GPUs:
  // each uploaded from the caller's memory), or the engine first copies them
  // into a pool buffer (the CPU prover, which works on a, b, c in place).
  virtual bool reads_lent() const { return false; }
  // The memory the engine's buffers should come from (pinned for GPUs).
  virtual std::unique_ptr<HostMemory> host_memory() const = 0;
  // "CPU, 2 workers", "GPU 0: 2 workers each; a/b/c on the GPU; 1 key upload,
  // 0 of them streamed", for summaries (after the work, for the counts).
  virtual std::string describe() const = 0;

  // prove_start of one partition on worker `worker` (called from that
  // worker's thread only), each stage recorded as a span. Releases the
  // item's inputs (HeldInputs::release) as soon as they have been read, so that
  // synthesis can refill the buffer, or the caller reuse its memory, while
  // the proof runs. Throws on failure.
  virtual groth16::PendingProof<E> prove(unsigned worker, WorkItem<E>& item, Recorder& recorder) = 0;

  // Called as a job of `key` is submitted, before its synthesis: a backend
  // may start readying the key (its upload onto the GPUs) on threads of its
  // own, so that the two overlap, recording that work as spans of job `job`.
  // Returns at once; failures are left to the job's workers, which meet them
  // again.
  virtual void prefetch(const groth16::SharedKey<E>& key, uint32_t job, Recorder& recorder) {
    (void)key, (void)job, (void)recorder;
  }

  // Drops whatever the backend keeps for `key` (its copies on GPUs, which hold
  // the key): a copy a worker is proving with goes when the worker is done
  // with it, and a later partition of the key makes a new one.
  virtual void forget(const groth16::PreparedKey<E>& key) { (void)key; }

  // Whether `worker` may still prove: false once its device has faulted.
  virtual bool worker_usable(unsigned worker) const {
    (void)worker;
    return true;
  }
  // The GPUs' states; none for the CPU.
  virtual std::vector<GpuReport> gpu_reports() const { return {}; }
  // The GPUs that hold `key` now (one busy uploading is left out).
  virtual std::vector<KeyOnGpu> gpus_holding(const groth16::PreparedKey<E>& key) const {
    (void)key;
    return {};
  }
};

// `workers` partitions proved at once on the CPU, each prove_start on
// `threads` threads (0: all).
template <class E>
std::unique_ptr<Backend<E>> cpu_backend(unsigned workers, unsigned threads = 0);

}  // namespace cuzk::engine
