// JS arguments turned into what libcuzk's functions take, on the main
// thread; a value of the wrong type throws a TypeError naming the argument.
#pragma once

#include <napi.h>

#include <optional>
#include <string>
#include <vector>

#include "cuzk/cuzk.h"

namespace cuzk_node {

// A key's or a witness's bytes as the caller gave them: a file name, or a
// Buffer/Uint8Array read in place (the worker using it keeps it alive).
struct Source {
  std::string path;
  const void* data = nullptr;  // non-NULL exactly when the bytes were given
  size_t size = 0;

  cuzk_witness witness() const { return {data, size, data ? nullptr : path.c_str()}; }
};
Source to_source(const Napi::Value& value, const char* name);

// An optional string (undefined: none).
std::optional<std::string> to_optional_string(const Napi::Value& value, const char* name);
std::string to_string(const Napi::Value& value, const char* name);
// An object that is not null, an array or a function.
Napi::Object to_object(const Napi::Value& value, const char* name);

// A prover's options from a JS object ({backend, gpus, threads,
// synthesisThreads, workersPerGpu, finalizerThreads, maxPendingPartitions};
// undefined: the defaults). An unknown key is a TypeError, so that a
// misspelt option is not silently ignored.
class ProverOptions {
 public:
  explicit ProverOptions(const Napi::Value& value);
  // Points into this object: valid while it lives.
  cuzk_options c_options() const;

 private:
  cuzk_options base_;
  std::optional<std::string> backend_;
  std::vector<int> gpus_;
};

// JSON text to a JS value and back, through JS's own JSON.parse and JSON.stringify.
Napi::Value parse_json(Napi::Env env, const std::string& text);
std::string stringify_json(Napi::Env env, const Napi::Value& value);

}  // namespace cuzk_node
