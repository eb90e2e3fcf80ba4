// A file's bytes in one read: what cuzk sends of a witness or a key, to cuzkd
// (a gRPC message) or to the queue (a BYTEA value).
#pragma once

#include <string>

namespace cuzk::cli {

// The bytes of the file at `path` (`what` names it in the error: an
// std::invalid_argument when it is a directory, cannot be read, or is over
// the 2 GiB that one message carries).
std::string read_bytes(const std::string& path, const char* what);

}  // namespace cuzk::cli
