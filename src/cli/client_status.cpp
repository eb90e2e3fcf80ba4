#include "client_status.hpp"

#include <google/protobuf/util/json_util.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "client_jobs.hpp"
#include "queue_view.hpp"

namespace cuzk::cli {

namespace {

std::string mib(uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", (double)bytes / (1 << 20));
  return text;
}

// "2^k" for a power of two, else the number.
std::string domain(uint64_t n) {
  if (n && std::has_single_bit(n)) return "2^" + std::to_string(std::countr_zero(n));
  return std::to_string(n);
}

// "0, 1 (streamed)": the GPUs that hold a key, "-" for none.
std::string on_gpus(const v1::KeyInfo& key) {
  std::string out;
  for (const v1::KeyOnGpu& g : key.gpus())
    out += (out.empty() ? "" : ", ") + std::to_string(g.device()) + (g.streamed() ? " (streamed)" : "");
  return out.empty() ? "-" : out;
}

}  // namespace

std::string key_line(const v1::KeyInfo& key) {
  return "key " + key.id() + ": " + curve_name(key.curve()) + ", " + std::to_string(key.n_vars()) + " variables, " +
         std::to_string(key.n_public()) + " public, domain " + domain(key.domain_size()) + ", " +
         mib(key.host_bytes()) + " MiB in memory, from " + key.source();
}

std::string status_table(const v1::StatusReply& s, const std::string& address) {
  std::string out = "cuzkd at " + address + (s.version().empty() ? "" : " (" + s.version() + ")") + ": " +
                    s.backend() + " backend" + (s.draining() ? ", draining (no new jobs)" : "") + "\n";
  out += "  partitions: " + std::to_string(s.queued_partitions()) + " queued, " +
         std::to_string(s.running_partitions()) + " running; witness bytes held: " + mib(s.pending_bytes()) +
         " MiB\n";
  out += "  host buffer pool: " + mib(s.host_pool_bytes()) + " of " + mib(s.host_pool_budget()) + " MiB, " +
         std::to_string(s.host_pool_allocations()) + " allocations, " + std::to_string(s.host_pool_waits()) +
         " waits\n";

  std::vector<Row> keys;
  for (const v1::KeyInfo& k : s.keys())
    keys.push_back({k.id(), curve_name(k.curve()), std::to_string(k.n_vars()), std::to_string(k.n_public()),
                    domain(k.domain_size()), mib(k.host_bytes()), on_gpus(k), std::to_string(k.jobs()), k.source()});
  out += "keys\n" + text_table({"id", "curve", "variables", "public", "domain", "host MiB", "on GPUs", "jobs", "source"},
                               keys);

  std::vector<Row> jobs;
  for (const v1::JobStatus& j : s.jobs()) {
    char age[32];
    std::snprintf(age, sizeof age, "%.1f", j.age_s());
    jobs.push_back({std::to_string(j.job_id()), j.key_id(), j.label(), j.state(), std::to_string(j.priority()),
                    std::to_string(j.partitions()), std::to_string(j.done()), std::to_string(j.failed()), age});
  }
  out += "jobs\n" +
         text_table({"id", "key", "label", "state", "priority", "partitions", "done", "failed", "age s"}, jobs);

  std::vector<Row> gpus;
  for (const v1::GpuStatus& g : s.gpus()) {
    std::string health = "healthy";
    if (!g.healthy()) health = "faulted: " + g.fault();
    if (!g.recovery_error().empty()) health += "; recovery failed: " + g.recovery_error();
    gpus.push_back({std::to_string(g.device()), g.name(), health, std::to_string(g.faults()) + " / " +
                    std::to_string(g.recoveries()), mib(g.key_cache_bytes()) + " / " + mib(g.key_budget_bytes()),
                    std::to_string(g.key_uploads()), std::to_string(g.key_hits()), std::to_string(g.key_evictions())});
  }
  if (!gpus.empty() || s.backend() == "cuda")
    out += "gpus\n" + text_table({"device", "name", "health", "faults / recoveries", "key MiB / budget", "uploads", "hits",
                              "evictions"},
                             gpus);
  return out;
}

std::string status_json(const v1::StatusReply& status) {
  google::protobuf::util::JsonPrintOptions options;
  options.add_whitespace = true;
  options.always_print_primitive_fields = true;
  options.preserve_proto_field_names = true;
  std::string json;
  if (const auto result = google::protobuf::util::MessageToJsonString(status, &json, options); !result.ok())
    throw std::runtime_error("cuzkd's status as JSON: " + std::string(result.message()));
  return json;
}

}  // namespace cuzk::cli
