// What the client verbs and prove/prove-batch --daemon share: witnesses into
// requests, keys onto the daemon, results into files and summaries.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "client_connection.hpp"
#include "file_bytes.hpp"

namespace cuzk::cli {

// JSON text the daemon sent (`what`: "proof.json"), parsed; malformed text is
// a runtime_error.
nlohmann::ordered_json sent_json(const std::string& text, const char* what);

// A .wtns file's bytes as a partition, named by its path (the daemon's
// messages about it name the file). A file that cannot be read is an
// std::invalid_argument naming it.
v1::Partition wtns_partition(const std::string& path);

// "bn128", "bls12381", as the CLI's messages (and snarkjs) name curves.
const char* curve_name(v1::Curve curve);

// Whether a failed partition's error_code (an ErrorKind name) is the user's
// input (exit 2) rather than the work failing (exit 1).
bool is_usage_error(const std::string& error_code);

// A failed partition's error thrown with its exit status; `witness` (a path)
// is put first unless the daemon's message names it already.
[[noreturn]] void throw_partition_error(const v1::PartitionResult& result, const std::string& witness);

// Writes an ok partition's proof.json and public.json together
// (io::write_json_files); JSON the daemon sent malformed is a runtime_error.
void write_partition(const v1::PartitionResult& result, const std::filesystem::path& proof,
                     const std::filesystem::path& pub);

// The key a prove or prove-batch --daemon run proves with: the .zkey at
// `zkey` (a path on the daemon's host) under the id
// "<absolute path>@<hash of its size and modification time>" (just the
// absolute path where the file is not on this host), preloaded unless the
// daemon lists that id already; a daemon that holds the same contents under
// another id answers with that key, and the run proves with it. Older
// versions of the same file (ids with the same path) are evicted when a new
// one is loaded.
struct ResidentKey {
  v1::KeyInfo info;
  bool loaded_now = false;  // false: the daemon held it already
};
ResidentKey ensure_key(Daemon& daemon, const std::string& zkey);
// Preloads the key file `zkey` under `id`: by its path, read on cuzkd's host,
// or, where cuzkd reads no client's key by path (no key_dirs, or not under
// them), by its contents.
v1::KeyInfo preload_path_or_bytes(Daemon& daemon, const std::filesystem::path& zkey, const std::string& id);

// Median and 95th percentile of each stage over the partitions proved
// (`times`), as a table of milliseconds; empty when there are none.
std::string stage_summary(const std::vector<v1::StageTimes>& times);

// "queue 1.2 ms, synthesis ..., total ...", for one partition.
std::string stage_line(const v1::StageTimes& times);

}  // namespace cuzk::cli
