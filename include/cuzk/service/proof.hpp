// A proof as the service hands it to its front ends: typed, of either curve,
// with its public signals, so that a front end that wants points (the
// supraseal ABI, bellperson's proof encoding) takes them as they are, and
// text is made only at the edge. One function makes that text, so the CLI's
// files, cuzkd's replies, the queue's rows and the C APIs' buffers hold the
// same bytes for the same proof; one verifies a proof given as snarkjs's JSON
// (`cuzk verify`, cuzk_verify).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "cuzk/ec/curves.hpp"
#include "cuzk/groth16/proof.hpp"

namespace cuzk::service {

template <class E>
struct Proved {
  groth16::Proof<E> proof;
  std::vector<typename E::Fr> publics;  // the outputs, then the public inputs
};
using AnyProved = std::variant<Proved<ec::Bn254>, Proved<ec::Bls12_381>>;

// snarkjs's proof.json (with "curve") and public.json, as io::json_text lays
// them out: 1-space indentation, snarkjs's key order, no final newline.
struct SnarkjsJson {
  std::string proof, publics;
};
template <class E>
SnarkjsJson snarkjs_json(const Proved<E>& proved);
SnarkjsJson snarkjs_json(const AnyProved& proved);

// A JSON document in memory, and what messages call it (its file's name, or
// what the caller handed over).
struct JsonDocument {
  std::string_view text;
  std::string name;
};

// What verify_json found. A proof with the wrong number of public signals is
// not valid; the counts let a front end say so in its own terms.
struct Verdict {
  bool valid = false;
  size_t publics = 0;   // public signals given
  size_t expected = 0;  // the key's nPublic
};

// Verifies `proof` for `publics` under `vk` (snarkjs's verification_key.json,
// public.json and proof.json), on the curve the key names. Reads them in that
// order; the first malformed one, or one of another curve, is an
// io::FormatError naming it.
Verdict verify_json(const JsonDocument& vk, const JsonDocument& publics, const JsonDocument& proof);

extern template SnarkjsJson snarkjs_json<ec::Bn254>(const Proved<ec::Bn254>&);
extern template SnarkjsJson snarkjs_json<ec::Bls12_381>(const Proved<ec::Bls12_381>&);

}  // namespace cuzk::service
