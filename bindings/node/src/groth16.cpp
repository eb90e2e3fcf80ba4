// cuzk.groth16: prove and verify as snarkjs.groth16 does, for a caller that
// proves one witness of a key (a Prover keeps keys loaded between proofs).
#include "groth16.hpp"

#include <memory>
#include <string>

#include "args.hpp"
#include "calls.hpp"
#include "worker.hpp"

namespace cuzk_node {

namespace {

// A prover made, given the key, used once and destroyed, all on the pool thread.
class ProveOnceWorker final : public PromiseWorker {
 public:
  ProveOnceWorker(Napi::Env env, Source zkey, Source witness, ProverOptions options)
      : PromiseWorker(env), zkey_(std::move(zkey)), witness_(std::move(witness)), options_(std::move(options)) {}

 private:
  void Execute() override {
    const cuzk_options c = options_.c_options();
    cuzk_prover* raw = nullptr;
    if (!Check(cuzk_prover_create(&c, &raw))) return;
    const std::unique_ptr<cuzk_prover, decltype(&cuzk_prover_destroy)> prover(raw, cuzk_prover_destroy);
    std::string key_id, error;
    if (!Check(load_key(prover.get(), zkey_, nullptr, key_id, error), error)) return;
    Check(prove_one(prover.get(), key_id.c_str(), witness_, proof_, error), error);
  }
  Napi::Value Result(Napi::Env env) override { return proof_to_js(env, proof_, false); }

  Source zkey_, witness_;
  ProverOptions options_;
  ProofJson proof_;
};

class VerifyWorker final : public PromiseWorker {
 public:
  VerifyWorker(Napi::Env env, std::string vk, std::string publics, std::string proof)
      : PromiseWorker(env), vk_(std::move(vk)), publics_(std::move(publics)), proof_(std::move(proof)) {}

 private:
  void Execute() override { Check(cuzk_verify(vk_.c_str(), publics_.c_str(), proof_.c_str(), &valid_)); }
  Napi::Value Result(Napi::Env env) override { return Napi::Boolean::New(env, valid_ == 1); }

  std::string vk_, publics_, proof_;
  int valid_ = 0;
};

// groth16.prove(zkey, wtns, options?) -> Promise<{proof, publicSignals}>
Napi::Value prove(const Napi::CallbackInfo& info) {
  Source zkey = to_source(info[0], "zkey");
  Source witness = to_source(info[1], "wtns");
  ProverOptions options(info[2]);
  auto* worker = new ProveOnceWorker(info.Env(), std::move(zkey), std::move(witness), std::move(options));
  for (size_t i = 0; i < 2; ++i)
    if (!info[i].IsString()) worker->KeepAlive(info[i]);
  return worker->Start();
}

// groth16.verify(vk, publicSignals, proof) -> Promise<boolean>, the three as
// snarkjs reads them from verification_key.json, public.json and proof.json.
Napi::Value verify(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  const Napi::Object vk = to_object(info[0], "vk");
  if (!info[1].IsArray()) throw Napi::TypeError::New(env, "publicSignals must be an array");
  const Napi::Object proof = to_object(info[2], "proof");
  auto* worker = new VerifyWorker(env, stringify_json(env, vk), stringify_json(env, info[1]), stringify_json(env, proof));
  return worker->Start();
}

}  // namespace

Napi::Object groth16_exports(Napi::Env env) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("prove", Napi::Function::New<prove>(env, "prove"));
  o.Set("verify", Napi::Function::New<verify>(env, "verify"));
  return o;
}

}  // namespace cuzk_node
