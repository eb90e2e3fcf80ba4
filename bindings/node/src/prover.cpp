#include "prover.hpp"

#include <optional>
#include <string>
#include <vector>

#include "args.hpp"
#include "calls.hpp"
#include "worker.hpp"

namespace cuzk_node {

namespace {

// 'unavailable', as libcuzk's service answers a call once it is shutting down.
Napi::Error closed_error(Napi::Env env) {
  return status_error(env, CUZK_ERROR_UNAVAILABLE, "cuzk: the prover is closed");
}

// A worker holding the prover while it runs. It lets go at the end of
// Execute, so that when it is the last holder (close() was called
// meanwhile) the prover is destroyed on the pool thread, not on the event loop.
class ProverWorker : public PromiseWorker {
 protected:
  ProverWorker(Napi::Env env, std::shared_ptr<cuzk_prover> prover) : PromiseWorker(env), prover_(std::move(prover)) {}

  void Execute() final {
    Run(prover_.get());
    prover_.reset();
  }
  virtual void Run(cuzk_prover* prover) = 0;

 private:
  std::shared_ptr<cuzk_prover> prover_;
};

class LoadKeyWorker final : public ProverWorker {
 public:
  LoadKeyWorker(Napi::Env env, std::shared_ptr<cuzk_prover> prover, Source zkey, std::optional<std::string> id)
      : ProverWorker(env, std::move(prover)), zkey_(std::move(zkey)), id_(std::move(id)) {}

 private:
  void Run(cuzk_prover* prover) override {
    std::string error;
    Check(load_key(prover, zkey_, id_ ? id_->c_str() : nullptr, id_used_, error), error);
  }
  Napi::Value Result(Napi::Env env) override { return Napi::String::New(env, id_used_); }

  Source zkey_;
  std::optional<std::string> id_;
  std::string id_used_;
};

class ProveWorker final : public ProverWorker {
 public:
  ProveWorker(Napi::Env env, std::shared_ptr<cuzk_prover> prover, std::string key_id, Source witness)
      : ProverWorker(env, std::move(prover)), key_id_(std::move(key_id)), witness_(std::move(witness)) {}

 private:
  void Run(cuzk_prover* prover) override {
    std::string error;
    Check(prove_one(prover, key_id_.c_str(), witness_, proof_, error), error);
  }
  Napi::Value Result(Napi::Env env) override { return proof_to_js(env, proof_, true); }

  std::string key_id_;
  Source witness_;
  ProofJson proof_;
};

// A string from a libcuzk function that writes into the caller's buffer and
// says the size it needs when the buffer is too small.
template <class Fill>
cuzk_status read_string(Fill fill, std::string& out) {
  std::vector<char> buf(4096);
  size_t needed = 0;
  cuzk_status status = fill(buf.data(), buf.size(), &needed);
  if (status == CUZK_ERROR_SHORT_BUFFER) {
    buf.resize(needed + 1);
    status = fill(buf.data(), buf.size(), &needed);
  }
  if (status == CUZK_OK) out = buf.data();
  return status;
}

void check(Napi::Env env, cuzk_status status) {
  if (status != CUZK_OK) throw status_error(env, status, cuzk_last_error());
}

}  // namespace

Napi::Function Prover::Define(Napi::Env env) {
  return DefineClass(env, "Prover",
                     {InstanceMethod<&Prover::LoadKey>("loadKey"), InstanceMethod<&Prover::Prove>("prove"),
                      InstanceMethod<&Prover::KeyInfo>("keyInfo"),
                      InstanceMethod<&Prover::ExportVerificationKey>("exportVerificationKey"),
                      InstanceMethod<&Prover::Describe>("describe"), InstanceMethod<&Prover::Close>("close")});
}

// Creating a CUDA prover sets up its GPUs: the one call that may take a
// while on the event loop, as a constructor cannot be awaited.
Prover::Prover(const Napi::CallbackInfo& info) : Napi::ObjectWrap<Prover>(info) {
  const ProverOptions options(info[0]);
  const cuzk_options c = options.c_options();
  cuzk_prover* prover = nullptr;
  check(info.Env(), cuzk_prover_create(&c, &prover));
  prover_.reset(prover, cuzk_prover_destroy);
}

Napi::Value Prover::LoadKey(const Napi::CallbackInfo& info) {
  Source zkey = to_source(info[0], "zkey");
  std::optional<std::string> id = to_optional_string(info[1], "id");
  if (!prover_) return rejected(info.Env(), closed_error(info.Env()));
  const bool in_place = zkey.data != nullptr;
  auto* worker = new LoadKeyWorker(info.Env(), prover_, std::move(zkey), std::move(id));
  if (in_place) worker->KeepAlive(info[0]);
  return worker->Start();
}

Napi::Value Prover::Prove(const Napi::CallbackInfo& info) {
  std::string key_id = to_string(info[0], "keyId");
  Source witness = to_source(info[1], "wtns");
  if (!prover_) return rejected(info.Env(), closed_error(info.Env()));
  const bool in_place = witness.data != nullptr;
  auto* worker = new ProveWorker(info.Env(), prover_, std::move(key_id), std::move(witness));
  if (in_place) worker->KeepAlive(info[1]);
  return worker->Start();
}

Napi::Value Prover::KeyInfo(const Napi::CallbackInfo& info) {
  const std::string key_id = to_string(info[0], "keyId");
  cuzk_key_info ki{};
  check(info.Env(), cuzk_key_info_get(open(info.Env()), key_id.c_str(), &ki));
  Napi::Object o = Napi::Object::New(info.Env());
  o.Set("curve", ki.curve);
  o.Set("nVars", (double)ki.n_vars);
  o.Set("nPublic", (double)ki.n_public);
  o.Set("domainSize", (double)ki.domain_size);
  return o;
}

Napi::Value Prover::ExportVerificationKey(const Napi::CallbackInfo& info) {
  const std::string key_id = to_string(info[0], "keyId");
  const cuzk_prover* prover = open(info.Env());
  std::string vk;
  check(info.Env(), read_string([&](char* buf, size_t size, size_t* needed) {
          return cuzk_key_export_vk(prover, key_id.c_str(), buf, size, needed);
        }, vk));
  return parse_json(info.Env(), vk);
}

Napi::Value Prover::Describe(const Napi::CallbackInfo& info) {
  const cuzk_prover* prover = open(info.Env());
  std::string text;
  check(info.Env(), read_string([&](char* buf, size_t size, size_t* needed) {
          return cuzk_prover_describe(prover, buf, size, needed);
        }, text));
  return Napi::String::New(info.Env(), text);
}

void Prover::Close(const Napi::CallbackInfo&) { prover_.reset(); }

cuzk_prover* Prover::open(Napi::Env env) const {
  if (!prover_) throw closed_error(env);
  return prover_.get();
}

}  // namespace cuzk_node
