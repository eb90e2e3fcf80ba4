// The Groth16 prover, computing exactly what snarkjs computes
// (snarkjs-formats.md §2), or bellperson for a key in bellman's convention
// (keys.hpp: the same steps, h in coefficient form and A, B over the dense
// variables), in two halves:
//
//   prove_start   the heavy, randomness-free part: the quotient h (3 inverse
//                 NTTs, 3 coset NTTs) and the five MSMs A, B1, B2, C, H;
//   prove_finish  r and s, the assembly of (πA, πB, πC), and verification
//                 against the key's own verifying key.
//
// The split is what lets an engine hand the second half to a finalizer while
// the first half of the next partition runs (docs/ARCHITECTURE.md, "Split phase").
//
// Inputs are a witness (Montgomery form, signal 0 = 1) and the evaluations
// a = A·w, b = B·w, c = C·w on the domain's rows, which a native circuit
// writes during synthesis (circuit/) and which evaluate_abc computes from a
// zkey's coefficients. Rows past the constraints follow snarkjs's layout,
// which is also bellman's input constraints: row n_constraints + s has a = w[s]
// for each public signal s (and s = 0).
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <future>
#include <memory>
#include <mutex>
#include <span>
#include <stdexcept>
#include <vector>

#include "cuzk/groth16/keys.hpp"
#include "cuzk/groth16/proof.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/poly/domain.hpp"
#include "cuzk/util/stages.hpp"

namespace cuzk::groth16 {

// A proof that failed its own verification, or a witness that does not
// satisfy the key's constraints. Never turned into an output file.
class ProofError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws std::invalid_argument ("<what> has N values; the key needs M") when a
// prover input's length is not the key's: one check for every backend.
void check_length(const char* what, size_t got, size_t want);

// What the prover derives once per key and reuses for every proof: the
// domain, the verifying key (for prove_finish's check) and the A and B
// coefficients in rows, so that a and b are computed row-parallel without
// write conflicts (on the CPU here, on the GPU from the same rows).
//
// A PreparedKey is made only by make() and lives behind SharedKey handles:
// it is neither copied nor moved, so its address is its identity (what caches
// match by), and it shares ownership of the memory its ProvingKey views, so
// whoever holds a handle (a job, a GPU's copy of the key) can read the points
// after every other owner has let go.
template <class E>
class PreparedKey {
  class Private {
    explicit Private() = default;
    friend class PreparedKey;
  };

 public:
  using Fr = typename E::Fr;
  struct Entry {
    uint32_t signal;
    Fr value;
  };
  // Matrix A (0) or B (1) in compressed rows: row i is entries[start[i] .. start[i + 1]).
  struct Rows {
    std::span<const uint32_t> start;  // domain_size + 1
    std::span<const Entry> entries;
  };

  // `key` must share ownership of what its spans view: io::Zkey::share, or
  // groth16::share for a development key.
  static std::shared_ptr<const PreparedKey> make(std::shared_ptr<const ProvingKey<E>> key);
  PreparedKey(Private, std::shared_ptr<const ProvingKey<E>> key);  // for make() only
  PreparedKey(const PreparedKey&) = delete;
  PreparedKey& operator=(const PreparedKey&) = delete;

  const ProvingKey<E>& key() const { return *key_; }
  const VerifyingKey<E>& vk() const { return vk_; }
  // vk() made ready for the proof of every partition (prove_finish's check).
  const PreparedVerifier<E>& verifier() const { return verifier_; }
  const poly::Domain<Fr>& domain() const { return domain_; }

  // a = A·w and b = B·w on every row of the domain, c = a∘b (snarkjs
  // buildABC: C is not stored in a zkey; for a satisfying witness it equals
  // C·w). w has n_vars values; a, b, c have domain_size each.
  void evaluate_abc(std::span<const Fr> w, std::span<Fr> a, std::span<Fr> b, std::span<Fr> c,
                    unsigned threads = 0) const;

  // The rows are sorted out of the key's coefficients once, on first use or
  // ahead of it (sort_rows_ahead: a service as a key is added, the CLI as its
  // key is read, a GPU upload beside the points), by whichever thread comes
  // first; the others wait. A key that never proves from its rows (a, b, c
  // from the host) need never sort them. A BN254 key of 2^22 constraints (16 M
  // coefficients) takes 0.17-0.25 s on 16 threads.
  Rows rows(int matrix) const {
    ensure_sorted();
    return {row_start_[matrix], {entries_[matrix].get(), row_start_[matrix].back()}};
  }
  // Bytes both matrices' rows take, known before they are sorted: every
  // coefficient is an entry of A or B, and each has a start per row.
  size_t rows_bytes() const {
    return 2 * (key_->domain_size() + 1) * sizeof(uint32_t) + key_->coefs.size() * sizeof(Entry);
  }

  // A key whose reader deferred its point checks (ProvingKey::check_points)
  // has them run once, by the first caller of require_checked_points (the
  // host prover, a GPU that streams the points from the host), unless a GPU
  // that checked its own copy of every point said so first
  // (points_checked_on_gpu). A failed check is thrown again to every later
  // caller. Either is a no-op for a key checked when it was read.
  void require_checked_points() const;
  void points_checked_on_gpu() const;
  bool points_unchecked() const { return !points_checked_.load(std::memory_order_acquire); }
  bool points_failed() const;  // a check failed: require_checked_points throws its error

 private:
  void ensure_sorted() const;
  void sort_rows() const;  // under rows_mu_, until it has returned once

  std::shared_ptr<const ProvingKey<E>> key_;
  VerifyingKey<E> vk_;
  PreparedVerifier<E> verifier_;
  poly::Domain<Fr> domain_;
  // Row i of matrix m is entries_[m][row_start_[m][i] .. row_start_[m][i + 1]),
  // written under rows_mu_ until rows_sorted_ is set (a mutex and a flag, not
  // std::call_once, whose retry after a throw hangs on some C libraries).
  mutable std::mutex rows_mu_;
  mutable std::atomic<bool> rows_sorted_{false};
  mutable std::unique_ptr<Entry[]> entries_[2];  // row_start_[m].back() of them, written in parallel: not zeroed first
  mutable std::vector<uint32_t> row_start_[2];
  // Set once the points are known good (or were checked on reading); a
  // failed check is kept, so that each later caller meets it too.
  mutable std::mutex points_mu_;
  mutable std::atomic<bool> points_checked_{false};
  mutable std::exception_ptr points_fault_;
};

// The handle by which a PreparedKey is held.
template <class E>
using SharedKey = std::shared_ptr<const PreparedKey<E>>;

// Sorts the key's rows (PreparedKey::rows) on a thread of its own, ahead of
// their first use; the future, which holds the key, waits for it when
// destroyed. A failure is met again where the rows are used.
template <class E>
std::future<void> sort_rows_ahead(SharedKey<E> key) {
  return std::async(std::launch::async, [key = std::move(key)] { key->rows(0); });
}

// The five MSM results and the public signals: everything prove_finish needs.
template <class E>
struct PendingProof {
  ec::Jacobian<typename E::G1> a, b1, c, h;
  ec::Jacobian<typename E::G2> b2;
  std::vector<typename E::Fr> publics;  // w[1 .. n_public]
};

// The stages prove_start times, in the order they run.
inline constexpr Stage kStartStages[] = {Stage::ntt,    Stage::msm_a, Stage::msm_b1,
                                         Stage::msm_b2, Stage::msm_c, Stage::msm_h};

// The randomness-free half. a, b, c (domain_size each) are consumed: they are
// transformed in place into the quotient's evaluations. w has n_vars values.
// Throws std::invalid_argument on wrong lengths. `times` gets the wall times
// of kStartStages; its other stages are left as they are.
template <class E>
PendingProof<E> prove_start(const PreparedKey<E>& key, std::span<const typename E::Fr> w,
                            std::span<typename E::Fr> a, std::span<typename E::Fr> b,
                            std::span<typename E::Fr> c, unsigned threads = 0, StageTimes* times = nullptr);

// Groth16's blinding factors.
template <class Fr>
struct Randomness {
  Fr r, s;
  // r and s uniform in [0, r) from the operating system's CSPRNG (getrandom),
  // by rejection sampling, so there is no modular bias.
  static Randomness draw();
  // r and s are zeroed (util/secure_zero.hpp) when they go.
  ~Randomness();
};

// r and s drawn from the operating system's CSPRNG, the assembly
// (snarkjs-formats.md §2.6, constant-time in r and s, which are zeroed after
// use), then verification against key.vk(); a proof that does not verify (an
// unsatisfied witness, a corrupt key) is a ProofError. `times` gets the wall
// times of the stages finish (the assembly) and verify.
template <class E>
Proof<E> prove_finish(const PreparedKey<E>& key, const PendingProof<E>& pending, StageTimes* times = nullptr);
// The same with r and s the caller drew: bellperson draws its own and passes
// them through supraseal-c2's ABI (capi/supraseal_api.cpp).
template <class E>
Proof<E> prove_finish(const PreparedKey<E>& key, const PendingProof<E>& pending,
                      const Randomness<typename E::Fr>& rs, StageTimes* times = nullptr);

#define CUZK_GROTH16_PROVER_EXTERN(E)                                                                          \
  extern template class PreparedKey<E>;                                                                        \
  extern template PendingProof<E> prove_start(const PreparedKey<E>&, std::span<const E::Fr>, std::span<E::Fr>, \
                                              std::span<E::Fr>, std::span<E::Fr>, unsigned, StageTimes*);      \
  extern template struct Randomness<E::Fr>;                                                                    \
  extern template Proof<E> prove_finish(const PreparedKey<E>&, const PendingProof<E>&, StageTimes*);          \
  extern template Proof<E> prove_finish(const PreparedKey<E>&, const PendingProof<E>&, const Randomness<E::Fr>&, \
                                        StageTimes*);
CUZK_GROTH16_PROVER_EXTERN(ec::Bn254)
CUZK_GROTH16_PROVER_EXTERN(ec::Bls12_381)
#undef CUZK_GROTH16_PROVER_EXTERN

}  // namespace cuzk::groth16
