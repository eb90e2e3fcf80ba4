// snarkjs's JSON files (snarkjs-formats.md §3):
//   proof.json               {"pi_a": [x, y, "1"], "pi_b": [[x0, x1], [y0, y1], ["1", "0"]],
//                             "pi_c": [x, y, "1"], "protocol": "groth16", "curve": "bn128"}
//   public.json              ["<decimal>", ...]: outputs, then public inputs
//   verification_key.json    protocol, curve, nPublic, vk_alpha_1, vk_beta_2,
//                            vk_gamma_2, vk_delta_2, vk_alphabeta_12, IC
// Numbers are decimal strings of canonical integers; points are projective
// triples. Readers accept what snarkjs accepts and no more where that is
// cheap to say: coordinates must be decimal and < q (scalars < r), z = 0 is
// infinity, z != 0, 1 is read as Jacobian (as snarkjs's fromObject does),
// curve names are snarkjs's aliases. Every problem is a one-line
// io::FormatError "<file>: <where>: <problem>". Writers emit snarkjs's layout
// (affine, z = "1", infinity as ["0", "1", "0"], 1-space indent, snarkjs's
// key order) into a temporary file renamed over the target, so a failure
// leaves no partial output; a write failure is a std::runtime_error.
#pragma once

#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "cuzk/groth16/keys.hpp"
#include "cuzk/groth16/proof.hpp"
#include "cuzk/io/binfile.hpp"

namespace cuzk::io {

// The curve a snarkjs curve name stands for: bn128, bn254, altbn128,
// bls12381, bls12-381 (case-insensitive, as snarkjs's curves.js); nullopt for
// any other name.
std::optional<Curve> curve_from_name(std::string_view name);

// What a snarkjs JSON file holds, judged by its shape alone: public signals
// are an array, a proof has "pi_a", a verification key "vk_alpha_1"; unknown
// for anything else, a file that cannot be read or parsed included (the typed
// readers say why). For naming a file given in the wrong place.
enum class JsonKind { unknown, proof, public_signals, verifying_key };
JsonKind json_kind(const std::filesystem::path& path);
// "a proof", "public signals", "a verification key", "unknown".
const char* json_kind_name(JsonKind kind);

// The "curve" key of a JSON object file (verification_key.json or proof.json),
// to pick the curve before reading it with a typed reader.
Curve read_json_curve(const std::filesystem::path& path);

// proof.json. "curve" may be absent (rapidsnark omits it); when present it
// must name E. "protocol", when present, must be "groth16". Points must be on
// their curves (subgroup membership is groth16::verify's business).
template <class E>
groth16::Proof<E> read_proof_json(const std::filesystem::path& path);
template <class E>
nlohmann::ordered_json proof_to_json(const groth16::Proof<E>& proof);
template <class E>
void write_proof_json(const std::filesystem::path& path, const groth16::Proof<E>& proof);

// public.json: every entry a decimal string < r.
template <class E>
std::vector<typename E::Fr> read_public_json(const std::filesystem::path& path);
template <class E>
nlohmann::ordered_json public_to_json(std::span<const typename E::Fr> publics);
template <class E>
void write_public_json(const std::filesystem::path& path, std::span<const typename E::Fr> publics);

// verification_key.json. protocol "groth16", curve naming E, nPublic a
// non-negative integer with IC of nPublic + 1 points, every point on its curve
// and in its subgroup, vk_alphabeta_12 12 canonical decimals. alphabeta is
// read as written (not recomputed); groth16::verify does not use it.
template <class E>
groth16::VerifyingKey<E> read_vk_json(const std::filesystem::path& path);
template <class E>
nlohmann::ordered_json vk_to_json(const groth16::VerifyingKey<E>& vk);
template <class E>
void write_vk_json(const std::filesystem::path& path, const groth16::VerifyingKey<E>& vk);

// `j` as snarkjs writes its JSON files: 1-space indentation, no final newline.
std::string json_text(const nlohmann::ordered_json& j);
// Writes json_text(j) to a temporary file beside `path`, then renames it over `path`.
void write_json_file(const std::filesystem::path& path, const nlohmann::ordered_json& j);
// Several files that must appear together or not at all (proof.json and
// public.json): every temporary file is written before any is renamed.
void write_json_files(std::span<const std::pair<std::filesystem::path, nlohmann::ordered_json>> files);

// A file's text for the readers below, which fails as the readers above do
// ("<file>: cannot open: <why>").
std::string read_json_document(const std::filesystem::path& path);
// The readers above over a document in memory (a string from a C API or
// network caller), `name` standing for the file in messages.
Curve parse_json_curve(std::string_view text, const std::string& name);
template <class E>
groth16::Proof<E> parse_proof_json(std::string_view text, const std::string& name);
template <class E>
std::vector<typename E::Fr> parse_public_json(std::string_view text, const std::string& name);
template <class E>
groth16::VerifyingKey<E> parse_vk_json(std::string_view text, const std::string& name);

#define CUZK_IO_JSON_EXTERN(E)                                                                         \
  extern template groth16::Proof<E> read_proof_json<E>(const std::filesystem::path&);                  \
  extern template groth16::Proof<E> parse_proof_json<E>(std::string_view, const std::string&);         \
  extern template std::vector<E::Fr> parse_public_json<E>(std::string_view, const std::string&);       \
  extern template groth16::VerifyingKey<E> parse_vk_json<E>(std::string_view, const std::string&);     \
  extern template nlohmann::ordered_json proof_to_json<E>(const groth16::Proof<E>&);                   \
  extern template void write_proof_json<E>(const std::filesystem::path&, const groth16::Proof<E>&);    \
  extern template std::vector<E::Fr> read_public_json<E>(const std::filesystem::path&);                \
  extern template nlohmann::ordered_json public_to_json<E>(std::span<const E::Fr>);                    \
  extern template void write_public_json<E>(const std::filesystem::path&, std::span<const E::Fr>);     \
  extern template groth16::VerifyingKey<E> read_vk_json<E>(const std::filesystem::path&);              \
  extern template nlohmann::ordered_json vk_to_json<E>(const groth16::VerifyingKey<E>&);               \
  extern template void write_vk_json<E>(const std::filesystem::path&, const groth16::VerifyingKey<E>&);
CUZK_IO_JSON_EXTERN(Bn254)
CUZK_IO_JSON_EXTERN(Bls12_381)
#undef CUZK_IO_JSON_EXTERN

}  // namespace cuzk::io
