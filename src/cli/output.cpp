#include "output.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <fstream>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>

#include <nlohmann/json.hpp>

#include "cuzk/io/atomic_file.hpp"
#include "cuzk/io/bellperson_proof.hpp"

namespace cuzk::cli {

namespace {

// The extension and content_kind of a kind's files ("" for bellperson's).
const char* file_type(FileKind k) {
  switch (k) {
    case FileKind::zkey: return "zkey";
    case FileKind::wtns: return "wtns";
    case FileKind::bellperson: return "";
    default: return "json";
  }
}

// A kind in a message: "a zkey file", "a proof".
std::string described(FileKind k) {
  switch (k) {
    case FileKind::proof: return "a proof";
    case FileKind::public_signals: return "public signals";
    case FileKind::verification_key: return "a verification key";
    case FileKind::report: return "a benchmark report";
    case FileKind::bellperson: return "a bellperson file";
    default: return std::string("a ") + file_type(k) + " file";
  }
}

// JSON outputs are small; a larger file is no output of cuzk's.
constexpr std::uintmax_t kLargestJsonOutput = 64 << 20;

// The kind a file name suggests: "zkey", "wtns", "r1cs", "ptau", "json", or
// "" for any other extension.
std::string kind_by_name(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return (char)std::tolower(c); });
  for (const char* k : {"zkey", "wtns", "r1cs", "ptau", "json"})
    if (ext == std::string(".") + k) return k;
  return "";
}

// Whether `head`, a file's first bytes, can open a JSON text: UTF-8 in which
// the only control characters are whitespace (RFC 8259). `cut`: the head
// stops where the file goes on, so a character may be divided at its end.
// A bellperson parameter file opens with a coordinate, random bytes, which
// start with whitespace and then "[" or "{" in about one key of a thousand;
// the rest of its head is no such text.
bool json_text_head(std::string_view head, bool cut) {
  for (size_t i = 0; i < head.size();) {
    const auto c = (unsigned char)head[i];
    if (c < 0x80) {
      if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return false;
      ++i;
      continue;
    }
    const size_t length = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    if (length == 0) return false;
    for (size_t k = 1; k < length; ++k) {
      if (i + k == head.size()) return cut;
      if (((unsigned char)head[i + k] & 0xc0) != 0x80) return false;
    }
    i += length;
  }
  return true;
}

// "a zkey", "an r1cs".
std::string a(const std::string& kind) { return (kind.ends_with("r1cs") ? "an " : "a ") + kind; }

// The rules on kinds: refuses a name or an existing file of another kind.
// Returns whether a file of `kind` (or an empty one) is already there.
bool check_kind(const std::filesystem::path& path, FileKind kind) {
  const std::string want = file_type(kind), p = path.string();
  const std::string named = kind_by_name(path);
  if (!named.empty() && named != want)
    throw std::invalid_argument(p + ": " + a("." + named) + " name for the " +
                                (want.empty() ? std::string("bellperson") : want) + " file this command writes (give it " +
                                (want.empty() ? std::string("another name") : "a ." + want + " name") + ")");
  // A file's folder must be there: a folder named as one (prove-batch's and
  // client await's --out) is made, never the folders above a file's name,
  // where a typo would make a tree.
  std::error_code ec;
  const std::filesystem::path folder = path.has_parent_path() ? path.parent_path() : ".";
  if (!std::filesystem::is_directory(folder, ec))
    throw std::invalid_argument(p + ": the folder " + folder.string() + " does not exist");
  const auto status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) return false;
  if (std::filesystem::is_directory(status)) throw std::invalid_argument(p + " is a directory, not a file to write");
  const std::string held = content_kind(path);
  if (held == "empty") return true;
  const auto refuse = [&](const std::string& what) {
    throw std::invalid_argument(p + " exists and is " + what + ": it is not replaced by " + described(kind) +
                                ", even with --force");
  };
  if (held != want) refuse(held.empty() ? "not " + a(want) + " file" : a(held) + " file");
  if (want == "json") {
    const std::optional<FileKind> role = json_kind(path);
    if (!role) refuse("JSON that cuzk did not write");
    if (*role != kind) refuse(described(*role));
  }
  return true;
}

}  // namespace

std::optional<FileKind> json_kind(const std::filesystem::path& path) {
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec || size > kLargestJsonOutput) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (j.is_object()) {
    if (j.contains("pi_a")) return FileKind::proof;
    if (j.contains("vk_alpha_1")) return FileKind::verification_key;
    if (j.contains("bench") || j.contains("traceEvents")) return FileKind::report;
  }
  const auto decimal = [](const nlohmann::json& e) {
    return e.is_string() && !e.get_ref<const std::string&>().empty() &&
           std::all_of(e.get_ref<const std::string&>().begin(), e.get_ref<const std::string&>().end(),
                       [](unsigned char c) { return std::isdigit(c); });
  };
  if (j.is_array() && std::all_of(j.begin(), j.end(), decimal)) return FileKind::public_signals;
  return std::nullopt;
}

std::string content_kind(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  char head[64];
  in.read(head, sizeof head);
  const std::string bytes(head, (size_t)in.gcount());
  if (bytes.empty()) return "empty";
  for (const char* magic : {"zkey", "wtns", "r1cs", "ptau"})
    if (bytes.starts_with(magic)) return magic;
  const size_t first = bytes.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && (bytes[first] == '{' || bytes[first] == '[') &&
      json_text_head(bytes, bytes.size() == sizeof head))
    return "json";
  return "";
}

void check_output(const std::filesystem::path& path, FileKind kind, bool force) {
  if (check_kind(path, kind) && !force) throw std::invalid_argument(path.string() + " exists (--force replaces it)");
}

void remove_earlier_output(const std::filesystem::path& path, FileKind kind) {
  if (std::filesystem::is_directory(path))
    throw std::runtime_error(path.string() + " is a directory, not a file to write");
  if (!check_kind(path, kind)) return;
  std::error_code ec;
  if (!std::filesystem::remove(path, ec) && ec)
    throw std::runtime_error(path.string() + ": cannot remove the earlier file: " + ec.message());
}

Format parse_format(const std::string& name) {
  if (name == "snarkjs") return Format::snarkjs;
  if (name == "bellperson") return Format::bellperson;
  throw std::invalid_argument("--format " + name + ": the formats are snarkjs and bellperson");
}

void check_proof_format(Format format, ec::Curve curve) {
  if (format == Format::bellperson && curve != ec::Curve::bls12_381)
    throw std::invalid_argument(std::string("--format bellperson: bellperson's proof encoding exists for bls12381 "
                                            "only; this key is on ") +
                                ec::curve_name(curve));
}

void write_proof_outputs(const std::filesystem::path& proof_path, const std::filesystem::path& public_path,
                         const service::AnyProved& proved, Format format) {
  std::visit(
      [&]<class E>(const service::Proved<E>& p) {
        check_proof_format(format, E::id);
        const service::SnarkjsJson json = service::snarkjs_json(p);
        std::span<const uint8_t> proof = io::bytes_of(std::span(json.proof));
        std::array<uint8_t, io::kBellpersonProofSize> encoded;
        if constexpr (std::is_same_v<E, ec::Bls12_381>)
          if (format == Format::bellperson) {
            encoded = io::encode_bellperson_proof(p.proof);
            proof = encoded;
          }
        const io::FileContents files[] = {{proof_path, proof}, {public_path, io::bytes_of(std::span(json.publics))}};
        io::write_together(files);
      },
      proved);
}

}  // namespace cuzk::cli
