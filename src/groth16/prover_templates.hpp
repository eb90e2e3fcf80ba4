// The host prover's templates (the prepared key, prove_start, the randomness,
// the assembly, prove_finish), compiled once a curve by prover_<curve>.cpp:
// both curves in one file were one compiler of 102 s on the 2-core VM.
#pragma once

#include "cuzk/groth16/prover.hpp"

#include "cuzk/groth16/detail/abc_row.hpp"
#include "cuzk/groth16/detail/assemble.hpp"

#include <sys/random.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <utility>
#include <string>
#include <system_error>

#include "cuzk/ec/consttime.hpp"
#include "cuzk/ec/ops.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/msm/pippenger_host.hpp"
#include "cuzk/poly/ntt.hpp"
#include "cuzk/util/parallel.hpp"
#include "cuzk/util/secure_zero.hpp"
#include "cuzk/util/timing.hpp"

namespace cuzk::groth16 {

template <class E>
SharedKey<E> PreparedKey<E>::make(std::shared_ptr<const ProvingKey<E>> key) {
  if (!key) throw std::invalid_argument("PreparedKey::make: no proving key");
  return std::make_shared<const PreparedKey>(Private{}, std::move(key));
}

namespace {

// A dense key's A and B hold exactly the points its densities name: a
// mismatch would pair points with the wrong scalars and make every proof fail.
template <class E>
void check_dense_layout(const ProvingKey<E>& key) {
  const size_t n = key.n_vars();
  const auto check = [&](const char* what, size_t points, const Density& d) {
    if (d.n_vars != n)
      throw std::invalid_argument(std::string("the key's ") + what + " density covers " + std::to_string(d.n_vars) +
                                  " variables; the key has " + std::to_string(n));
    // A key made on a GPU holds its points there (on_gpu), sized from these
    // densities by its setup (setup_cuda.cpp); its spans are empty.
    if (!key.on_gpu && points != d.count())
      throw std::invalid_argument(std::string("the key's ") + what + " holds " + std::to_string(points) +
                                  " points; its density names " + std::to_string(d.count()) + " variables");
  };
  check("A", key.a.size(), key.a_density);
  check("B1", key.b1.size(), key.b_density);
  check("B2", key.b2.size(), key.b_density);
}

}  // namespace

template <class E>
PreparedKey<E>::PreparedKey(Private, std::shared_ptr<const ProvingKey<E>> shared)
    : key_(std::move(shared)),
      vk_(verifying_key(*key_)),
      verifier_(vk_),
      domain_(poly::Domain<Fr>::of_size(key_->domain_size(), reduction(key_->convention).roots)) {
  if (reduction(key_->convention).dense_ab) check_dense_layout(*key_);
  points_checked_.store(!key_->check_points, std::memory_order_release);
}

template <class E>
void PreparedKey<E>::require_checked_points() const {
  if (points_checked_.load(std::memory_order_acquire)) return;
  std::lock_guard lock(points_mu_);
  if (points_checked_.load(std::memory_order_relaxed)) return;
  if (!points_fault_) {
    try {
      key_->check_points(*key_);
      points_checked_.store(true, std::memory_order_release);
      return;
    } catch (...) {
      points_fault_ = std::current_exception();
    }
  }
  std::rethrow_exception(points_fault_);
}

template <class E>
bool PreparedKey<E>::points_failed() const {
  std::lock_guard lock(points_mu_);
  return points_fault_ != nullptr;
}

template <class E>
void PreparedKey<E>::points_checked_on_gpu() const {
  std::lock_guard lock(points_mu_);
  if (!points_fault_) points_checked_.store(true, std::memory_order_release);
}

template <class E>
void PreparedKey<E>::ensure_sorted() const {
  if (rows_sorted_.load(std::memory_order_acquire)) return;
  std::lock_guard lock(rows_mu_);
  if (rows_sorted_.load(std::memory_order_relaxed)) return;
  sort_rows();
  rows_sorted_.store(true, std::memory_order_release);
}

template <class E>
void PreparedKey<E>::sort_rows() const {
  const ProvingKey<E>& key = *key_;
  const std::span<const Coef<E>> coefs = key.coefs;
  // A counting sort of the coefficients by (matrix, row), stable, so that a
  // row's entries keep the key's order. A key in snarkjs's order (by
  // constraint, the extra rows last: every key snarkjs or cuzk writes) is
  // sorted in blocks on every core, each block placing its coefficients from
  // its matrices' offsets; any other order, which nothing rules out, in one
  // pass. A BN254 key of 2^22 constraints has ~16 M coefficients.
  constexpr size_t kBlock = size_t(1) << 16;
  const size_t rows = key.domain_size(), n = coefs.size(), blocks = (n + kBlock - 1) / kBlock;
  std::atomic<bool> by_row{true};
  // counts[b][m]: block b's coefficients of matrix m.
  std::vector<std::array<size_t, 2>> counts(blocks);
  for (int m = 0; m < 2; ++m) row_start_[m].assign(rows + 1, 0);
  parallel_blocks(n, kBlock, 0, [&](size_t b, size_t e) {
    std::array<size_t, 2>& count = counts[b / kBlock];
    for (size_t i = b; i < e; ++i) {
      const Coef<E>& c = coefs[i];
      ++count[c.matrix];
      // A row is shared by at most the two blocks on either side of it.
      std::atomic_ref<uint32_t>(row_start_[c.matrix][c.constraint + 1]).fetch_add(1, std::memory_order_relaxed);
      if (i + 1 < n && coefs[i + 1].constraint < c.constraint) by_row.store(false, std::memory_order_relaxed);
    }
  });
  for (int m = 0; m < 2; ++m) {
    for (size_t i = 0; i < rows; ++i) row_start_[m][i + 1] += row_start_[m][i];
    entries_[m] = std::make_unique_for_overwrite<Entry[]>(row_start_[m][rows]);
  }
  if (by_row.load()) {
    // By row already: matrix m's entries are its coefficients in key order.
    // counts[b] becomes where block b's entries of each matrix start.
    std::array<size_t, 2> at{0, 0};
    for (auto& count : counts)
      for (int m = 0; m < 2; ++m) at[m] += std::exchange(count[m], at[m]);
    parallel_blocks(n, kBlock, 0, [&](size_t b, size_t e) {
      std::array<size_t, 2> next = counts[b / kBlock];
      for (size_t i = b; i < e; ++i) entries_[coefs[i].matrix][next[coefs[i].matrix]++] = {coefs[i].signal, coefs[i].value};
    });
  } else {
    std::vector<uint32_t> next[2] = {row_start_[0], row_start_[1]};
    for (const Coef<E>& c : coefs) entries_[c.matrix][next[c.matrix][c.constraint]++] = {c.signal, c.value};
  }
}

template <class E>
void PreparedKey<E>::evaluate_abc(std::span<const Fr> w, std::span<Fr> a, std::span<Fr> b, std::span<Fr> c,
                                  unsigned threads) const {
  check_length("the witness", w.size(), key_->n_vars());
  for (auto* v : {&a, &b, &c}) check_length("an a/b/c buffer", v->size(), key_->domain_size());
  const size_t rows = key_->domain_size();
  const Rows ra = this->rows(0), rb = this->rows(1);
  constexpr size_t kRowsPerTask = 1 << 14;
  parallel_tasks((rows + kRowsPerTask - 1) / kRowsPerTask, threads, [&](size_t t) {
    const size_t end = std::min(rows, (t + 1) * kRowsPerTask);
    for (size_t i = t * kRowsPerTask; i < end; ++i)
      detail::abc_row(i, ra.start.data(), ra.entries.data(), rb.start.data(), rb.entries.data(), w.data(), a.data(),
                      b.data(), c.data());
  });
}

template <class E>
PendingProof<E> prove_start(const PreparedKey<E>& prepared, std::span<const typename E::Fr> w,
                            std::span<typename E::Fr> a, std::span<typename E::Fr> b,
                            std::span<typename E::Fr> c, unsigned threads, StageTimes* times) {
  using Fr = typename E::Fr;
  const ProvingKey<E>& key = prepared.key();
  if (key.on_gpu)
    throw std::invalid_argument("the proving key's points live on GPU " + std::to_string(key.on_gpu->device) +
                                ", where it was made: only the cuda backend on that GPU proves with it");
  check_length("the witness", w.size(), key.n_vars());
  for (auto* v : {&a, &b, &c}) check_length("an a/b/c buffer", v->size(), key.domain_size());
  prepared.require_checked_points();
  StageTimes untimed;
  StageTimes& t = times ? *times : untimed;

  // h on the coset (snarkjs-formats.md §2.2): each of a, b, c back to
  // coefficients, then evaluated on g·⟨ω⟩ where Z is a non-zero constant, and
  // h_j = a_j b_j − c_j there, scaled and brought back to coefficients where
  // the key's H takes them (reduction.hpp).
  const auto& domain = prepared.domain();
  const QapReduction qap = reduction(key.convention);
  t[Stage::ntt] = timed([&] {
    for (auto v : {a, b, c}) {
      poly::intt(domain, v, threads);
      poly::coset_ntt(domain, v, domain.coset_shift(), threads);
    }
    const Fr factor = qap.quotient_factor(domain);
    const bool scaled = factor != Fr::one();
    parallel_tasks((a.size() + 4095) / 4096, threads, [&](size_t task) {
      const size_t end = std::min(a.size(), (task + 1) * 4096);
      for (size_t i = task * 4096; i < end; ++i) a[i] = a[i] * b[i] - c[i];
      if (scaled)
        for (size_t i = task * 4096; i < end; ++i) a[i] *= factor;
    });
    if (qap.h_as_coefficients) poly::coset_intt(domain, a, domain.coset_shift(), threads);
  });

  // A and B's scalars: w, or the variables of their densities.
  std::vector<Fr> a_dense, b_dense;
  const auto scalars = [&](const Density& d, std::vector<Fr>& buf) -> std::span<const Fr> {
    if (!qap.dense_ab) return w;
    buf.resize(d.count());
    d.gather(w, std::span<Fr>(buf));
    return buf;
  };
  PendingProof<E> p;
  const size_t n_public = key.n_public();
  t[Stage::msm_a] = timed([&] { p.a = msm::msm<typename E::G1>(key.a, scalars(key.a_density, a_dense), threads); });
  const std::span<const Fr> wb = scalars(key.b_density, b_dense);
  t[Stage::msm_b1] = timed([&] { p.b1 = msm::msm<typename E::G1>(key.b1, wb, threads); });
  t[Stage::msm_b2] = timed([&] { p.b2 = msm::msm<typename E::G2>(key.b2, wb, threads); });
  t[Stage::msm_c] = timed([&] { p.c = msm::msm<typename E::G1>(key.c, w.subspan(n_public + 1), threads); });
  t[Stage::msm_h] = timed([&] {
    p.h = msm::msm<typename E::G1>(key.h, std::span<const Fr>(a).first(key.h.size()), threads);
  });
  p.publics.assign(w.begin() + 1, w.begin() + 1 + n_public);
  return p;
}

template <class Fr>
Randomness<Fr> Randomness<Fr>::draw() {
  // Rejection sampling on the bit length of r: at worst half the draws are
  // rejected (for r just above a power of two), so it ends quickly, and every
  // value in [0, r) is equally likely.
  const auto uniform = [] {
    uint64_t top_mask = ~uint64_t{0};
    const unsigned top_bits = Fr::bits % 64;
    if (top_bits) top_mask = (uint64_t{1} << top_bits) - 1;
    for (;;) {
      uint64_t v[Fr::N];
      for (size_t got = 0; got < sizeof v;) {
        const ssize_t n = getrandom(reinterpret_cast<uint8_t*>(v) + got, sizeof v - got, 0);
        if (n < 0 && errno != EINTR) throw std::system_error(errno, std::generic_category(), "getrandom");
        if (n > 0) got += (size_t)n;
      }
      v[Fr::N - 1] &= top_mask;
      Fr out;
      const bool reduced = Fr::from_canonical(v, out);
      secure_zero(v);
      if (reduced) return out;
    }
  };
  return {uniform(), uniform()};
}

template <class Fr>
Randomness<Fr>::~Randomness() {
  secure_zero(r);
  secure_zero(s);
}

namespace detail {

template <class E>
Proof<E> assemble(const PreparedKey<E>& prepared, const PendingProof<E>& p, const Randomness<typename E::Fr>& rs) {
  using G1 = typename E::G1;
  using G2 = typename E::G2;
  const ProvingKey<E>& key = prepared.key();
  const auto& [r, s] = rs;
  // πC without B1's s·δ1 and the −rs·δ1 that cancels it (detail/assemble.hpp).
  const ec::Jacobian<G1> a = p.a.add(key.alpha1).add(ec::mul_consttime(key.delta1, r));
  const ec::Jacobian<G2> b = p.b2.add(key.beta2).add(ec::mul_consttime(key.delta2, s));
  const ec::Jacobian<G1> b1_unblinded = p.b1.add(key.beta1);

  Proof<E> proof;
  proof.a = a.to_affine();
  proof.b = b.to_affine();
  proof.c = p.c.add(p.h)
                .add(ec::mul_consttime(proof.a, s))
                .add(ec::mul_consttime(b1_unblinded.to_affine(), r))
                .to_affine();
  return proof;
}

}  // namespace detail

template <class E>
Proof<E> prove_finish(const PreparedKey<E>& prepared, const PendingProof<E>& pending, StageTimes* times) {
  return prove_finish(prepared, pending, Randomness<typename E::Fr>::draw(), times);
}

template <class E>
Proof<E> prove_finish(const PreparedKey<E>& prepared, const PendingProof<E>& pending,
                      const Randomness<typename E::Fr>& rs, StageTimes* times) {
  auto t0 = std::chrono::steady_clock::now();
  const Proof<E> proof = detail::assemble(prepared, pending, rs);
  const double assembled = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  const bool ok = prepared.verifier().verify(pending.publics, proof);
  if (times) (*times)[Stage::finish] = assembled, (*times)[Stage::verify] = seconds_since(t0);
  if (!ok)
    throw ProofError(
        "the proof does not verify: the witness does not satisfy the key's constraints (or the key is corrupt)");
  return proof;
}

#define CUZK_GROTH16_PROVER_INSTANTIATE(E)                                                                   \
  template class PreparedKey<E>;                                                                             \
  template PendingProof<E> prove_start(const PreparedKey<E>&, std::span<const E::Fr>, std::span<E::Fr>,      \
                                       std::span<E::Fr>, std::span<E::Fr>, unsigned, StageTimes*);           \
  template struct Randomness<E::Fr>;                                                                         \
  template Proof<E> detail::assemble(const PreparedKey<E>&, const PendingProof<E>&, const Randomness<E::Fr>&); \
  template Proof<E> prove_finish(const PreparedKey<E>&, const PendingProof<E>&, StageTimes*);               \
  template Proof<E> prove_finish(const PreparedKey<E>&, const PendingProof<E>&, const Randomness<E::Fr>&,    \
                                 StageTimes*);

}  // namespace cuzk::groth16
