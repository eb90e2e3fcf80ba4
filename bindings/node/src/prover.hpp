// cuzk.Prover: one libcuzk prover that keeps its keys loaded between
// proofs. Loading and proving run on pool threads; the few calls that only
// read what the prover holds (keyInfo, exportVerificationKey, describe)
// answer at once.
#pragma once

#include <napi.h>

#include <memory>

#include "cuzk/cuzk.h"

namespace cuzk_node {

class Prover : public Napi::ObjectWrap<Prover> {
 public:
  static Napi::Function Define(Napi::Env env);
  explicit Prover(const Napi::CallbackInfo& info);

 private:
  Napi::Value LoadKey(const Napi::CallbackInfo& info);
  Napi::Value Prove(const Napi::CallbackInfo& info);
  Napi::Value KeyInfo(const Napi::CallbackInfo& info);
  Napi::Value ExportVerificationKey(const Napi::CallbackInfo& info);
  Napi::Value Describe(const Napi::CallbackInfo& info);
  void Close(const Napi::CallbackInfo& info);

  // The prover for a call that answers at once; throws once closed.
  cuzk_prover* open(Napi::Env env) const;

  // Shared with the workers using it: close() only drops this reference,
  // so the prover is destroyed when its last call in flight is done.
  std::shared_ptr<cuzk_prover> prover_;
};

}  // namespace cuzk_node
