// cuzk's witness-only extension of supraseal-c2's ABI (cuzk_supraseal_* in
// include/cuzk/supraseal.h): a circuit's matrices, registered once beside an
// SRS, become a key of the process-wide service that shares the SRS's points
// and holds the circuit's rows (io::bellman_key: the densities from the
// matrices, the input constraints appended); a call is a job of
// service::Assignment partitions, so only the caller's input and aux
// assignment cross, lent as the a/b/c path's inputs are (Lending), and the
// engine evaluates a, b, c, on the GPU where it computes them there. This file
// only converts, as supraseal_api.cpp does.
#include <atomic>
#include <cerrno>
#include <memory>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "cuzk/groth16/prover.hpp"
#include "cuzk/io/bellperson_key.hpp"
#include "cuzk/io/csr.hpp"
#include "cuzk/io/r1cs.hpp"
#include "cuzk/supraseal.h"

#include "supraseal_shared.hpp"

namespace cuzk::capi::supraseal {

namespace {

static_assert(sizeof(cuzk_supraseal_csr) == 32 && sizeof(cuzk_supraseal_witness) == 32 &&
                  sizeof(cuzk_supraseal_circuit) == 8,
              "the layouts docs/SUPRASEAL-ABI.md gives Rust");

// What a circuit handle points to: the service's key of it.
struct Circuit {
  std::string key_id, source;
  ~Circuit() {
    if (!key_id.empty()) the_service().evict(key_id);
  }
};

void take_empty(const cuzk_supraseal_circuit* ret) {
  require(ret, "ret");
  if (ret->ptr) throw Refusal{EINVAL, "ret already holds a circuit"};
}

// The service first: a backend that cannot run (CUZK_BACKEND=cuda without a
// GPU) is told before the key's rows are made.
void* registered(const Srs& srs, const r1cs::ConstraintMatrices<E>& m, std::string source) {
  service::Service& svc = the_service();
  auto key = groth16::PreparedKey<E>::make(io::bellman_key(srs.params, m, srs.path));
  static std::atomic<uint64_t> serial{0};
  auto c = std::make_unique<Circuit>();
  c->source = std::move(source);
  const std::string id = "supraseal-circuit-" + std::to_string(serial.fetch_add(1));
  svc.add_key(id, std::move(key), c->source);
  c->key_id = id;
  return c.release();
}

io::CsrMatrix matrix_of(const cuzk_supraseal_csr* m, size_t rows, const char* what) {
  require(m, what);
  const std::string name(what);
  require(m->row_ptrs, (name + "'s row_ptrs").c_str());
  if (m->nnz) require(m->cols, (name + "'s cols").c_str()), require(m->vals, (name + "'s vals").c_str());
  return {{m->row_ptrs, rows + 1}, {m->cols, m->nnz}, {reinterpret_cast<const uint64_t*>(m->vals), 4 * m->nnz}};
}

const Circuit& circuit_of(const cuzk_supraseal_circuit* h) {
  require(h, "circuit handle");
  require(h->ptr, "circuit (the handle holds none)");
  return *static_cast<const Circuit*>(h->ptr);
}

// Every witness as one job's partition, lending its input and aux assignment
// through a share of `lending`.
Submitted submit(const cuzk_supraseal_witness w[], size_t n, const supraseal_fr r_s[], const supraseal_fr s_s[],
                 const cuzk_supraseal_circuit* handle, Lending& lending) {
  const Circuit& circuit = circuit_of(handle);
  Submitted out;
  out.circuits = n;
  if (n == 0) return out;
  require(w, "witnesses"), require(r_s, "r_s"), require(s_s, "s_s");
  std::vector<service::PartitionInput> inputs;
  inputs.reserve(n);
  for (size_t i = 0; i < n; ++i)
    inputs.push_back(service::Assignment{limbs(w[i].inp_assignment_data, w[i].inp_assignment_size, "inp_assignment_data"),
                                         limbs(w[i].aux_assignment_data, w[i].aux_assignment_size, "aux_assignment_data"),
                                         limbs(&r_s[i], 1, "r"), limbs(&s_s[i], 1, "s"), lending.share()});
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  out.submit(circuit.key_id, std::move(order), std::move(inputs), "supraseal " + circuit.source);
  return out;
}

}  // namespace

}  // namespace cuzk::capi::supraseal

using namespace cuzk;
using namespace cuzk::capi::supraseal;

extern "C" {

supraseal_error cuzk_supraseal_register_circuit(cuzk_supraseal_circuit* ret, const supraseal_srs* srs,
                                                size_t num_inputs, size_t num_aux, size_t num_constraints,
                                                const cuzk_supraseal_csr* a, const cuzk_supraseal_csr* b,
                                                const cuzk_supraseal_csr* c) {
  return guarded([&] {
    take_empty(ret);
    const Srs& params = srs_of(srs);
    const io::CsrMatrix abc[3] = {matrix_of(a, num_constraints, "A"), matrix_of(b, num_constraints, "B"),
                                  matrix_of(c, num_constraints, "C")};
    const auto m = io::matrices_from_csr(num_inputs, num_aux, num_constraints, abc, "the circuit's matrices");
    ret->ptr = registered(params, m, "the matrices registered with " + params.path);
  });
}

supraseal_error cuzk_supraseal_register_circuit_r1cs(cuzk_supraseal_circuit* ret, const supraseal_srs* srs,
                                                     const char* r1cs_path) {
  return guarded([&] {
    take_empty(ret);
    const Srs& params = srs_of(srs);
    require(r1cs_path, "r1cs_path");
    require_openable(r1cs_path);
    const io::R1cs file = io::R1cs::open(r1cs_path);
    ret->ptr = registered(params, file.as<E>(), r1cs_path);
  });
}

void cuzk_supraseal_drop_circuit(const cuzk_supraseal_circuit* circuit) {
  if (circuit) delete static_cast<Circuit*>(circuit->ptr);
}

supraseal_error cuzk_supraseal_prove(const cuzk_supraseal_witness witnesses[], size_t num_circuits,
                                     const supraseal_fr r_s[], const supraseal_fr s_s[], supraseal_proof proofs[],
                                     const cuzk_supraseal_circuit* circuit) {
  return prove_now(num_circuits, proofs, [&](Lending& lending) {
    return submit(witnesses, num_circuits, r_s, s_s, circuit, lending);
  });
}

supraseal_error cuzk_supraseal_prove_start(const cuzk_supraseal_witness witnesses[], size_t num_circuits,
                                           const supraseal_fr r_s[], const supraseal_fr s_s[],
                                           const cuzk_supraseal_circuit* circuit, int gpu_index,
                                           void** pending_out) {
  return start_pending(gpu_index, pending_out, [&](Lending& lending) {
    return submit(witnesses, num_circuits, r_s, s_s, circuit, lending);
  });
}

}  // extern "C"
