#include "outputs.hpp"

#include <fstream>
#include <stdexcept>
#include <string>

namespace cuzk::cli {

namespace {

// The first byte of the file that is not JSON white space (0 for none).
char first_non_space(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  for (char ch; in.get(ch);)
    if (ch != ' ' && ch != '\t' && ch != '\n' && ch != '\r') return ch;
  return 0;
}

}  // namespace

void remove_stale_json(const std::filesystem::path& output, const char* what) {
  std::error_code ec;
  const auto status = std::filesystem::symlink_status(output, ec);
  if (!std::filesystem::exists(status)) return;
  if (std::filesystem::is_directory(status))
    throw std::runtime_error(output.string() + ": is a directory, not a file to write " + what + " to");
  const char first = std::filesystem::is_regular_file(status) ? first_non_space(output) : '?';
  if (first != 0 && first != '{' && first != '[')
    throw std::invalid_argument(output.string() + ": exists and is not a JSON file; refusing to replace it with " +
                                what + " (is it an input in the wrong position?)");
  if (!std::filesystem::remove(output, ec) && ec)
    throw std::runtime_error(output.string() + ": cannot remove the earlier " + what + ": " + ec.message());
}

}  // namespace cuzk::cli
