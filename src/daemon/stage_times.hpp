// A partition's phase times as the JSON text a queue worker stores with its
// proof (cuzk_partitions.times) for the cuzkd that answers the Await: the
// phases' names are the keys, for the writer and the reader.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "cuzk/util/stages.hpp"
#include "cuzk/v1/phase_times.hpp"

namespace cuzk::daemon {

inline std::string stage_times_json(const PhaseTimes& t) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (Phase p : kPhases) j[phase_name(p)] = t[p];
  return j.dump();
}

// What stage_times_json wrote; zeros for what is absent or not a number
// (a row written by another version, or none at all).
inline PhaseTimes stage_times_from_json(const std::string& text) {
  PhaseTimes t;
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_object()) return t;
  for (Phase p : kPhases)
    if (const auto it = j.find(phase_name(p)); it != j.end() && it->is_number()) t[p] = it->get<double>();
  return t;
}

}  // namespace cuzk::daemon
