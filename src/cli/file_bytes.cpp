#include "file_bytes.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace cuzk::cli {

std::string read_bytes(const std::string& path, const char* what) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw std::invalid_argument(path + " is a directory, not " + what);
  // A gRPC message is at most 2 GiB, the request's other fields included.
  constexpr uintmax_t kMaxBytes = (uintmax_t{1} << 31) - (uintmax_t{1} << 20);
  std::error_code no_size;  // not a regular file (a pipe)
  const uintmax_t size = std::filesystem::file_size(path, no_size);
  if (!no_size && size > kMaxBytes)
    throw std::invalid_argument(path + ": " + std::to_string(size) + " bytes is more than one message carries (2 GiB), "
                                "so it must be read where it lies (a path on cuzkd's host, or a file:// URL for the queue)");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument(path + ": cannot open " + what);
  std::string bytes;
  if (!no_size) {
    // One read of the whole file, not a character at a time (an
    // istreambuf_iterator): the witness is most of a request's bytes.
    bytes.resize(size);
    in.read(bytes.data(), (std::streamsize)size);
    bytes.resize((size_t)in.gcount());
  } else {
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  if (in.bad()) throw std::invalid_argument(path + ": cannot read " + what);
  return bytes;
}

}  // namespace cuzk::cli
