// Sizes as people write them: "123", "512MiB", "16GiB", "1.5GiB", "2GB"
// (decimal units), for every front end's memory options.
#pragma once

#include <cstddef>
#include <string>

namespace cuzk {

// Bytes; throws std::invalid_argument naming the text when it is not a size
// or is too large.
size_t parse_byte_size(const std::string& text);

}  // namespace cuzk
