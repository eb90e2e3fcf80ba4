// The example circuits under the names cuzk and cuzkd give them, for a front
// end to register (ServiceOptions::native_circuits): the service's library
// includes none of them.
#pragma once

#include "cuzk/circuit/examples/hash_chain.hpp"
#include "cuzk/circuit/examples/partition.hpp"
#include "cuzk/service/native.hpp"

namespace cuzk::service {

inline NativeCircuits example_circuits() {
  return {{"partition", native_circuit<circuit::Partition>()}, {"hash-chain", native_circuit<circuit::HashChain>()}};
}

}  // namespace cuzk::service
