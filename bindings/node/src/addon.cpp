// The addon's exports: cuzk.version, cuzk.backends, cuzk.Prover and
// cuzk.groth16, each a thin shell over libcuzk's own C API (cuzk.h).
#include <napi.h>

#include <sstream>
#include <string>

#include "cuzk/cuzk.h"
#include "groth16.hpp"
#include "prover.hpp"

namespace cuzk_node {

namespace {

// cuzk_build_backends()'s "cpu,cuda" as ["cpu", "cuda"].
Napi::Array backends(Napi::Env env) {
  Napi::Array list = Napi::Array::New(env);
  std::istringstream in(cuzk_build_backends());
  for (std::string name; std::getline(in, name, ',');) list.Set(list.Length(), name);
  return list;
}

}  // namespace

}  // namespace cuzk_node

static Napi::Object init(Napi::Env env, Napi::Object exports) {
  exports.Set("version", cuzk_version());
  exports.Set("backends", cuzk_node::backends(env));
  exports.Set("Prover", cuzk_node::Prover::Define(env));
  exports.Set("groth16", cuzk_node::groth16_exports(env));
  return exports;
}

NODE_API_MODULE(cuzk, init)
