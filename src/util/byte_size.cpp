#include "cuzk/util/byte_size.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <map>
#include <stdexcept>

namespace cuzk {

size_t parse_byte_size(const std::string& text) {
  static const std::map<std::string, double> units{
      {"", 1},         {"B", 1},          {"KiB", 1024.0},   {"MiB", 1048576.0}, {"GiB", 1073741824.0},
      {"TiB", 1099511627776.0}, {"KB", 1e3}, {"MB", 1e6},    {"GB", 1e9},        {"TB", 1e12}};
  const std::string bad = "'" + text + "' is not a size (bytes, or a number with KiB, MiB, GiB, TiB, KB, MB, GB, TB)";
  // Decimal digits with an optional fraction: strtod alone would also take
  // hex, exponents, "inf" and a sign.
  const std::string number = text.substr(0, text.find_first_not_of("0123456789."));
  const size_t dot = number.find('.');
  if (number.empty() || dot == 0 || dot + 1 == number.size() || dot != number.rfind('.'))
    throw std::invalid_argument(bad);
  errno = 0;
  const double n = std::strtod(number.c_str(), nullptr);
  if (errno != 0 || !std::isfinite(n)) throw std::invalid_argument(bad);
  std::string unit = text.substr(number.size());
  while (!unit.empty() && unit.front() == ' ') unit.erase(0, 1);
  auto it = units.find(unit);
  if (it == units.end()) throw std::invalid_argument(bad);
  const double bytes = n * it->second;
  if (bytes > 1.8e19) throw std::invalid_argument("'" + text + "' is too large");
  return size_t(bytes);
}

}  // namespace cuzk
