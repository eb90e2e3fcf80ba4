// Inputs for the supraseal ABI test (supraseal_abi.c), made the way
// bellperson's prover makes them: a circuit whose densities are not full
// (an input with no B entry, private variables absent from A, from B, or
// from both), its parameter file in bellman's convention, and for each of
// several witnesses the a, b, c evaluations (the input constraints
// included), the assignment, r and s, in Montgomery form.
//
//   supraseal_fixture DIR CONSTRAINTS PUBLICS CIRCUITS SEED
//
// writes DIR/circuit.params, DIR/vk.json (snarkjs's verification key of the
// parameters), DIR/public-K.json for each circuit K, and DIR/inputs.bin:
//   u64 n_inputs, n_aux, abc_size, circuits
//   u64 words of the A aux, B input and B aux bitmaps (ceil(n / 64) each)
//   per circuit: a, b, c (abc_size values each), inputs, aux, r, s
// every value 4 little-endian u64 limbs in Montgomery form; and the circuit
// for witness-only proofs (supraseal_witness.c), its own constraints without
// bellman's input constraints, as DIR/circuit.r1cs (circom's format) and
// DIR/csr.bin:
//   u64 constraints
//   for A, B and C: u64 nnz, u32 row pointers (constraints + 1), u32 columns
//   (nnz), coefficients (nnz values)
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "cuzk/circuit/lc.hpp"
#include "cuzk/circuit/matrices.hpp"
#include "cuzk/circuit/seeded.hpp"
#include "cuzk/circuit/witness.hpp"
#include "cuzk/groth16/density.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/io/bellperson.hpp"
#include "cuzk/io/bellperson_key.hpp"
#include "cuzk/io/csr.hpp"
#include "cuzk/io/json.hpp"

namespace {

using namespace cuzk;
using E = ec::Bls12_381;
using Fr = E::Fr;
using circuit::Variable;

// constraints products t_j = <A_j, w> · <B_j, w>, each A_j of two terms and
// B_j of one or two, drawn from the variables allowed there; t_j may appear
// in later A rows (j % 4 != 0), later B rows (j % 4 != 1), both (j % 4 == 3)
// or neither (j % 4 == 2). Input 1, when there is one, is in no B row. The
// structure depends on the sizes only; `seed` picks the values.
struct Scatter {
  using Curve = E;
  uint64_t constraints = 0, publics = 0, seed = 0;

  template <class CS>
  void synthesize(CS& cs) const {
    std::vector<Variable> in_a{Variable::one()}, in_b{Variable::one()};
    for (uint64_t i = 0; i < publics; ++i) {
      const Variable x = cs.alloc_input("x", [&, i](const auto&) { return circuit::seeded_element<Fr>(seed, i); });
      in_a.push_back(x);
      if (i != 0) in_b.push_back(x);
    }
    for (uint64_t i = 0; i < 4; ++i) {
      const Variable v = cs.alloc("v", [&, i](const auto&) { return circuit::seeded_element<Fr>(seed, publics + i); });
      in_a.push_back(v), in_b.push_back(v);
    }
    const auto pick = [](const std::vector<Variable>& pool, uint64_t j, uint64_t k) {
      return pool[circuit::splitmix64(j * 8 + k + 1) % pool.size()];
    };
    const auto coef = [](uint64_t j, uint64_t k) { return circuit::seeded_element<Fr>(0x5eed, j * 8 + k); };
    for (uint64_t j = 0; j < constraints; ++j) {
      const Variable a0 = pick(in_a, j, 0), a1 = pick(in_a, j, 1), b0 = pick(in_b, j, 2), b1 = pick(in_b, j, 3);
      const bool two_b = j % 3 != 0;
      const auto a_lc = [&](auto lc) { return lc + coef(j, 0) * a0 + coef(j, 1) * a1; };
      const auto b_lc = [&](auto lc) { return two_b ? lc + b0 + coef(j, 2) * b1 : lc + b0; };
      const Variable t = cs.alloc("t", [&](const auto& v) {
        const Fr a = coef(j, 0) * v[a0] + coef(j, 1) * v[a1];
        const Fr b = two_b ? v[b0] + coef(j, 2) * v[b1] : v[b0];
        return a * b;
      });
      cs.enforce("t = a * b", a_lc, b_lc, t);
      if (j % 4 != 0 && j % 4 != 2) in_a.push_back(t);
      if (j % 4 != 1 && j % 4 != 2) in_b.push_back(t);
    }
  }
};

void write(std::ofstream& out, const void* p, size_t bytes) { out.write(static_cast<const char*>(p), (std::streamsize)bytes); }
template <class T>
void put(std::ofstream& out, T v) { write(out, &v, sizeof v); }

// m as a circom .r1cs (io/r1cs.hpp): the header, then the constraints with
// coefficients in canonical form. All signals past the inputs are private.
void write_r1cs(const std::filesystem::path& path, const r1cs::ConstraintMatrices<E>& m) {
  std::ofstream out(path, std::ios::binary);
  out.write("r1cs", 4);
  put<uint32_t>(out, 1), put<uint32_t>(out, 2);
  put<uint32_t>(out, 1), put<uint64_t>(out, 4 + 32 + 4 * 4 + 8 + 4);
  put<uint32_t>(out, 32);
  for (size_t i = 0; i < Fr::N; ++i) put<uint64_t>(out, Fr::params::modulus(i));
  for (uint32_t v : {m.n_vars, uint32_t{0}, m.n_public, uint32_t{0}}) put(out, v);
  put<uint64_t>(out, m.n_vars), put<uint32_t>(out, (uint32_t)m.n_constraints());
  put<uint32_t>(out, 2), put<uint64_t>(out, 12 * m.n_constraints() + m.terms.size() * (4 + sizeof(Fr)));
  for (size_t c = 0; c < m.n_constraints(); ++c)
    for (int k = 0; k < 3; ++k) {
      put<uint32_t>(out, (uint32_t)m.lc(c, k).size());
      for (const auto& t : m.lc(c, k)) {
        uint64_t v[Fr::N];
        t.coef.to_canonical(v);
        put(out, t.wire), write(out, v, sizeof v);
      }
    }
  if (!out.flush()) throw std::runtime_error("cannot write " + path.string());
}

// m's A, B and C as compressed sparse rows.
void write_csr(const std::filesystem::path& path, const r1cs::ConstraintMatrices<E>& m) {
  std::ofstream out(path, std::ios::binary);
  put<uint64_t>(out, m.n_constraints());
  for (const io::CsrArrays& x : io::csr_of(m)) {
    put<uint64_t>(out, x.cols.size());
    write(out, x.row_ptrs.data(), 4 * x.row_ptrs.size()), write(out, x.cols.data(), 4 * x.cols.size());
    write(out, x.vals.data(), sizeof(Fr) * x.vals.size());
  }
  if (!out.flush()) throw std::runtime_error("cannot write " + path.string());
}

int run(const std::filesystem::path& dir, uint64_t constraints, uint64_t publics, uint64_t circuits, uint64_t seed) {
  std::filesystem::create_directories(dir);
  const auto m = circuit::constraint_matrices(Scatter{constraints, publics, seed});
  const auto key = groth16::share(
      groth16::dev_setup(m, groth16::ToxicWaste<E>::draw(), 0, groth16::Convention::bellman));
  const io::BellpersonParams<E> params = io::to_bellperson(*key);
  io::write_bellperson_params(dir / "circuit.params", params);
  io::write_json_file(dir / "vk.json", io::vk_to_json<E>(io::verifying_key(params)));
  write_r1cs(dir / "circuit.r1cs", m);
  write_csr(dir / "csr.bin", m);

  const uint64_t n_in = m.n_public + 1, n_aux = m.n_vars - n_in, abc_size = m.n_constraints() + n_in;
  std::ofstream out(dir / "inputs.bin", std::ios::binary);
  for (uint64_t v : {n_in, n_aux, abc_size, circuits}) write(out, &v, 8);
  for (auto [d, from, n] : {std::tuple{&key->a_density, n_in, n_aux}, std::tuple{&key->b_density, uint64_t{0}, n_in},
                            std::tuple{&key->b_density, n_in, n_aux}}) {
    const auto words = d->bitmap(from, n);
    write(out, words.data(), 8 * words.size());
  }
  for (uint64_t k = 0; k < circuits; ++k) {
    const auto in = circuit::synthesize_assignment(Scatter{constraints, publics, seed + 1000 * k});
    for (const auto* v : {&in.a, &in.b, &in.c}) write(out, v->data(), sizeof(Fr) * abc_size);
    write(out, in.w.data(), sizeof(Fr) * in.w.size());
    const auto rs = groth16::Randomness<Fr>::draw();
    write(out, &rs.r, sizeof(Fr)), write(out, &rs.s, sizeof(Fr));
    io::write_json_file(dir / ("public-" + std::to_string(k) + ".json"),
                   io::public_to_json<E>(std::span<const Fr>(in.w).subspan(1, m.n_public)));
  }
  if (!out.flush()) {
    std::fprintf(stderr, "supraseal_fixture: cannot write %s\n", (dir / "inputs.bin").c_str());
    return 1;
  }
  std::printf("supraseal_fixture: %s: %llu constraints, %llu inputs, %llu private, A %zu and B %zu points\n",
              dir.c_str(), (unsigned long long)m.n_constraints(), (unsigned long long)n_in,
              (unsigned long long)n_aux, params.a.size(), params.b_g1.size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6) {
    std::fprintf(stderr, "usage: supraseal_fixture DIR CONSTRAINTS PUBLICS CIRCUITS SEED\n");
    return 2;
  }
  const auto number = [&](int i) { return std::strtoull(argv[i], nullptr, 10); };
  try {
    return run(argv[1], number(2), number(3), number(4), number(5));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "supraseal_fixture: %s\n", e.what());
    return 1;
  }
}
