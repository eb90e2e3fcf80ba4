// The outputs a command writes to paths the user named. A path typed by
// mistake may name an input (`cuzk setup merkle.r1cs`), so before any
// expensive work every command checks its outputs here:
//   - a path whose name or content says it is another kind of file (an .r1cs,
//     a .wtns, a key) is refused, even with --force: no command writes a key
//     over a circuit;
//   - an existing file of the same kind is replaced only with --force (or
//     where the command documents that it replaces its own outputs, such as
//     a benchmark's --json).
// The writers themselves are atomic (io/atomic_file.hpp). Proving commands go
// one step further (remove_earlier_output): a failure leaves no output at all,
// not even an older one that a script ignoring the exit status would take for
// this run's (make's .DELETE_ON_ERROR).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "cuzk/ec/curves.hpp"
#include "cuzk/service/proof.hpp"

namespace cuzk::cli {

// The kind a file's first bytes show: "zkey", "wtns", "r1cs" or "ptau" by the
// iden3 magic, "json" for UTF-8 text that opens with { or [, "empty"
// (nothing could be read), or "" for anything else. What `info` reads by,
// and what outputs are checked against.
std::string content_kind(const std::filesystem::path& path);

// What a command writes: the iden3 binary files by their 4-byte magic, four
// kinds of JSON told apart by their content (json_kind), or bellperson's
// parameter and proof files, which have no magic: any file content_kind
// cannot name counts as one. A JSON file of no kind here (a circuit's
// input.json) is never replaced.
enum class FileKind { zkey, wtns, proof, public_signals, verification_key, report, bellperson };

// The kind of JSON output at `path` (a snarkjs proof, public signals, a
// verification key, a benchmark report or trace), or nullopt for any other
// JSON: what may be replaced by an output of that kind.
std::optional<FileKind> json_kind(const std::filesystem::path& path);

// Throws std::invalid_argument (exit 2) with a one-line message naming `path`
// when writing `kind` there would break the rules above.
void check_output(const std::filesystem::path& path, FileKind kind, bool force);

// For prove and prove-batch, which replace their own outputs without --force
// as rapidsnark's prover does: the rules above, then an earlier file at `path`
// is removed before the work starts. A directory there is a std::runtime_error
// (the output cannot be written).
void remove_earlier_output(const std::filesystem::path& path, FileKind kind);

// --format on setup and prove: what the key or proof is written as.
enum class Format { snarkjs, bellperson };
Format parse_format(const std::string& name);
// std::invalid_argument unless a proof on `curve` can be written as `format`:
// bellperson's encoding exists for bls12381 only. prove asks before proving.
void check_proof_format(Format format, ec::Curve curve);

// A proof and its public signals as `cuzk prove` writes them: proof_path holds
// snarkjs's proof.json (service::snarkjs_json) or, with Format::bellperson,
// bellperson's 192 bytes; public_path holds public.json. The two appear
// together or not at all.
void write_proof_outputs(const std::filesystem::path& proof_path, const std::filesystem::path& public_path,
                         const service::AnyProved& proved, Format format = Format::snarkjs);

}  // namespace cuzk::cli
