#include "calls.hpp"

#include <memory>

namespace cuzk_node {

cuzk_status load_key(cuzk_prover* prover, const Source& zkey, const char* id, std::string& id_used,
                     std::string& error) {
  char id_out[CUZK_KEY_ID_MAX];
  const cuzk_status status = zkey.data ? cuzk_key_load_buffer(prover, zkey.data, zkey.size, id, id_out)
                                       : cuzk_key_load_file(prover, zkey.path.c_str(), id, id_out);
  if (status == CUZK_OK)
    id_used = id_out;
  else
    error = cuzk_last_error();
  return status;
}

cuzk_status prove_one(cuzk_prover* prover, const char* key_id, const Source& witness, ProofJson& out,
                      std::string& error) {
  const cuzk_witness w = witness.witness();
  cuzk_result* raw = nullptr;
  const cuzk_status status = cuzk_prove(prover, key_id, &w, &raw);
  const std::unique_ptr<cuzk_result, decltype(&cuzk_result_free)> result(raw, cuzk_result_free);
  if (status != CUZK_OK) {
    error = cuzk_last_error();
    // The witness's own message, when the result holds one, names the stage that failed.
    cuzk_proof proof{};
    if (result && cuzk_result_get(result.get(), 0, &proof) == CUZK_OK && proof.error && *proof.error)
      error = proof.error;
    return status;
  }
  cuzk_proof proof{};
  if (const cuzk_status got = cuzk_result_get(result.get(), 0, &proof); got != CUZK_OK) {
    error = cuzk_last_error();
    return got;
  }
  out = {proof.proof_json, proof.public_json, proof.times};
  return CUZK_OK;
}

Napi::Object proof_to_js(Napi::Env env, const ProofJson& p, bool with_times) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("proof", parse_json(env, p.proof));
  o.Set("publicSignals", parse_json(env, p.publics));
  if (with_times) {
    Napi::Object t = Napi::Object::New(env);
    t.Set("queue", p.times.queue);
    t.Set("synthesis", p.times.synthesis);
    t.Set("prove", p.times.prove);
    t.Set("finish", p.times.finish);
    t.Set("total", p.times.total);
    o.Set("times", t);
  }
  return o;
}

}  // namespace cuzk_node
