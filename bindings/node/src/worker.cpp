#include "worker.hpp"

namespace cuzk_node {

Napi::Error status_error(Napi::Env env, cuzk_status status, const std::string& message) {
  Napi::Error error = Napi::Error::New(env, message);
  error.Set("code", Napi::String::New(env, cuzk_status_name(status)));
  return error;
}

Napi::Promise rejected(Napi::Env env, const Napi::Error& error) {
  auto deferred = Napi::Promise::Deferred::New(env);
  deferred.Reject(error.Value());
  return deferred.Promise();
}

PromiseWorker::PromiseWorker(Napi::Env env) : Napi::AsyncWorker(env), deferred_(Napi::Promise::Deferred::New(env)) {}

Napi::Promise PromiseWorker::Start() {
  Napi::Promise promise = deferred_.Promise();
  Queue();
  return promise;
}

bool PromiseWorker::Check(cuzk_status status, const std::string& message) {
  if (status == CUZK_OK) return true;
  status_ = status;
  SetError(message.empty() ? std::string(cuzk_last_error()) : message);
  return false;
}

void PromiseWorker::KeepAlive(const Napi::Value& value) { kept_.push_back(Napi::Persistent(value)); }

void PromiseWorker::OnOK() { deferred_.Resolve(Result(Env())); }

void PromiseWorker::OnError(const Napi::Error& error) {
  // Without a status the error is a C++ exception node-addon-api caught in
  // Execute (out of memory): its message is all there is.
  if (status_ == CUZK_OK)
    deferred_.Reject(error.Value());
  else
    deferred_.Reject(status_error(Env(), status_, error.Message()).Value());
}

}  // namespace cuzk_node
