// The engine's CPU backend: each worker runs the CPU prove_start on its
// partition's pool buffer, in place (it consumes a, b, c; a lent partition is
// copied into one first: Backend::reads_lent), and lays its stages end to end
// on the worker's track, since they run one after another.
#include "cuzk/ec/curves.hpp"
#include "cuzk/engine/backend.hpp"
#include "cuzk/util/plural.hpp"

namespace cuzk::engine {

namespace {

template <class E>
class CpuBackend final : public Backend<E> {
 public:
  using Fr = typename E::Fr;

  CpuBackend(unsigned workers, unsigned threads) : workers_(workers), threads_(threads) {}

  unsigned workers() const override { return workers_; }
  bool abc_on_gpu() const override { return false; }
  std::unique_ptr<HostMemory> host_memory() const override { return pageable_memory(); }
  std::string describe() const override { return "CPU, " + count(workers_, "worker"); }

  groth16::PendingProof<E> prove(unsigned worker, WorkItem<E>& item, Recorder& recorder) override {
    const Track track{Track::Kind::worker, -1, (int)worker};
    const auto parts = partition_spans(item.host.buffer, *item.key, false);
    StageTimes times;
    const double start = recorder.now();
    auto proof = groth16::prove_start(*item.key, std::span<const Fr>(parts.w), parts.a, parts.b, parts.c, threads_,
                                      &times);
    item.host.release();  // a, b, c are consumed
    record_end_to_end(recorder, track, item.job, item.partition, start, groth16::kStartStages, times);
    return proof;
  }

 private:
  unsigned workers_, threads_;
};

}  // namespace

template <class E>
std::unique_ptr<Backend<E>> cpu_backend(unsigned workers, unsigned threads) {
  return std::make_unique<CpuBackend<E>>(workers, threads);
}

template std::unique_ptr<Backend<ec::Bn254>> cpu_backend(unsigned, unsigned);
template std::unique_ptr<Backend<ec::Bls12_381>> cpu_backend(unsigned, unsigned);

}  // namespace cuzk::engine
