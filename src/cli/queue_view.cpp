#include "queue_view.hpp"

#include <cstdio>
#include <filesystem>

namespace cuzk::cli {

namespace {

// One row of the host table.
std::string row(const std::string& host, const std::string& claimed, const std::string& per_minute,
                const std::string& proofs) {
  char line[256];
  std::snprintf(line, sizeof line, "%-32s %8s %12s %10s\n", host.c_str(), claimed.c_str(), per_minute.c_str(),
                proofs.c_str());
  return line;
}

}  // namespace

std::string fleet_table(const queue::FleetStatus& fleet) {
  std::string out = "partitions:";
  for (const auto& [state, n] : fleet.partitions) out += " " + state + " " + std::to_string(n);
  if (fleet.partitions.empty()) out += " (none)";
  out += "\n" + row("host", "claimed", "proofs/min", "proofs");
  for (const queue::HostStatus& h : fleet.hosts)
    out += row(h.host, std::to_string(h.claimed), std::to_string(h.proofs_last_minute), std::to_string(h.proofs));
  out += "partitions with failed attempts: " + std::to_string(fleet.partitions_with_failed_attempts) + " (" +
         std::to_string(fleet.failed_attempts) + " attempts)\n";
  return out;
}

std::optional<std::string> queued_witness_url(const std::string& path, bool by_path) {
  if (!by_path && std::filesystem::file_size(path) <= queue::QueueOptions{}.max_inline_witness) return std::nullopt;
  return "file://" + std::filesystem::absolute(path).lexically_normal().string();
}

}  // namespace cuzk::cli
