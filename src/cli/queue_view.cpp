#include "queue_view.hpp"

#include <algorithm>
#include <filesystem>

namespace cuzk::cli {

namespace {

// `text` padded with spaces to `width`, on the left (right-aligned) or the right.
std::string padded(const std::string& text, size_t width, bool right_aligned) {
  if (text.size() >= width) return text;
  const std::string pad(width - text.size(), ' ');
  return right_aligned ? pad + text : text + pad;
}

// One row of the host table; a host name longer than its column is written whole.
std::string row(const std::string& host, const std::string& claimed, const std::string& per_minute,
                const std::string& proofs) {
  return padded(host, 32, false) + " " + padded(claimed, 8, true) + " " + padded(per_minute, 12, true) + " " +
         padded(proofs, 10, true) + "\n";
}

}  // namespace

std::string fleet_table(const queue::FleetStatus& fleet) {
  std::string out = "partitions:";
  for (const auto& [state, n] : fleet.partitions) out += " " + state + " " + std::to_string(n);
  if (fleet.partitions.empty()) out += " (none)";
  out += '\n';
  out += row("host", "claimed", "proofs/min", "proofs");
  for (const queue::HostStatus& h : fleet.hosts)
    out += row(h.host, std::to_string(h.claimed), std::to_string(h.proofs_last_minute), std::to_string(h.proofs));
  out += "partitions with failed attempts: " + std::to_string(fleet.partitions_with_failed_attempts) + " (" +
         std::to_string(fleet.failed_attempts) + " attempts)\n";
  return out;
}

std::string text_table(const Row& header, const std::vector<Row>& rows) {
  if (rows.empty()) return "  (none)\n";
  std::vector<size_t> width(header.size());
  for (size_t c = 0; c < header.size(); ++c) {
    width[c] = header[c].size();
    for (const Row& r : rows) width[c] = std::max(width[c], r[c].size());
  }
  std::string out;
  const auto line = [&](const Row& r) {
    std::string text;
    for (size_t c = 0; c < r.size(); ++c) text += "  " + r[c] + std::string(width[c] - r[c].size(), ' ');
    while (text.back() == ' ') text.pop_back();
    out += text + "\n";
  };
  line(header);
  for (const Row& r : rows) line(r);
  return out;
}

std::string keys_table(const std::vector<queue::KeyListing>& keys) {
  std::vector<Row> rows;
  for (const queue::KeyListing& k : keys)
    rows.push_back({k.key.id, k.key.curve, k.registered_at, std::to_string(k.jobs), std::to_string(k.unfinished),
                    k.key.content_hash, k.key.location});
  return text_table({"id", "curve", "registered", "jobs", "unfinished", "sha256", "path"}, rows);
}

std::optional<std::string> queued_witness_url(const std::string& path, bool by_path) {
  if (!by_path && std::filesystem::file_size(path) <= queue::QueueOptions{}.max_inline_witness) return std::nullopt;
  return "file://" + std::filesystem::absolute(path).lexically_normal().string();
}

}  // namespace cuzk::cli
