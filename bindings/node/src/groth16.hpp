#pragma once

#include <napi.h>

namespace cuzk_node {

// The object exported as cuzk.groth16: {prove, verify}.
Napi::Object groth16_exports(Napi::Env env);

}  // namespace cuzk_node
