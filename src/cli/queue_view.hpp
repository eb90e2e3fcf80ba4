// What the CLI's two ways to the job queue share: cuzk db (straight to the
// database) and cuzk client --queue (through any cuzkd) send witnesses by the
// same rule and print the fleet in the same table.
#pragma once

#include <optional>
#include <string>

#include "cuzk/queue/queue.hpp"

namespace cuzk::cli {

// "partitions: done 12 queued 3", then a row per host (claimed, proofs in the
// last minute, proofs in all), then the partitions that had failed attempts.
std::string fleet_table(const queue::FleetStatus& fleet);

// The file:// URL a queued witness goes by, on storage the workers share: for
// every witness with `by_path`, else for one over the queue's inline limit;
// nullopt: its bytes go in the queue's row.
std::optional<std::string> queued_witness_url(const std::string& path, bool by_path);

}  // namespace cuzk::cli
