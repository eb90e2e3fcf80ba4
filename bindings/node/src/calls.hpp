// The libcuzk calls that wait (loading a key, proving), made on pool
// threads; each returns the status and, on failure, the message of the
// thread that failed.
#pragma once

#include <napi.h>

#include <string>

#include "args.hpp"
#include "cuzk/cuzk.h"

namespace cuzk_node {

// Loads a key from a file or from bytes under `id` (NULL: libcuzk's
// default) and sets `id_used`.
cuzk_status load_key(cuzk_prover* prover, const Source& zkey, const char* id, std::string& id_used,
                     std::string& error);

// A proof as libcuzk hands it out: snarkjs's proof.json and public.json.
struct ProofJson {
  std::string proof, publics;
  cuzk_times times{};
};

// Proves `witness` with the key `key_id`; on failure `error` is the
// witness's own message.
cuzk_status prove_one(cuzk_prover* prover, const char* key_id, const Source& witness, ProofJson& out,
                      std::string& error);

// {proof, publicSignals} parsed from the JSON, as snarkjs.groth16.prove
// returns them, and `times` (seconds in each stage) when with_times.
Napi::Object proof_to_js(Napi::Env env, const ProofJson& p, bool with_times);

}  // namespace cuzk_node
