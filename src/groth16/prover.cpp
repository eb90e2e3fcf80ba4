#include "cuzk/groth16/prover.hpp"

#include <stdexcept>
#include <string>

namespace cuzk::groth16 {

void check_length(const char* what, size_t got, size_t want) {
  if (got != want)
    throw std::invalid_argument(std::string(what) + " has " + std::to_string(got) + " values; the key needs " +
                                std::to_string(want));
}

}  // namespace cuzk::groth16
