// A partition's phase times (cuzk/util/stages.hpp) in the gRPC message
// v1::StageTimes, whose fields are the phases' names with "_s": the one table
// between the two, for cuzkd, which fills the message, and the CLI's client,
// which reads it.
#pragma once

#include <iterator>

#include "cuzk/util/stages.hpp"
#include "cuzk/v1/prover.pb.h"

namespace cuzk::v1 {

struct PhaseField {
  Phase phase;
  double (StageTimes::*get)() const;
  void (StageTimes::*set)(double);
};
inline constexpr PhaseField kPhaseFields[] = {
    {Phase::queue, &StageTimes::queue_s, &StageTimes::set_queue_s},
    {Phase::synthesis, &StageTimes::synthesis_s, &StageTimes::set_synthesis_s},
    {Phase::prove, &StageTimes::prove_s, &StageTimes::set_prove_s},
    {Phase::finish, &StageTimes::finish_s, &StageTimes::set_finish_s},
    {Phase::total, &StageTimes::total_s, &StageTimes::set_total_s},
};
static_assert(std::size(kPhaseFields) == kPhaseCount, "a phase without its field");

inline void fill_times(StageTimes* out, const PhaseTimes& t) {
  for (const PhaseField& f : kPhaseFields) (out->*f.set)(t[f.phase]);
}

inline PhaseTimes phase_times(const StageTimes& m) {
  PhaseTimes t;
  for (const PhaseField& f : kPhaseFields) t[f.phase] = (m.*f.get)();
  return t;
}

}  // namespace cuzk::v1
