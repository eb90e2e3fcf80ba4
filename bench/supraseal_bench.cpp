// What supraseal-c2's ABI (libcuzk_supraseal) costs at a partition's size:
// a bellperson parameter file of the Partition circuit (`cuzk setup --format
// bellperson --circuit partition`) loaded with create_SRS, then proved
// through generate_groth16_proofs_c the way bellperson calls it (the
// circuit's densities as bitmaps, a, b, c with the input constraints, the
// assignment, r and s), CIRCUITS circuits a call, CALLS calls after one
// warm-up call (which uploads the key). Prints the load's rate and each
// call's wall time, and the time per partition.
//
//   supraseal_bench PARAMS CONSTRAINTS CIRCUITS CALLS
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

#include "cuzk/circuit/examples/partition.hpp"
#include "cuzk/circuit/matrices.hpp"
#include "cuzk/circuit/witness.hpp"
#include "cuzk/groth16/density.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/supraseal.h"

namespace {

using namespace cuzk;
using E = ec::Bls12_381;
using Fr = E::Fr;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void ok(const supraseal_error& e, const char* what) {
  if (e.code == 0) return;
  std::fprintf(stderr, "supraseal_bench: %s: error %d: %s\n", what, e.code, e.message ? e.message : "");
  std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: supraseal_bench PARAMS CONSTRAINTS CIRCUITS CALLS\n");
    return 2;
  }
  const char* params = argv[1];
  const uint64_t constraints = std::strtoull(argv[2], nullptr, 10);
  const size_t circuits = std::strtoull(argv[3], nullptr, 10), calls = std::strtoull(argv[4], nullptr, 10);

  auto t0 = std::chrono::steady_clock::now();
  const auto m = circuit::constraint_matrices(circuit::Partition<E>::for_constraints(constraints, 0));
  const groth16::Density a = groth16::column_density(m, 0), b = groth16::column_density(m, 1);
  const size_t n_in = m.n_public + 1, n_aux = m.n_vars - n_in, abc_size = m.n_constraints() + n_in;
  const auto a_aux = a.bitmap(n_in, n_aux), b_inp = b.bitmap(0, n_in), b_aux = b.bitmap(n_in, n_aux);
  std::vector<circuit::Assignment<Fr>> witnesses;
  std::vector<groth16::Randomness<Fr>> randomness;
  for (size_t k = 0; k < circuits; ++k) {
    witnesses.push_back(circuit::synthesize_assignment(circuit::Partition<E>::for_constraints(constraints, k + 1)));
    randomness.push_back(groth16::Randomness<Fr>::draw());
  }
  std::printf("supraseal_bench: Partition, %zu constraints (+%zu input constraints), %zu inputs, %zu private; "
              "%zu circuits synthesized in %.1f s (not measured below)\n",
              m.n_constraints(), n_in, n_in, n_aux, circuits, seconds_since(t0));

  size_t b_inputs = 0;
  for (size_t i = 0; i < n_in; ++i) b_inputs += b.has(i);
  const size_t a_aux_count = a.count() - n_in, b_aux_count = b.count() - b_inputs;
  const auto fr = [](const std::vector<Fr>& v, size_t at = 0) {
    return reinterpret_cast<const supraseal_fr*>(v.data() + at);
  };
  std::vector<supraseal_assignment> provers;
  std::vector<supraseal_fr> r_s, s_s;
  for (size_t k = 0; k < circuits; ++k) {
    const auto& w = witnesses[k];
    provers.push_back({a_aux.data(), n_aux, a_aux_count, b_inp.data(), n_in, b_inputs, b_aux.data(), n_aux,
                       b_aux_count, fr(w.a), fr(w.b), fr(w.c), abc_size, fr(w.w), n_in, fr(w.w, n_in), n_aux});
    std::memcpy(&r_s.emplace_back(), &randomness[k].r, sizeof(supraseal_fr));
    std::memcpy(&s_s.emplace_back(), &randomness[k].s, sizeof(supraseal_fr));
  }

  supraseal_srs srs{nullptr};
  t0 = std::chrono::steady_clock::now();
  ok(create_SRS(&srs, params, false), "create_SRS");
  const double load_s = seconds_since(t0);
  const double gb = (double)std::filesystem::file_size(params) / 1e9;
  std::printf("create_SRS: %.2f GB in %.2f s, %.2f GB/s (read, validated, decoded)\n", gb, load_s, gb / load_s);

  std::vector<supraseal_proof> proofs(circuits);
  std::vector<double> walls;
  for (size_t call = 0; call <= calls; ++call) {
    t0 = std::chrono::steady_clock::now();
    ok(generate_groth16_proofs_c(provers.data(), circuits, r_s.data(), s_s.data(), proofs.data(), &srs),
       "generate_groth16_proofs_c");
    const double s = seconds_since(t0);
    std::printf("call %zu%s: %zu proofs in %.3f s, %.3f s a partition\n", call, call ? "" : " (warm-up: key upload)",
                circuits, s, s / (double)circuits);
    if (call) walls.push_back(s / (double)circuits);
  }
  std::sort(walls.begin(), walls.end());
  if (!walls.empty())
    std::printf("supraseal_bench: median %.3f s a partition over %zu calls of %zu circuits (verified proofs)\n",
                walls[walls.size() / 2], walls.size(), circuits);
  drop_SRS(&srs);
  return 0;
}
