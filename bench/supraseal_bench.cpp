// supraseal-c2's ABI at a partition's size, for any library that serves it:
// this build's libcuzk_supraseal by default, or with --library one of the
// rulers (../shared/anchors: supranational's supraseal-c2 and Curio's fork,
// each a libsupraseal_c2.so), so that one caller times all three. A
// bellperson parameter file of the Partition circuit (`cuzk setup --format
// bellperson --circuit partition`) is loaded with create_SRS, then proved the
// way bellperson calls it (the circuit's densities as bitmaps, a, b, c with
// the input constraints, the assignment, r and s):
//   batch (default): CALLS calls of generate_groth16_proofs_c with CIRCUITS
//     circuits each, after one warm-up call (which uploads the key);
//   --split T: Curio's pattern, T threads sharing one GPU mutex, each proving
//     one circuit at a time (generate_groth16_proofs_start_c, then
//     finalize_groth16_proof_c) until CALLS x CIRCUITS circuits are proved,
//     after a warm-up circuit on each thread.
// With --witness-only, the same again through cuzk's extension (libcuzk_
// supraseal only): the circuit's matrices registered once from CSR arrays
// (cuzk_supraseal_register_circuit), then every circuit proved from its
// assignment alone (cuzk_supraseal_prove, or cuzk_supraseal_prove_start for
// --split), its proofs compared byte for byte with the a/b/c path's.
// --pinned puts each circuit's a, b, c and assignment in memory from the
// library's cuzk_supraseal_alloc_pinned (page-locked where it proves on GPUs,
// as Curio's PinnedPool does with cudaHostAlloc), which the witness-only
// path proves from too; without it they are in pageable vectors.
// Every proof is verified here, against the parameter file's verifying key,
// by cuzk's verifier: the library under test does not vouch for itself.
// Prints, per path, the wall time and the process's CPU time (user + system)
// per circuit, and the host memory held (resident now and at its peak), and
// beside the caller's own inputs per circuit what the timed phase's peak
// holds beyond them and the parameters (and the registered circuit's rows),
// per circuit in flight: the host memory the library takes per partition
// beyond the caller's (the peak is reset after the warm-up, whose buffers
// stay counted).
//
//   supraseal_bench [--library PATH] [--split T] [--pinned] [--witness-only] PARAMS CONSTRAINTS CIRCUITS CALLS
#include <dlfcn.h>
#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "cuzk/circuit/examples/partition.hpp"
#include "cuzk/circuit/matrices.hpp"
#include "cuzk/circuit/witness.hpp"
#include "cuzk/groth16/density.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/io/bellperson.hpp"
#include "cuzk/io/bellperson_key.hpp"
#include "cuzk/io/csr.hpp"
#include "cuzk/supraseal.h"
#include "cuzk/util/parallel.hpp"

#ifndef CUZK_SUPRASEAL_LIBRARY
#error "CUZK_SUPRASEAL_LIBRARY: the path of this build's libcuzk_supraseal (bench/CMakeLists.txt)"
#endif

namespace {

using namespace cuzk;
using E = ec::Bls12_381;
using Fr = E::Fr;
using Clock = std::chrono::steady_clock;

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "supraseal_bench: %s\n", what.c_str());
  std::exit(1);
}

// The ABI's functions, looked up in the library under test. Curio's fork
// takes two more arguments in generate_groth16_proofs_c (a GPU mutex and a
// GPU index); they are always passed (NULL, -1), which supranational's
// six-argument function and cuzk's ignore under the x86-64 and AArch64
// calling conventions. The split phase exists only where start_c does.
struct Abi {
  void* library = nullptr;
  decltype(&create_SRS) create_srs = nullptr;
  decltype(&drop_SRS) drop_srs = nullptr;
  supraseal_error (*prove)(const supraseal_assignment*, size_t, const supraseal_fr*, const supraseal_fr*,
                           supraseal_proof*, const supraseal_srs*, void*, int) = nullptr;
  decltype(&generate_groth16_proofs_start_c) start = nullptr;
  decltype(&finalize_groth16_proof_c) finalize = nullptr;
  decltype(&destroy_pending_proof) destroy_pending = nullptr;
  decltype(&create_gpu_mutex) create_mutex = nullptr;
  decltype(&destroy_gpu_mutex) destroy_mutex = nullptr;
  // cuzk's own: the library's page-locked memory, and the witness-only
  // extension.
  decltype(&cuzk_supraseal_alloc_pinned) alloc_pinned = nullptr;
  decltype(&cuzk_supraseal_free_pinned) free_pinned = nullptr;
  decltype(&cuzk_supraseal_register_circuit) register_circuit = nullptr;
  decltype(&cuzk_supraseal_drop_circuit) drop_circuit = nullptr;
  decltype(&cuzk_supraseal_prove) prove_witness = nullptr;
  decltype(&cuzk_supraseal_prove_start) start_witness = nullptr;

  explicit Abi(const std::string& path) {
    library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!library) fail(std::string("cannot load the library: ") + dlerror());
    create_srs = must<decltype(create_srs)>("create_SRS");
    drop_srs = must<decltype(drop_srs)>("drop_SRS");
    prove = must<decltype(prove)>("generate_groth16_proofs_c");
    start = may<decltype(start)>("generate_groth16_proofs_start_c");
    finalize = may<decltype(finalize)>("finalize_groth16_proof_c");
    destroy_pending = may<decltype(destroy_pending)>("destroy_pending_proof");
    create_mutex = may<decltype(create_mutex)>("create_gpu_mutex");
    destroy_mutex = may<decltype(destroy_mutex)>("destroy_gpu_mutex");
    alloc_pinned = may<decltype(alloc_pinned)>("cuzk_supraseal_alloc_pinned");
    free_pinned = may<decltype(free_pinned)>("cuzk_supraseal_free_pinned");
    register_circuit = may<decltype(register_circuit)>("cuzk_supraseal_register_circuit");
    drop_circuit = may<decltype(drop_circuit)>("cuzk_supraseal_drop_circuit");
    prove_witness = may<decltype(prove_witness)>("cuzk_supraseal_prove");
    start_witness = may<decltype(start_witness)>("cuzk_supraseal_prove_start");
  }
  bool has_split() const { return start && finalize && destroy_pending; }
  bool has_witness_only() const { return register_circuit && drop_circuit && prove_witness && start_witness; }

 private:
  template <class F>
  F may(const char* name) {
    return reinterpret_cast<F>(dlsym(library, name));
  }
  template <class F>
  F must(const char* name) {
    if (F f = may<F>(name)) return f;
    fail(std::string("the library has no ") + name);
  }
};

// Takes the error's message (the caller frees it, as the crate does).
void ok(const supraseal_error& e, const char* what) {
  if (e.code == 0) return;
  std::string message = e.message ? e.message : "";
  std::free(e.message);
  fail(std::string(what) + ": error " + std::to_string(e.code) + ": " + message);
}

double seconds(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// The process's CPU seconds so far, every thread's (the library's own too),
// in user space and in the kernel (page faults, page locking, the driver's
// ioctls), which point at different causes.
struct CpuTime {
  double user = 0, system = 0;
  double total() const { return user + system; }
  CpuTime operator-(const CpuTime& o) const { return {user - o.user, system - o.system}; }
  CpuTime& operator+=(const CpuTime& o) { return user += o.user, system += o.system, *this; }
};

CpuTime cpu_time() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  const auto s = [](const timeval& t) { return (double)t.tv_sec + (double)t.tv_usec / 1e6; };
  return {s(u.ru_utime), s(u.ru_stime)};
}

// Resident host memory now and at its peak, in GiB (/proc/self/status).
std::pair<double, double> resident_gib() {
  std::ifstream status("/proc/self/status");
  double now = 0, peak = 0;
  for (std::string line; std::getline(status, line);) {
    const auto kib = [&] { return std::strtod(line.c_str() + line.find(':') + 1, nullptr) / (1 << 20); };
    if (line.rfind("VmRSS:", 0) == 0) now = kib();
    if (line.rfind("VmHWM:", 0) == 0) peak = kib();
  }
  return {now, peak};
}

// Resets the peak of resident memory to what is resident now (Linux's
// clear_refs 5), so that the timed phase's peak is its own; the resident GiB
// it starts from, or a negative number where the kernel does not allow it.
double reset_peak() {
  std::ofstream clear("/proc/self/clear_refs");
  if (!(clear << "5" << std::flush)) return -1;
  return resident_gib().first;
}

// What the host memory of a run is measured from, in GiB resident: once the
// caller's inputs and the parameters are in memory and before any proof
// (`loaded`), and as the timed phase starts, after the warm-up (`timed`, < 0
// where the peak cannot be reset).
struct Resident {
  double loaded = 0, timed = -1;
  const char* holds = "the parameters";  // what `loaded` holds beyond the caller's inputs
};

// One phase's timed circuits: wall and CPU seconds, per circuit.
struct Figures {
  double wall = 0, cpu = 0;
};

// The figures of one phase's timed circuits, printed: `in_flight` of them at
// a time, `own_gib` of the caller's inputs each.
Figures report(const std::string& phase, size_t circuits, double wall, CpuTime cpu, std::vector<double> per_unit,
               const char* unit, size_t in_flight, double own_gib, Resident from) {
  std::sort(per_unit.begin(), per_unit.end());
  const Figures each{wall / (double)circuits, cpu.total() / (double)circuits};
  const auto [now, peak] = resident_gib();
  std::printf("supraseal_bench: %s: %zu circuits in %.3f s: %.3f s a circuit (median %s %.3f s), CPU %.2f s a "
              "circuit (user %.2f, system %.2f); host memory %.2f GiB resident, %.2f GiB peak (verified proofs)\n",
              phase.c_str(), circuits, wall, each.wall, unit, per_unit[per_unit.size() / 2], each.cpu,
              cpu.user / (double)circuits, cpu.system / (double)circuits, now, peak);
  if (from.timed < 0) {
    std::printf("supraseal_bench: host memory per circuit in flight: not measured (no clear_refs)\n");
    return each;
  }
  // The library's memory beyond the caller's inputs and the parameters: its
  // buffers, staging rings and the CUDA runtime's own, all of it counted
  // against the circuits in flight (an upper bound of what each holds).
  constexpr double kMib = 1024;
  std::printf("supraseal_bench: host memory per circuit in flight (%zu at a time): the caller's inputs %.0f MiB; "
              "beyond them and %s (%.0f MiB resident before the path's first proof) the peak holds %.0f MiB: "
              "%.0f MiB a circuit in flight; the timed phase's own growth %.0f MiB\n",
              in_flight, own_gib * kMib, from.holds, from.loaded * kMib, (peak - from.loaded) * kMib,
              (peak - from.loaded) * kMib / (double)in_flight, (peak - from.timed) * kMib);
  return each;
}

// How one path proves: every circuit in one call (proofs in order), or
// circuit c alone through the split phase's start. `label` begins its lines
// ("" for the a/b/c path, whose summary lines gpu-check.sh reads as they were).
struct Path {
  std::string label;
  const char *all_name, *start_name;
  std::function<supraseal_error(supraseal_proof*)> all;
  std::function<supraseal_error(size_t c, void* mutex, void** pending)> start;
  double own_gib;   // the caller's inputs a circuit
  Resident loaded;  // what its memory is measured from
};

// The circuit's A, B and C as compressed sparse rows, as a Curio PCE holds
// them; the arrays live as long as this.
struct Csr {
  std::array<io::CsrArrays, 3> arrays;
  cuzk_supraseal_csr matrix[3];

  Csr(const Csr&) = delete;
  explicit Csr(const r1cs::ConstraintMatrices<E>& m) : arrays(io::csr_of(m)) {
    for (int k = 0; k < 3; ++k)
      matrix[k] = {arrays[k].row_ptrs.data(), arrays[k].cols.data(),
                   reinterpret_cast<const supraseal_fr*>(arrays[k].vals.data()), arrays[k].cols.size()};
  }
  double gib() const {
    size_t bytes = 0;
    for (const auto& a : arrays)
      bytes += a.row_ptrs.size() * sizeof(a.row_ptrs[0]) + a.cols.size() * sizeof(a.cols[0]) +
               a.vals.size() * sizeof(a.vals[0]);
    return (double)bytes / (1u << 30);
  }
};

}  // namespace

int main(int argc, char** argv) {
  std::string library = CUZK_SUPRASEAL_LIBRARY;
  size_t split = 0;
  bool split_given = false, pinned = false, witness_only = false;
  std::vector<const char*> args;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--library" && i + 1 < argc) library = argv[++i];
    else if (arg == "--split" && i + 1 < argc) split = std::strtoull(argv[++i], nullptr, 10), split_given = true;
    else if (arg == "--pinned") pinned = true;
    else if (arg == "--witness-only") witness_only = true;
    else args.push_back(argv[i]);
  }
  const size_t circuits = args.size() == 4 ? std::strtoull(args[2], nullptr, 10) : 0;
  const size_t calls = args.size() == 4 ? std::strtoull(args[3], nullptr, 10) : 0;
  if (circuits == 0 || calls == 0 || (split_given && split == 0)) {
    std::fprintf(stderr, "usage: supraseal_bench [--library PATH] [--split THREADS] [--pinned] [--witness-only] "
                         "PARAMS CONSTRAINTS CIRCUITS CALLS\n");
    return 2;
  }
  const char* params = args[0];
  const uint64_t constraints = std::strtoull(args[1], nullptr, 10);
  const Abi abi(library);
  if (split && !abi.has_split()) fail(library + ": no split phase (generate_groth16_proofs_start_c)");
  if (pinned && !(abi.alloc_pinned && abi.free_pinned)) fail(library + ": no cuzk_supraseal_alloc_pinned for --pinned");
  if (witness_only && !abi.has_witness_only())
    fail(library + ": no witness-only extension (cuzk_supraseal_register_circuit): only libcuzk_supraseal has it");
  std::printf("supraseal_bench: library %s, %s, the caller's inputs in %s memory\n", library.c_str(),
              split ? ("split phase, " + std::to_string(split) + " threads, one circuit each").c_str()
                    : ("batch, " + std::to_string(circuits) + " circuits a call").c_str(),
              pinned ? "cuzk_supraseal_alloc_pinned's" : "pageable");

  auto t0 = Clock::now();
  // A circuit's synthesis runs on one thread (4.8 s at 2^24, 38 s for 8
  // circuits one after another, in every run of gpu-check.sh's seven at each
  // size), and so does the recording of its matrices (at 2^26 they and 2
  // circuits after them took 41.7 s): all of them go on the CPU pool's
  // threads side by side, the matrices as task 0.
  r1cs::ConstraintMatrices<E> m;
  std::vector<circuit::Assignment<Fr>> witnesses(circuits);
  std::vector<groth16::Randomness<Fr>> randomness(circuits);
  for (auto& r : randomness) r = groth16::Randomness<Fr>::draw();
  parallel_tasks(circuits + 1, 0, [&](size_t k) {
    if (k == 0) m = circuit::constraint_matrices(circuit::Partition<E>::for_constraints(constraints, 0));
    else witnesses[k - 1] = circuit::synthesize_assignment(circuit::Partition<E>::for_constraints(constraints, k));
  });
  const groth16::Density a = groth16::column_density(m, 0), b = groth16::column_density(m, 1);
  const size_t n_in = m.n_public + 1, n_aux = m.n_vars - n_in, abc_size = m.n_constraints() + n_in;
  const auto a_aux = a.bitmap(n_in, n_aux), b_inp = b.bitmap(0, n_in), b_aux = b.bitmap(n_in, n_aux);
  std::printf("supraseal_bench: Partition, %zu constraints (+%zu input constraints), %zu inputs, %zu private; "
              "%zu circuits synthesized in %.1f s (not measured below)\n",
              m.n_constraints(), n_in, n_in, n_aux, circuits, seconds(t0));

  size_t b_inputs = 0;
  for (size_t i = 0; i < n_in; ++i) b_inputs += b.has(i);
  const size_t a_aux_count = a.count() - n_in, b_aux_count = b.count() - b_inputs;
  // Each circuit's inputs where the caller keeps them: a, b, c (abc_size
  // each), the inputs and the private values. --pinned: one buffer from the
  // library a circuit, the vectors' a, b, c freed (their publics kept to verify).
  const size_t own_values = 3 * abc_size + n_in + n_aux;
  const auto gib = [](size_t values) { return (double)(values * sizeof(Fr)) / (1 << 30); };
  std::vector<void*> pinned_inputs;
  std::vector<supraseal_assignment> provers;
  std::vector<supraseal_fr> r_s, s_s;
  for (size_t k = 0; k < circuits; ++k) {
    auto& w = witnesses[k];
    const supraseal_fr *va = reinterpret_cast<const supraseal_fr*>(w.a.data()),
                       *vb = reinterpret_cast<const supraseal_fr*>(w.b.data()),
                       *vc = reinterpret_cast<const supraseal_fr*>(w.c.data()),
                       *vw = reinterpret_cast<const supraseal_fr*>(w.w.data());
    if (pinned) {
      void* p = nullptr;
      ok(abi.alloc_pinned(own_values * sizeof(Fr), &p), "cuzk_supraseal_alloc_pinned");
      auto* at = static_cast<supraseal_fr*>(p);
      va = at, vb = at + abc_size, vc = at + 2 * abc_size, vw = at + 3 * abc_size;
      for (const std::vector<Fr>* v : {&w.a, &w.b, &w.c})
        std::memcpy(at, v->data(), abc_size * sizeof(Fr)), at += abc_size;
      std::memcpy(at, w.w.data(), (n_in + n_aux) * sizeof(Fr));
      pinned_inputs.push_back(p);
      w.a = {}, w.b = {}, w.c = {}, w.w.resize(n_in), w.w.shrink_to_fit();
    }
    provers.push_back({a_aux.data(), n_aux, a_aux_count, b_inp.data(), n_in, b_inputs, b_aux.data(), n_aux,
                       b_aux_count, va, vb, vc, abc_size, vw, n_in, vw + n_in, n_aux});
    std::memcpy(&r_s.emplace_back(), &randomness[k].r, sizeof(supraseal_fr));
    std::memcpy(&s_s.emplace_back(), &randomness[k].s, sizeof(supraseal_fr));
  }

  static_assert(sizeof(supraseal_proof) == sizeof(groth16::Proof<E>), "blst's affine points are cuzk's");
  const groth16::VerifyingKey<E> vk = io::verifying_key(io::read_bellperson_vk(params));
  size_t rejected = 0;
  const auto verify = [&](const supraseal_proof& made, size_t circuit) {
    groth16::Proof<E> proof;
    std::memcpy(&proof, &made, sizeof proof);
    const auto& w = witnesses[circuit].w;
    if (!groth16::verify<E>(vk, std::span<const Fr>(w).subspan(1, n_in - 1), proof)) ++rejected;
  };

  supraseal_srs srs{nullptr};
  t0 = Clock::now();
  ok(abi.create_srs(&srs, params, false), "create_SRS");
  const double load_s = seconds(t0);
  const double gb = (double)std::filesystem::file_size(params) / 1e9;
  std::printf("create_SRS: %.2f GB in %.2f s, %.2f GB/s\n", gb, load_s, gb / load_s);
  Resident resident;
  resident.loaded = resident_gib().first;

  // The timed calls of one path, in the mode asked for; its proofs (those of
  // the last call in batch mode, circuit k in place k % circuits).
  std::vector<supraseal_proof> proofs;
  const auto run = [&](const Path& path) -> Figures {
    Resident from = path.loaded;
    if (!split) {
      proofs.assign(circuits, {});
      std::vector<double> per_call;
      double wall = 0;
      CpuTime cpu;
      for (size_t call = 0; call <= calls; ++call) {
        if (call == 1) from.timed = reset_peak();  // after the warm-up
        const CpuTime cpu0 = cpu_time();
        t0 = Clock::now();
        ok(path.all(proofs.data()), path.all_name);
        const double s = seconds(t0);
        const CpuTime c = cpu_time() - cpu0;
        std::printf("%scall %zu%s: %zu proofs in %.3f s, %.3f s a circuit, CPU %.2f s a circuit\n", path.label.c_str(),
                    call, call ? "" : " (warm-up: key upload)", circuits, s, s / (double)circuits, c.total() / (double)circuits);
        for (size_t k = 0; k < circuits; ++k) verify(proofs[k], k);
        if (call) wall += s, cpu += c, per_call.push_back(s / (double)circuits);
      }
      return report(path.label + "batch", calls * circuits, wall, cpu, per_call, "a call's", circuits, path.own_gib,
                    from);
    }
    void* mutex = abi.create_mutex ? abi.create_mutex() : nullptr;
    // Circuit k (of the witnesses, k % circuits) through the split phase:
    // start, then finalize; its proof kept for verification after the timing.
    const size_t total = calls * circuits;
    std::vector<supraseal_proof> made(total + split);
    const auto prove_one = [&](size_t k) {
      const auto t = Clock::now();
      void* pending = nullptr;
      const supraseal_error e = path.start(k % circuits, mutex, &pending);
      if (e.code && pending) abi.destroy_pending(pending);  // Curio's start sets it even on an error
      ok(e, path.start_name);
      ok(abi.finalize(pending, &made[k]), "finalize_groth16_proof_c");
      return seconds(t);
    };
    // The warm-up's circuits come after the timed ones in `made`.
    std::vector<std::thread> threads;
    for (size_t t = 0; t < split; ++t) threads.emplace_back([&, t] { prove_one(total + t); });
    for (auto& t : threads) t.join();
    threads.clear();
    std::printf("%swarm-up: one circuit on each of %zu threads\n", path.label.c_str(), split);
    std::atomic<size_t> next{0};
    std::vector<std::vector<double>> latencies(split);
    from.timed = reset_peak();
    const CpuTime cpu0 = cpu_time();
    t0 = Clock::now();
    for (size_t t = 0; t < split; ++t)
      threads.emplace_back([&, t] {
        for (size_t k; (k = next.fetch_add(1)) < total;) latencies[t].push_back(prove_one(k));
      });
    for (auto& t : threads) t.join();
    const double wall = seconds(t0);
    const CpuTime cpu = cpu_time() - cpu0;
    for (size_t k = 0; k < made.size(); ++k) verify(made[k], k % circuits);
    std::vector<double> all;
    for (const auto& l : latencies) all.insert(all.end(), l.begin(), l.end());
    if (abi.destroy_mutex) abi.destroy_mutex(mutex);
    proofs.assign(made.begin(), made.begin() + (ptrdiff_t)circuits);
    return report(path.label + "split", total, wall, cpu, all, "latency", split, path.own_gib, from);
  };

  const Figures abc = run({"", "generate_groth16_proofs_c", "generate_groth16_proofs_start_c",
                           [&](supraseal_proof* out) {
                             return abi.prove(provers.data(), circuits, r_s.data(), s_s.data(), out, &srs, nullptr, -1);
                           },
                           [&](size_t c, void* mutex, void** pending) {
                             return abi.start(&provers[c], 1, &r_s[c], &s_s[c], &srs, mutex, -1, pending);
                           },
                           gib(own_values), resident});
  if (witness_only) {
    const std::vector<supraseal_proof> abc_proofs = proofs;
    const Csr csr(m);
    cuzk_supraseal_circuit registered{nullptr};
    const double before = resident_gib().first;
    const CpuTime cpu0 = cpu_time();
    t0 = Clock::now();
    ok(abi.register_circuit(&registered, &srs, n_in, n_aux, m.n_constraints(), &csr.matrix[0], &csr.matrix[1],
                            &csr.matrix[2]),
       "cuzk_supraseal_register_circuit");
    std::printf("cuzk_supraseal_register_circuit: %zu terms in %.2f s, CPU %.2f s (once per circuit)\n",
                csr.matrix[0].nnz + csr.matrix[1].nnz + csr.matrix[2].nnz, seconds(t0), (cpu_time() - cpu0).total());
    // The circuit's rows count with the parameters, as what proofs start from,
    // and so do the caller's own arrays of it (kept alive here, as a caller
    // that registers from memory may): 2.8 GiB at 2^24 (77 M terms), which counted as the
    // library's before. Whatever the a/b/c path left behind still counts
    // against this path.
    Resident with_rows;
    with_rows.loaded = resident.loaded + (resident_gib().first - before) + csr.gib();
    with_rows.holds = "the parameters, the circuit's rows and the caller's CSR arrays";
    std::vector<cuzk_supraseal_witness> only;  // where the a/b/c path's assignments lie
    for (const auto& p : provers) only.push_back({p.inp_assignment_data, n_in, p.aux_assignment_data, n_aux});
    const Figures wo = run({"witness-only ", "cuzk_supraseal_prove", "cuzk_supraseal_prove_start",
                            [&](supraseal_proof* out) {
                              return abi.prove_witness(only.data(), circuits, r_s.data(), s_s.data(), out, &registered);
                            },
                            [&](size_t c, void*, void** pending) {
                              return abi.start_witness(&only[c], 1, &r_s[c], &s_s[c], &registered, -1, pending);
                            },
                            gib(n_in + n_aux), with_rows});
    abi.drop_circuit(&registered);
    if (std::memcmp(abc_proofs.data(), proofs.data(), circuits * sizeof(supraseal_proof)) != 0)
      fail("the witness-only proofs differ from the a/b/c path's (the same r and s)");
    std::printf("supraseal_bench: witness-only / a/b/c per circuit: wall %.3f / %.3f s = %.2fx, host CPU %.3f / %.3f "
                "s = %.2fx (identical proofs)\n",
                wo.wall, abc.wall, wo.wall / abc.wall, wo.cpu, abc.cpu, wo.cpu / abc.cpu);
  }
  abi.drop_srs(&srs);
  for (void* p : pinned_inputs) ok(abi.free_pinned(p), "cuzk_supraseal_free_pinned");
  if (rejected) fail(std::to_string(rejected) + " proofs did not verify");
  return 0;
}
