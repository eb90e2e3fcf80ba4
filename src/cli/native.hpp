// The native example circuits as the commands name them
// (service/example_circuits.hpp), for a curve and a size chosen at run time.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "cuzk/ec/curves.hpp"
#include "cuzk/service/example_circuits.hpp"

namespace cuzk::cli {

// Which example, its curve and its size (constraints + public rows fit a
// domain of `constraints` when that is a power of two).
struct NativeCircuit {
  std::string name = std::get<0>(service::kExamples).name;  // a name in service::kExamples; the first by default
  std::string curve = "bn254";
  uint64_t constraints = 1 << 16;
  uint64_t seed = 0;  // the witness; the shape does not depend on it
};

ec::Curve parse_curve(const std::string& name);
// The examples' names for messages: "a, b and c".
std::string example_list();

// f(circuit) with circuit the example n.name (a circuit::Partition<E>, a
// circuit::HashChain<E>, ...), on curve E whatever n.curve says (a bellperson
// parameter file's circuit is on BLS12-381). Example I of service::kExamples
// and those after it.
template <class E, size_t I = 0, class F>
decltype(auto) visit_native_on(const NativeCircuit& n, F&& f) {
  using Example = std::remove_cvref_t<decltype(std::get<I>(service::kExamples))>;
  if (n.name == std::get<I>(service::kExamples).name)
    return f(Example::template make<E>(n.constraints, n.seed));
  if constexpr (I + 1 < std::tuple_size_v<decltype(service::kExamples)>)
    return visit_native_on<E, I + 1>(n, std::forward<F>(f));
  else
    throw std::invalid_argument("--circuit " + n.name + ": the examples are " + example_list());
}

// The same on n.curve.
template <class F>
decltype(auto) visit_native(const NativeCircuit& n, F&& f) {
  return ec::visit_curve(parse_curve(n.curve),
                         [&](auto curve) { return visit_native_on<decltype(curve)>(n, std::forward<F>(f)); });
}

}  // namespace cuzk::cli
