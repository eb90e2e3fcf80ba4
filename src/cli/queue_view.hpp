// What the CLI's two ways to the job queue share: cuzk db (straight to the
// database) and cuzk client --queue (through any cuzkd) send witnesses by the
// same rule and print the fleet in the same table; and the tables the CLI
// prints.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cuzk/queue/queue.hpp"

namespace cuzk::cli {

// "partitions: done 12 queued 3", then a row per host (claimed, proofs in the
// last minute, proofs in all), then the partitions that had failed attempts.
std::string fleet_table(const queue::FleetStatus& fleet);

using Row = std::vector<std::string>;

// `rows` under `header`, columns padded to their widest cell and two spaces
// apart, indented by two; "(none)" without rows.
std::string text_table(const Row& header, const std::vector<Row>& rows);

// The registered keys, a row each: id, curve, registered at, jobs naming it
// (all, unfinished), hash and path (cuzk db keys).
std::string keys_table(const std::vector<queue::KeyListing>& keys);

// The file:// URL a queued witness goes by, on storage the workers share: for
// every witness with `by_path`, else for one over the queue's inline limit;
// nullopt: its bytes go in the queue's row.
std::optional<std::string> queued_witness_url(const std::string& path, bool by_path);

}  // namespace cuzk::cli
