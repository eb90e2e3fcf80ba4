#include "args.hpp"

#include <cmath>
#include <limits>

namespace cuzk_node {

namespace {

[[noreturn]] void type_error(Napi::Env env, const std::string& message) { throw Napi::TypeError::New(env, message); }

// A non-negative integer no larger than max.
uint64_t to_count(const Napi::Value& value, const std::string& name, uint64_t max) {
  if (!value.IsNumber()) type_error(value.Env(), name + " must be a number");
  const double d = value.As<Napi::Number>().DoubleValue();
  if (!(d >= 0) || d != std::floor(d) || d > (double)max)
    type_error(value.Env(), name + " must be an integer from 0 to " + std::to_string(max));
  return (uint64_t)d;
}

}  // namespace

Source to_source(const Napi::Value& value, const char* name) {
  Source s;
  if (value.IsString()) {
    s.path = value.As<Napi::String>().Utf8Value();
  } else if (value.IsTypedArray() && value.As<Napi::TypedArray>().TypedArrayType() == napi_uint8_array) {
    // A Buffer is a Uint8Array. An empty one still counts as bytes given (and
    // fails as a truncated file), never as a missing path.
    static const unsigned char kNoBytes = 0;
    auto bytes = value.As<Napi::Uint8Array>();
    s.size = bytes.ByteLength();
    s.data = s.size ? static_cast<const void*>(bytes.Data()) : &kNoBytes;
  } else {
    type_error(value.Env(), std::string(name) + " must be a file name (string) or a Buffer/Uint8Array");
  }
  return s;
}

std::optional<std::string> to_optional_string(const Napi::Value& value, const char* name) {
  if (value.IsUndefined()) return std::nullopt;
  return to_string(value, name);
}

std::string to_string(const Napi::Value& value, const char* name) {
  if (!value.IsString()) type_error(value.Env(), std::string(name) + " must be a string");
  return value.As<Napi::String>().Utf8Value();
}

Napi::Object to_object(const Napi::Value& value, const char* name) {
  if (!value.IsObject() || value.IsArray() || value.IsFunction())
    type_error(value.Env(), std::string(name) + " must be an object");
  return value.As<Napi::Object>();
}

ProverOptions::ProverOptions(const Napi::Value& value) {
  cuzk_options_init(&base_);
  if (value.IsUndefined()) return;
  const Napi::Object o = to_object(value, "options");
  const Napi::Array keys = o.GetPropertyNames();
  constexpr uint64_t kUnsignedMax = std::numeric_limits<unsigned>::max();
  for (uint32_t i = 0; i < keys.Length(); ++i) {
    const std::string key = keys.Get(i).As<Napi::String>().Utf8Value();
    const Napi::Value v = o.Get(key);
    if (v.IsUndefined()) continue;
    const std::string name = "options." + key;
    if (key == "backend") {
      backend_ = to_string(v, name.c_str());
    } else if (key == "gpus") {
      if (!v.IsArray()) type_error(v.Env(), name + " must be an array of GPU numbers");
      const Napi::Array gpus = v.As<Napi::Array>();
      if (gpus.Length() == 0) type_error(v.Env(), name + " must name at least one GPU (leave it out for every GPU)");
      for (uint32_t g = 0; g < gpus.Length(); ++g)
        gpus_.push_back((int)to_count(gpus.Get(g), name + "[" + std::to_string(g) + "]",
                                      std::numeric_limits<int>::max()));
    } else if (key == "threads") {
      base_.threads = (unsigned)to_count(v, name, kUnsignedMax);
    } else if (key == "synthesisThreads") {
      base_.synthesis_threads = (unsigned)to_count(v, name, kUnsignedMax);
    } else if (key == "workersPerGpu") {
      base_.workers_per_gpu = (unsigned)to_count(v, name, kUnsignedMax);
    } else if (key == "finalizerThreads") {
      base_.finalizer_threads = (unsigned)to_count(v, name, kUnsignedMax);
    } else if (key == "maxPendingPartitions") {
      base_.max_pending_partitions = (size_t)to_count(v, name, std::numeric_limits<uint32_t>::max());
    } else if (key == "gpuMemory") {
      base_.gpu_memory = (size_t)to_count(v, name, uint64_t(1) << 50);  // bytes; a double holds them exactly
    } else {
      type_error(v.Env(), "unknown option '" + key +
                              "' (known: backend, gpus, threads, synthesisThreads, workersPerGpu, finalizerThreads, "
                              "maxPendingPartitions, gpuMemory)");
    }
  }
}

cuzk_options ProverOptions::c_options() const {
  cuzk_options o = base_;
  o.backend = backend_ ? backend_->c_str() : nullptr;
  o.gpus = gpus_.empty() ? nullptr : gpus_.data();
  o.n_gpus = gpus_.size();
  return o;
}

Napi::Value parse_json(Napi::Env env, const std::string& text) {
  const Napi::Object json = env.Global().Get("JSON").As<Napi::Object>();
  return json.Get("parse").As<Napi::Function>().Call(json, {Napi::String::New(env, text)});
}

std::string stringify_json(Napi::Env env, const Napi::Value& value) {
  const Napi::Object json = env.Global().Get("JSON").As<Napi::Object>();
  const Napi::Value text = json.Get("stringify").As<Napi::Function>().Call(json, {value});
  if (!text.IsString()) throw Napi::TypeError::New(env, "a value JSON cannot represent");
  return text.As<Napi::String>().Utf8Value();
}

}  // namespace cuzk_node
