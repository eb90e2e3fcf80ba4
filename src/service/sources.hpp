// A job's partitions as the engine takes them: each PartitionInput checked
// against the key when the job is submitted (so a malformed or mismatched
// witness fails the submit, not a partition later) and turned into a
// Synthesize<E> that writes w, and a, b, c where the engine wants them, or
// (Evaluations) lends the caller's memory they lie in.
#pragma once

#include <filesystem>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cuzk/engine/engine.hpp"
#include "cuzk/service/paths.hpp"
#include "cuzk/service/service.hpp"

namespace cuzk::service::detail {

// The native circuits and sizes found to be a key's circuit: the check costs
// a pass over the circuit, so it is made once per key, circuit and size.
struct NativeShapes {
  std::mutex mu;
  std::set<std::pair<std::string, uint64_t>> checked;
};

template <class E>
struct Source {
  engine::Synthesize<E> synthesize;
  size_t bytes = 0;  // host bytes it holds until it is done
  std::optional<groth16::Randomness<typename E::Fr>> randomness;  // r and s the caller chose
};

// Throws Error: invalid_argument (a malformed witness, the wrong curve or
// length, a path outside `options.witness_dirs`, an unknown circuit or one
// whose shape is not the key's), not_found (no such witness file).
// `key_name` names the key in messages.
template <class E>
Source<E> make_source(PartitionInput input, const groth16::SharedKey<E>& key, const std::string& key_name,
                      const ServiceOptions& options, NativeShapes& shapes);

}  // namespace cuzk::service::detail
