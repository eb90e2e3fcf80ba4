// cuzk client status: cuzkd's StatusReply as tables for people, or as JSON.
#pragma once

#include <string>

#include "cuzk/v1/prover.pb.h"

namespace cuzk::cli {

// Tables of the daemon's state: a header (backend, queues, memory), then its
// keys, jobs and GPUs; "(none)" under a heading with nothing to list.
std::string status_table(const v1::StatusReply& status, const std::string& address);

// The reply as JSON with the proto's field names, every field present.
std::string status_json(const v1::StatusReply& status);

// "key ID: bn128, 4 variables, 1 public, domain 2^2, 0.1 MiB in memory, from SOURCE".
std::string key_line(const v1::KeyInfo& key);

}  // namespace cuzk::cli
