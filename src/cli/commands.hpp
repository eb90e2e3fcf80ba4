// The commands of the cuzk program, one function each, called by main.cpp
// once CLI11 has parsed the options. Each returns the process's exit status;
// errors are thrown and turned into one "error: ..." line by main.cpp:
//   2  an input is missing, unreadable or malformed, or an option is invalid;
//   1  anything else that stops the command (a witness that does not satisfy
//      the key, a failed write).
// `cuzk verify` alone also returns 1 for a proof that is well-formed but
// invalid, as snarkjs does.
#pragma once

#include <cstdint>
#include <string>

#include "native.hpp"

namespace cuzk::cli {

enum class Backend { automatic, cpu, cuda };

// Options every proving command takes.
struct RunOptions {
  Backend backend = Backend::automatic;
  unsigned threads = 0;  // 0: every hardware thread
};

// The backend that will run: auto picks CUDA where a GPU and a CUDA prover
// exist; asking for one that cannot run is an std::invalid_argument.
Backend resolve_backend(Backend requested);

struct SetupOptions {
  std::string r1cs;        // a circom .r1cs; when empty, `native` says the circuit
  NativeCircuit native;
  std::string zkey, vk;    // outputs; vk may be empty
  RunOptions run;
};

struct BenchOptions {
  NativeCircuit native;
  RunOptions run;
  int repeat = 1;
  std::string json;        // also write the figures here, when set
};

int prove(const std::string& zkey, const std::string& wtns, const std::string& proof, const std::string& pub,
          const RunOptions& opts);
int verify(const std::string& vk, const std::string& pub, const std::string& proof);
int export_vk(const std::string& zkey, const std::string& vk);
int info(const std::string& file);
int setup(const SetupOptions& opts);
int witness(const NativeCircuit& native, const std::string& wtns);
int bench_prove(const BenchOptions& opts);

}  // namespace cuzk::cli
