#include "client_jobs.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <stdexcept>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "cuzk/ec/curves.hpp"
#include "cuzk/io/json.hpp"
#include "cuzk/v1/phase_times.hpp"
#include "file_bytes.hpp"

namespace cuzk::cli {

namespace {

// FNV-1a over the bytes of `values`: a stable digest (unlike std::hash) for
// key ids that different cuzk runs must agree on.
uint64_t fnv1a(std::initializer_list<uint64_t> values) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (uint64_t v : values)
    for (int i = 0; i < 8; ++i) h = (h ^ ((v >> (8 * i)) & 0xff)) * 0x100000001b3ull;
  return h;
}

// The id ensure_key uses for `absolute`: the path, then '@' and the file's
// version where this host can see the file.
std::string key_id_for(const std::filesystem::path& absolute) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(absolute, ec);
  if (ec) return absolute.string();
  const auto mtime = std::filesystem::last_write_time(absolute, ec);
  if (ec) return absolute.string();
  char version[17];
  std::snprintf(version, sizeof version, "%016" PRIx64,
                fnv1a({(uint64_t)size, (uint64_t)mtime.time_since_epoch().count()}));
  return absolute.string() + "@" + version;
}

double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const size_t at = std::min(v.size() - 1, (size_t)(q * (double)(v.size() - 1) + 0.5));
  return v[at];
}

}  // namespace

nlohmann::ordered_json sent_json(const std::string& text, const char* what) {
  try {
    return nlohmann::ordered_json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("cuzkd sent a ") + what + " that is not JSON: " + e.what());
  }
}

v1::Partition wtns_partition(const std::string& path) {
  v1::Partition partition;
  partition.set_wtns(read_bytes(path, "the witness"));
  partition.set_name(path);
  return partition;
}

const char* curve_name(v1::Curve curve) {
  switch (curve) {
    case v1::BN254: return ec::curve_name(ec::Curve::bn254);
    case v1::BLS12_381: return ec::curve_name(ec::Curve::bls12_381);
    default: return "an unnamed curve";
  }
}

bool is_usage_error(const std::string& error_code) {
  return error_code == "invalid_argument" || error_code == "not_found";
}

void throw_partition_error(const v1::PartitionResult& result, const std::string& witness) {
  std::string message = result.error().empty() ? "failed (" + result.error_code() + ")" : result.error();
  if (message.find(witness) == std::string::npos) message = witness + ": " + message;
  if (is_usage_error(result.error_code())) throw std::invalid_argument(message);
  throw std::runtime_error(message);
}

void write_partition(const v1::PartitionResult& result, const std::filesystem::path& proof,
                     const std::filesystem::path& pub) {
  const std::pair<std::filesystem::path, nlohmann::ordered_json> files[] = {
      {proof, sent_json(result.proof_json(), "proof.json")}, {pub, sent_json(result.public_json(), "public.json")}};
  io::write_json_files(files);
}

v1::KeyInfo preload_path_or_bytes(Daemon& daemon, const std::filesystem::path& zkey, const std::string& id) {
  v1::PreloadRequest request;
  request.set_path(std::filesystem::absolute(zkey).lexically_normal().string());
  request.set_id(id.empty() ? zkey.stem().string() : id);  // the stem, by path or by bytes
  v1::KeyInfo info;
  grpc::Status status = daemon.call_status(&v1::Prover::Stub::Preload, request, info);
  if (status.error_code() == grpc::StatusCode::INVALID_ARGUMENT &&
      (status.error_message().find("reads no key files") != std::string::npos ||
       status.error_message().find("not under a key directory") != std::string::npos)) {
    request.set_zkey(read_bytes(zkey.string(), "the key"));
    request.set_name(zkey.filename().string());
    status = daemon.call_status(&v1::Prover::Stub::Preload, request, info);
  }
  if (!status.ok()) daemon.fail(status);
  return info;
}

ResidentKey ensure_key(Daemon& daemon, const std::string& zkey) {
  const std::filesystem::path absolute = std::filesystem::absolute(zkey).lexically_normal();
  const std::string id = key_id_for(absolute), older = absolute.string() + "@";
  const auto listed = daemon.call(&v1::Prover::Stub::ListKeys, v1::ListKeysRequest{});
  for (const v1::KeyInfo& key : listed.keys())
    if (key.id() == id) return {key, false};

  // cuzkd answers contents it holds already (a `client preload` of the same
  // file) with that key, under its own id.
  const v1::KeyInfo info = preload_path_or_bytes(daemon, absolute, id);
  const auto& keys = listed.keys();
  const bool loaded_now =
      std::none_of(keys.begin(), keys.end(), [&](const v1::KeyInfo& k) { return k.id() == info.id(); });
  for (const v1::KeyInfo& key : keys)
    if (key.id() != info.id() && (key.id() == absolute.string() || key.id().starts_with(older))) {
      v1::EvictRequest evict;
      evict.set_id(key.id());
      daemon.call(&v1::Prover::Stub::Evict, evict);
    }
  return {info, loaded_now};
}

std::string stage_line(const v1::StageTimes& times) {
  const PhaseTimes t = v1::phase_times(times);
  std::string line;
  for (Phase p : kPhases) {
    char part[64];
    std::snprintf(part, sizeof part, "%s%s %.1f ms", line.empty() ? "" : ", ", phase_name(p), 1e3 * t[p]);
    line += part;
  }
  return line;
}

std::string stage_summary(const std::vector<v1::StageTimes>& times) {
  if (times.empty()) return "";
  std::vector<PhaseTimes> phases;
  for (const v1::StageTimes& t : times) phases.push_back(v1::phase_times(t));
  std::string table;
  for (Phase p : kPhases) {
    std::vector<double> seconds;
    for (const PhaseTimes& t : phases) seconds.push_back(t[p]);
    char row[96];
    std::snprintf(row, sizeof row, "  %-10s %10.3f %10.3f\n", phase_name(p), 1e3 * quantile(seconds, 0.5),
                  1e3 * quantile(seconds, 0.95));
    table += row;
  }
  return "  stage       median ms     p95 ms\n" + table;
}

}  // namespace cuzk::cli
