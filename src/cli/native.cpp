#include "native.hpp"

#include "cuzk/io/json.hpp"

namespace cuzk::cli {

ec::Curve parse_curve(const std::string& name) {
  if (const auto c = io::curve_from_name(name)) return *c;
  throw std::invalid_argument("--curve " + name + ": the curves are bn254 (bn128) and bls12_381 (bls12381)");
}

}  // namespace cuzk::cli
