// Groth16 proofs in bellperson's byte encoding (Proof::write): A, B and C
// compressed in the ZCash encoding (ec/encoding.hpp), 48 + 96 + 48 bytes, and
// nothing else: no curve, no public inputs. BLS12-381 only, as the encoding.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>

#include "cuzk/ec/curves.hpp"
#include "cuzk/groth16/proof.hpp"
#include "cuzk/io/binfile.hpp"

namespace cuzk::io {

inline constexpr size_t kBellpersonProofSize = 192;

std::array<uint8_t, kBellpersonProofSize> encode_bellperson_proof(const groth16::Proof<Bls12_381>& proof);

// Validates as bellperson's Proof::read does: exactly 192 bytes, each point
// on its curve and in its subgroup, none at infinity. Throws FormatError, one
// line "<name>: offset N: <problem>".
groth16::Proof<Bls12_381> decode_bellperson_proof(const std::string& name, std::span<const uint8_t> bytes);

groth16::Proof<Bls12_381> read_bellperson_proof(const std::filesystem::path& path);
// Written atomically (io/atomic_file.hpp).
void write_bellperson_proof(const std::filesystem::path& path, const groth16::Proof<Bls12_381>& proof);

}  // namespace cuzk::io
