#include "native.hpp"

#include <vector>

#include "cuzk/io/json.hpp"

namespace cuzk::cli {

ec::Curve parse_curve(const std::string& name) {
  if (const auto c = io::curve_from_name(name)) return *c;
  throw std::invalid_argument("--curve " + name + ": the curves are bn254 (bn128) and bls12_381 (bls12381)");
}

std::string example_list() {
  const std::vector<std::string> names = service::example_names();
  std::string list;
  for (size_t i = 0; i < names.size(); ++i)
    list += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return list;
}

}  // namespace cuzk::cli
