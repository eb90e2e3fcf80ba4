// A partition's stage times in the two forms cuzkd passes them on: the
// gRPC message, and the JSON text a queue worker stores with its proof
// (cuzk_partitions.times) for the cuzkd that answers the Await. One spelling
// of the JSON keys for the writer and the reader.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "cuzk/service/service.hpp"
#include "cuzk/v1/prover.pb.h"

namespace cuzk::daemon {

inline void fill_times(v1::StageTimes* out, const service::StageTimes& t) {
  out->set_queue_s(t.queue);
  out->set_synthesis_s(t.synthesis);
  out->set_prove_s(t.prove);
  out->set_finish_s(t.finish);
  out->set_total_s(t.total);
}

inline std::string stage_times_json(const service::StageTimes& t) {
  nlohmann::ordered_json j{{"queue", t.queue}, {"synthesis", t.synthesis}, {"prove", t.prove},
                           {"finish", t.finish}, {"total", t.total}};
  return j.dump();
}

// What stage_times_json wrote; zeros for what is absent or not a number
// (a row written by another version, or none at all).
inline service::StageTimes stage_times_from_json(const std::string& text) {
  service::StageTimes t;
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_object()) return t;
  const auto at = [&](const char* k) { return j.contains(k) && j[k].is_number() ? j[k].get<double>() : 0.0; };
  t.queue = at("queue");
  t.synthesis = at("synthesis");
  t.prove = at("prove");
  t.finish = at("finish");
  t.total = at("total");
  return t;
}

}  // namespace cuzk::daemon
