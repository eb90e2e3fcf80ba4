// One call into libcuzk made off the event loop, settling a promise. Execute
// runs on a libuv pool thread, so a failed call's message is read there
// (cuzk_last_error is kept per thread) and becomes, on the main thread, a JS
// Error whose `code` is the status's name.
#pragma once

#include <napi.h>

#include <string>
#include <vector>

#include "cuzk/cuzk.h"

namespace cuzk_node {

// A JS Error with libcuzk's message and `code` set to cuzk_status_name(status).
Napi::Error status_error(Napi::Env env, cuzk_status status, const std::string& message);

// A promise already rejected with `error`, for a method called in a state
// where it cannot start (a closed prover).
Napi::Promise rejected(Napi::Env env, const Napi::Error& error);

class PromiseWorker : public Napi::AsyncWorker {
 public:
  // Queues the worker and hands out its promise; the worker deletes itself
  // once the promise is settled.
  Napi::Promise Start();
  // Keeps a JS value (a Buffer read in place) alive until the promise settles.
  void KeepAlive(const Napi::Value& value);

 protected:
  explicit PromiseWorker(Napi::Env env);

  // Records a failed call on the thread that made it: false when status is
  // not CUZK_OK (message: the given one, else the thread's cuzk_last_error).
  bool Check(cuzk_status status, const std::string& message = {});
  // The promise's value, made on the main thread after Execute succeeded.
  virtual Napi::Value Result(Napi::Env env) = 0;

 private:
  void OnOK() final;
  void OnError(const Napi::Error& error) final;

  Napi::Promise::Deferred deferred_;
  cuzk_status status_ = CUZK_OK;
  std::vector<Napi::Reference<Napi::Value>> kept_;
};

}  // namespace cuzk_node
