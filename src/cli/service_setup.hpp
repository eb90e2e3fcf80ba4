// The service as the proving commands build it from their flags: prove (one
// partition), prove-batch (one key, many witnesses) and bench pipeline.
#pragma once

#include <cstdint>

#include "commands.hpp"
#include "cuzk/service/example_circuits.hpp"
#include "cuzk/service/service.hpp"
#include "timing.hpp"

namespace cuzk::cli {

// native_jobs: the partitions are native circuits (the examples, registered
// here), whose synthesis computes a, b, c anyway, so that --abc auto keeps
// them on the host.
inline service::ServiceOptions service_options(const RunOptions& run, const EngineFlags& e, bool native_jobs) {
  service::ServiceOptions o;
  o.placement = placement_request(run);
  o.threads = run.threads;
  o.synthesis_threads = e.synthesis_threads;
  o.cpu_workers = e.workers;
  o.workers_per_gpu = e.workers_per_gpu;
  // --abc is checked against the three names when it is parsed.
  o.abc = service::abc_place_named(e.abc).value_or(service::AbcPlace::automatic);
  if (native_jobs) {
    o.native_circuits = service::example_circuits();
    if (o.abc == service::AbcPlace::automatic) o.abc = service::AbcPlace::host;
  }
  o.pageable = e.pageable;
  o.key_budget = e.key_budget_mib << 20;
  o.host_budget = e.host_budget;
  // A command's key lives as long as the command: mapping it saves a copy.
  o.key_storage = service::KeyStorage::map;
  o.record_timing_lines = timing_lines();
  o.record_spans = spans_recorded();
  // A command submits all its work at once and waits for it.
  o.max_pending_partitions = SIZE_MAX;
  return o;
}

// "pinned" or "pageable": where the service's host buffers come from.
inline const char* memory_name(const service::ServiceOptions& o, const Placement& where) {
  return where.backend == BackendKind::cuda && !o.pageable ? "pinned" : "pageable";
}

}  // namespace cuzk::cli
