// bellperson's files in the commands: `prove` and `setup` with --format
// bellperson, `info` and `export-vk` on parameter and .vk files, and
// `convert-proof`, which turns a bellperson proof into what snarkjs verifies.
#include "bellperson.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <system_error>

#include "commands.hpp"
#include "cuzk/circuit/matrices.hpp"
#include "cuzk/io/bellperson_key.hpp"
#include "cuzk/io/bellperson_proof.hpp"
#include "cuzk/io/json.hpp"
#include "cuzk/io/r1cs.hpp"
#include "output.hpp"

namespace cuzk::cli {

namespace {

using E = ec::Bls12_381;
std::string str(uint64_t v) { return std::to_string(v); }
void row(const char* key, const std::string& value) { std::printf("  %-14s %s\n", key, value.c_str()); }

}  // namespace

bool looks_like_bellperson(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  std::ranges::transform(ext, ext.begin(), [](unsigned char c) { return (char)std::tolower(c); });
  for (const char* other : {".zkey", ".wtns", ".r1cs", ".ptau", ".json"})
    if (ext == other) return false;
  return content_kind(path).empty();
}

void check_circuit_given(const std::string& params, const std::string& r1cs, const NativeCircuit& native) {
  if (r1cs.empty() == native.name.empty())
    throw std::invalid_argument(params + " is a bellperson parameter file, which holds no constraints: give the "
                                "circuit with --r1cs circuit.r1cs or --circuit C --constraints N" +
                                (r1cs.empty() ? "" : ", not both"));
}

groth16::SharedKey<E> load_bellperson_key(const std::string& params, const std::string& r1cs_path,
                                          const NativeCircuit& native) {
  check_circuit_given(params, r1cs_path, native);
  // The counts first: a circuit that does not fit is told without reading
  // the file, which may be tens of GB.
  const auto key = [&](const r1cs::ConstraintMatrices<E>& m, const std::string& circuit) {
    const std::string name = params + " with " + circuit;
    io::check_circuit(io::read_bellperson_counts(params), m, name);
    return groth16::PreparedKey<E>::make(io::bellman_key(io::read_bellperson_params(params), m, name));
  };
  if (!r1cs_path.empty()) {
    const io::R1cs r1cs = io::R1cs::open(r1cs_path);
    if (r1cs.curve() != ec::Curve::bls12_381)
      throw io::FormatError(r1cs_path + ": its curve is " + curve_name(r1cs.curve()) +
                            "; bellperson parameters are on bls12381 only");
    return key(r1cs.as<E>(), r1cs_path);
  }
  return visit_native_on<E>(native, [&](const auto& circuit) {
    return key(circuit::constraint_matrices(circuit),
               "the " + native.name + " circuit of " + std::to_string(native.constraints) + " constraints");
  });
}

groth16::VerifyingKey<E> read_bellperson_verifying_key(const std::string& path) {
  if (const std::string kind = content_kind(path); !kind.empty() && kind != "empty")
    throw io::FormatError(path + ": a " + kind + " file, not a bellperson parameter or verifying-key file");
  return io::verifying_key(io::read_bellperson_vk(path));
}

void bellperson_info(const std::string& path) {
  std::error_code ec;
  const uintmax_t size = std::filesystem::file_size(path, ec);
  if (!ec && size == io::kBellpersonProofSize) {
    io::read_bellperson_proof(path);
    std::printf("%s: bellperson Groth16 proof (A, B, C compressed)\n", path.c_str());
    row("curve", curve_name(E::id));
    return;
  }
  bool is_params = false;
  io::BellpersonVk<E> vk;
  try {
    vk = io::read_bellperson_vk(path, &is_params);
  } catch (const io::FormatError& e) {
    throw io::FormatError(path + ": not a .zkey, .wtns, .r1cs, snarkjs JSON or bellperson file (read as bellperson's: " +
                          std::string(e.what()).substr(path.size() + 2) + ")");
  }
  if (!is_params) {
    std::printf("%s: bellperson Groth16 verifying key\n", path.c_str());
    row("curve", curve_name(E::id));
    row("public", str(vk.ic.size() - 1) + " inputs (IC " + str(vk.ic.size()) + ")");
    return;
  }
  io::read_bellperson_counts(path);  // the layout, before the points are read and checked
  const io::BellpersonParams<E> p = io::read_bellperson_params(path);
  std::printf("%s: bellperson Groth16 parameters (bellman's convention)\n", path.c_str());
  row("curve", curve_name(E::id));
  row("signals", str(p.ic.size() + p.l.size()) + " (the constant 1, " + str(p.ic.size() - 1) + " public, " +
                     str(p.l.size()) + " private)");
  const uint64_t domain = p.h.size() + 1;
  row("domain", str(domain) + ((domain & (domain - 1)) == 0 ? " = 2^" + str(__builtin_ctzll(domain)) : " (not a power of two)"));
  row("points", "IC " + str(p.ic.size()) + ", H " + str(p.h.size()) + ", L " + str(p.l.size()) + ", A " +
                    str(p.a.size()) + ", B_G1 " + str(p.b_g1.size()) + ", B_G2 " + str(p.b_g2.size()));
  const std::string signals = str(p.ic.size() + p.l.size());
  row("density", "A " + str(p.a.size()) + " of " + signals + " signals, B " + str(p.b_g1.size()) + " of " + signals);
  row("size", str(size) + " bytes");
}

int convert_proof(const std::string& vk_path, const std::string& proof_path, const std::string& public_path,
                  const std::string& out_dir, bool force) {
  const std::filesystem::path dir(out_dir);
  const std::filesystem::path outs[] = {dir / "verification_key.json", dir / "proof.json", dir / "public.json"};
  const FileKind kinds[] = {FileKind::verification_key, FileKind::proof, FileKind::public_signals};
  // The folder is made below, once the inputs are read: a new one holds no file to check.
  if (std::filesystem::is_directory(dir))
    for (size_t i = 0; i < 3; ++i) check_output(outs[i], kinds[i], force);
  const groth16::VerifyingKey<E> vk = read_bellperson_verifying_key(vk_path);
  const groth16::Proof<E> proof = io::read_bellperson_proof(proof_path);
  const std::vector<E::Fr> publics = io::read_public_json<E>(public_path);
  if (publics.size() != vk.n_public())
    throw io::FormatError(public_path + ": " + str(publics.size()) + " public inputs; the key of " + vk_path +
                          " takes " + str(vk.n_public()));
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw std::runtime_error(out_dir + ": cannot create the directory: " + ec.message());
  const std::pair<std::filesystem::path, nlohmann::ordered_json> files[] = {
      {outs[0], io::vk_to_json<E>(vk)},
      {outs[1], io::proof_to_json<E>(proof)},
      {outs[2], io::public_to_json<E>(publics)}};
  io::write_json_files(files);
  std::printf("cuzk convert-proof: wrote %s, %s and %s\n", outs[0].c_str(), outs[1].c_str(), outs[2].c_str());
  return 0;
}

}  // namespace cuzk::cli
