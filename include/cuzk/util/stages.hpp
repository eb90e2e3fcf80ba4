// The one vocabulary of proof times, below every layer that measures or
// reports them:
//   - a Stage is a piece of one partition's work (an MSM, the NTTs, an upload,
//     the assembly): what the provers measure, the engine records as spans and
//     cuzkd counts in its metrics;
//   - a Phase is a partition's way through the pipeline, from one hand-over to
//     the next (queued, synthesizing, proving, finishing): what a job's outcome
//     reports through the service, cuzkd's gRPC and the C API.
// Each is listed once below, with its name; the count, the names and the
// list to iterate come from that one list. A format outside (a proto message,
// a C struct) is translated by one table keyed by the enum.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>

namespace cuzk {

// Each stage once, in the order spans, summaries and metrics list them: the
// enumerator, its name, and whether it keeps a GPU's multiprocessors busy
// (what "GPU busy" counts). key_upload is a proving key going onto a GPU, once
// per key and GPU; abc is a, b, c made from the key's rows on the GPU; finish
// is the assembly of the proof from the MSMs and the randomness.
#define CUZK_STAGES(X)            \
  X(synthesis, "synthesis", false) \
  X(key_upload, "key upload", false) \
  X(upload, "upload", false)       \
  X(abc, "abc", true)              \
  X(ntt, "ntt", true)              \
  X(msm_a, "msm A", true)          \
  X(msm_b1, "msm B1", true)        \
  X(msm_b2, "msm B2", true)        \
  X(msm_c, "msm C", true)          \
  X(msm_h, "msm H", true)          \
  X(lock_wait, "lock wait", false) \
  X(lock_held, "lock held", false) \
  X(finish, "finish", false)       \
  X(verify, "verify", false)

// Each phase once: queue (submitted to synthesis start), synthesis (reading or
// synthesizing the witness, and a/b/c), prove (waiting for a worker, upload and
// kernels, or the CPU proof), finish (waiting for a finalizer, assembly and
// verification), total (submitted to done).
#define CUZK_PHASES(X) X(queue) X(synthesis) X(prove) X(finish) X(total)

#define CUZK_ENUMERATOR(id, ...) id,
enum class Stage : uint8_t { CUZK_STAGES(CUZK_ENUMERATOR) };
enum class Phase : uint8_t { CUZK_PHASES(CUZK_ENUMERATOR) };
#undef CUZK_ENUMERATOR

namespace detail {
struct StageInfo {
  const char* name;
  bool kernel;
};
#define CUZK_STAGE_INFO(id, name, kernel) StageInfo{name, kernel},
inline constexpr StageInfo kStageInfo[] = {CUZK_STAGES(CUZK_STAGE_INFO)};
#undef CUZK_STAGE_INFO
#define CUZK_PHASE_NAME(id) #id,
inline constexpr const char* kPhaseNames[] = {CUZK_PHASES(CUZK_PHASE_NAME)};
#undef CUZK_PHASE_NAME

template <class Enum, size_t N>
constexpr std::array<Enum, N> every() {
  return []<size_t... I>(std::index_sequence<I...>) { return std::array<Enum, N>{Enum(I)...}; }(
      std::make_index_sequence<N>());
}
}  // namespace detail

#undef CUZK_STAGES
#undef CUZK_PHASES

inline constexpr size_t kStageCount = std::size(detail::kStageInfo);
inline constexpr size_t kPhaseCount = std::size(detail::kPhaseNames);
// Every stage (phase), in order.
inline constexpr std::array<Stage, kStageCount> kStages = detail::every<Stage, kStageCount>();
inline constexpr std::array<Phase, kPhaseCount> kPhases = detail::every<Phase, kPhaseCount>();

// "msm A", "lock wait": the name of spans, CUZK_TIMING lines and metrics labels.
constexpr const char* stage_name(Stage s) { return detail::kStageInfo[size_t(s)].name; }
constexpr bool is_kernel_stage(Stage s) { return detail::kStageInfo[size_t(s)].kernel; }
// "queue", "prove": the name of a phase in JSON, metrics labels and tables.
constexpr const char* phase_name(Phase p) { return detail::kPhaseNames[size_t(p)]; }

// Seconds per stage or phase; one never reached, or not measured, is 0.
template <class Key, size_t N>
class SecondsBy {
 public:
  constexpr double& operator[](Key k) { return seconds_[size_t(k)]; }
  constexpr double operator[](Key k) const { return seconds_[size_t(k)]; }

 private:
  std::array<double, N> seconds_{};
};
using StageTimes = SecondsBy<Stage, kStageCount>;
using PhaseTimes = SecondsBy<Phase, kPhaseCount>;

// The kernels' seconds: the stages that ran one after another on a GPU
// worker's stream (or the CPU's MSMs and NTTs), end to end.
constexpr double kernel_seconds(const StageTimes& t) {
  double sum = 0;
  for (Stage s : kStages)
    if (is_kernel_stage(s)) sum += t[s];
  return sum;
}

}  // namespace cuzk
