// cuzk setup: a development proving key (.zkey, or with --format bellperson a
// bellperson parameter file in bellman's convention, and optionally its
// vk.json) from a circom .r1cs or a native example circuit, and cuzk witness:
// a native example's witness as a .wtns, so native circuits take the same
// prove/verify path as circom ones.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>

#include "bellperson.hpp"
#include "commands.hpp"
#include "cuzk/circuit/matrices.hpp"
#include "cuzk/circuit/witness.hpp"
#include "cuzk/groth16/setup.hpp"
#if defined(CUZK_HAVE_CUDA)
#include "cuzk/groth16/setup_cuda.hpp"
#endif
#include "cuzk/io/bellperson_key.hpp"
#include "cuzk/io/json.hpp"
#include "cuzk/io/r1cs.hpp"
#include "cuzk/io/wtns.hpp"
#include "cuzk/io/zkey_writer.hpp"
#include "native.hpp"
#include "output.hpp"
#include "timing.hpp"

namespace cuzk::cli {

namespace {

constexpr const char* kWarning =
    "WARNING: cuzk setup is a DEVELOPMENT setup, NOT FOR PRODUCTION. Its toxic waste was drawn on this\n"
    "machine by one party: whoever could read this process's memory can forge proofs for this key.\n"
    "Production keys come from a multi-party ceremony (snarkjs powersoftau + zkey contribute).\n";

constexpr const char* kUsage =
    "cuzk setup <circuit.r1cs> <out.zkey>, or cuzk setup --circuit partition|hash-chain --curve K --constraints N "
    "<out.zkey>";

// A circom circuit by its name or, for an existing file, its magic.
bool looks_like_r1cs(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::ranges::transform(ext, ext.begin(), [](unsigned char c) { return (char)std::tolower(c); });
  if (ext == ".r1cs") return true;
  std::ifstream in(path, std::ios::binary);
  char magic[4] = {};
  return in.read(magic, 4) && std::string(magic, 4) == "r1cs";
}

// The two forms of the command: the circuit is an .r1cs (r1cs set) or a
// native example (r1cs empty), never both and never a guess.
struct Mode {
  std::string r1cs, zkey;
};

Mode resolve_mode(const SetupOptions& o) {
  if (o.files.size() == 1) {
    const std::string& only = o.files.front();
    if (looks_like_r1cs(only))
      throw std::invalid_argument(only + " is a circuit, and setup needs an output too: cuzk setup " + only +
                                  " <out.zkey>");
    if (std::ranges::find(o.native_given, "--circuit") == o.native_given.end())
      throw std::invalid_argument("setup needs a circuit: " + std::string(kUsage));
    return {"", only};
  }
  const Mode m{o.files[0], o.files[1]};
  if (!o.native_given.empty()) {
    const std::string& flag = o.native_given.front();
    if (flag == "--circuit")
      throw std::invalid_argument("--circuit conflicts with " + m.r1cs + ": the circuit is an .r1cs or --circuit, not both");
    const io::R1cs r1cs = io::R1cs::open(m.r1cs);
    throw std::invalid_argument(
        flag + " conflicts with " + m.r1cs + ", whose " +
        (flag == "--curve" ? std::string("curve is fixed by the file (") + curve_name(r1cs.curve()) + ")"
                           : "size is fixed by the file (" + std::to_string(r1cs.header().n_constraints) +
                                 " constraints)"));
  }
  return m;
}

// The points are multiplied on the first GPU with the cuda backend (auto
// where there is one) and brought back to be written: the same key as the
// host's for the same toxic waste, made many times faster.
template <class E>
groth16::DevKey<E> make_key(const r1cs::ConstraintMatrices<E>& m, const RunOptions& run,
                            groth16::Convention convention = groth16::Convention::snarkjs) {
  const auto toxic = groth16::ToxicWaste<E>::draw();
#if defined(CUZK_HAVE_CUDA)
  if (const Placement where = resolve_placement(run); where.backend == BackendKind::cuda) {
    auto key = groth16::gpu::dev_setup(m, toxic, where.gpus.front(), run.threads, convention);
    groth16::gpu::bring_to_host(key);
    return key;
  }
#endif
  return groth16::dev_setup(m, toxic, run.threads, convention);
}

// The end of setup's line where --vk wrote a verification key too.
std::string vk_written(const SetupOptions& o) { return o.vk.empty() ? "" : "; verification key in " + o.vk; }

// A parameter file: the key in bellman's convention, made where make_key makes
// it (on the GPU with the cuda backend: the host took 90 s on 16 cores for a
// 2^24 Partition's points, and the time grows with the size).
template <class E>
void write_params(const r1cs::ConstraintMatrices<E>& m, const Mode& mode, const SetupOptions& o, Stopwatch& clock) {
  if constexpr (E::id != ec::Curve::bls12_381) {
    throw std::invalid_argument(std::string("--format bellperson: bellperson parameter files exist for bls12381 only "
                                            "(the ZCash point encoding); this circuit is on ") +
                                curve_name(E::id));
  } else {
    std::fputs(kWarning, stderr);
    const auto key = make_key(m, o.run, groth16::Convention::bellman);
    clock.lap("setup");
    io::write_bellperson_params(mode.zkey, io::to_bellperson(key.key));
    clock.lap("write params");
    if (!o.vk.empty()) io::write_vk_json<E>(o.vk, groth16::verifying_key(key.key));
    std::printf("%s: %s parameters in bellman's convention, %zu signals (%zu public), domain 2^%d, A %zu and B %zu "
                "points%s\n",
                mode.zkey.c_str(), ec::curve_name(E::id), key.key.n_vars(), key.key.n_public(),
                __builtin_ctzll(key.key.domain_size()), key.key.a.size(), key.key.b1.size(), vk_written(o).c_str());
  }
}

template <class E>
void write_key(const r1cs::ConstraintMatrices<E>& m, const Mode& mode, const SetupOptions& o, Stopwatch& clock) {
  if (parse_format(o.format) == Format::bellperson) return write_params(m, mode, o, clock);
  std::fputs(kWarning, stderr);
  const auto key = make_key(m, o.run);
  clock.lap("setup");
  io::write_zkey(mode.zkey, key.key);
  clock.lap("write zkey");
  if (!o.vk.empty()) io::write_vk_json<E>(o.vk, groth16::verifying_key(key.key));
  std::printf("%s: %s key, %zu signals (%zu public), domain 2^%d%s\n", mode.zkey.c_str(), ec::curve_name(E::id),
              key.key.n_vars(), key.key.n_public(), __builtin_ctzll(key.key.domain_size()), vk_written(o).c_str());
}

}  // namespace

int setup(const SetupOptions& o) {
  const Mode mode = resolve_mode(o);
  check_output(mode.zkey, parse_format(o.format) == Format::bellperson ? FileKind::bellperson : FileKind::zkey, o.force);
  if (!o.vk.empty()) check_output(o.vk, FileKind::verification_key, o.force);
  Stopwatch clock;
  if (!mode.r1cs.empty()) {
    const io::R1cs r1cs = io::R1cs::open(mode.r1cs);
    clock.lap("read r1cs");
    r1cs.visit([&](const auto& m) { write_key(m, mode, o, clock); });
  } else {
    visit_native(o.native, [&](const auto& circuit) {
      const auto m = circuit::constraint_matrices(circuit);
      clock.lap("matrices");
      write_key(m, mode, o, clock);
    });
  }
  return 0;
}

int witness(const NativeCircuit& native, const std::string& wtns, bool force) {
  check_output(wtns, FileKind::wtns, force);
  visit_native(native, [&](const auto& circuit) {
    using Fr = circuit::FrOf<std::remove_cvref_t<decltype(circuit)>>;
    std::vector<Fr> w(circuit::shape_of(circuit).n_vars);
    circuit::synthesize_witness(circuit, std::span<Fr>(w), {}, {}, {});  // a .wtns holds w alone
    const size_t signals = w.size();
    io::write_wtns(wtns, io::Witness{std::move(w), wtns});
    std::printf("cuzk witness: wrote %s (%s, %zu signals)\n", wtns.c_str(), ec::curve_name(parse_curve(native.curve)),
                signals);
  });
  return 0;
}

}  // namespace cuzk::cli
