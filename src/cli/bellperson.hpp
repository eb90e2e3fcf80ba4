// What the commands share about bellperson's files (io/bellperson*.hpp):
// telling them by content and loading a parameter file with its circuit as a
// key (output.hpp writes a proof in bellperson's encoding).
#pragma once

#include <filesystem>
#include <string>

#include "cuzk/groth16/prover.hpp"
#include "cuzk/io/bellperson.hpp"
#include "native.hpp"
#include "output.hpp"

namespace cuzk::cli {

// A bellperson parameter or verifying-key file has no magic: a file whose
// first bytes are none of the iden3 formats' nor JSON is taken for one, and
// its reader then says whether it is; unless its name is one of those formats'
// (.zkey, .wtns, .r1cs, .ptau, .json), whose reader says what is wrong with a
// damaged file.
bool looks_like_bellperson(const std::filesystem::path& path);

// std::invalid_argument unless exactly one circuit is given for parameter
// file `params` (--r1cs, or a native example's --circuit): what a parameter
// file, which holds no constraints, needs; asked before any work.
void check_circuit_given(const std::string& params, const std::string& r1cs, const NativeCircuit& native);

// The key of parameter file `params` for its circuit: the .r1cs `r1cs`, or
// else the native example `native` names, on BLS12-381 (native.curve is not
// read). FormatError naming the file when the circuit is on another
// curve or does not fit the parameters; std::invalid_argument when neither
// or both are given.
groth16::SharedKey<ec::Bls12_381> load_bellperson_key(const std::string& params, const std::string& r1cs,
                                                      const NativeCircuit& native);

// The verifying key of a parameter or .vk file.
groth16::VerifyingKey<ec::Bls12_381> read_bellperson_verifying_key(const std::string& path);

// `cuzk info` on a bellperson file (a parameter file, a .vk or a proof).
void bellperson_info(const std::string& path);

}  // namespace cuzk::cli
