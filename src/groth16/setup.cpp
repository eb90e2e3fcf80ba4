#include "cuzk/groth16/setup.hpp"

#include <array>
#include <bit>
#include <stdexcept>
#include <string>
#include <thread>

#include "cuzk/ec/ops.hpp"
#include "cuzk/groth16/detail/assemble.hpp"
#include "cuzk/poly/domain.hpp"
#include "cuzk/util/parallel.hpp"
#include "cuzk/util/progress.hpp"

namespace cuzk::groth16 {
namespace {

// Work is split into chunks of this many values: one task each, and one
// inversion per chunk (and per window, for points) that kChunk values share.
constexpr size_t kChunk = 4096;

// fn(begin, end) over [0, n) in chunks of kChunk, on `threads` threads.
template <class Fn>
void for_chunks(size_t n, unsigned threads, Fn fn) {
  parallel_tasks((n + kChunk - 1) / kChunk, threads, [&](size_t t) { fn(t * kChunk, std::min(n, (t + 1) * kChunk)); });
}

// Wider windows mean fewer additions per scalar but a table of
// windows · 2^(w-1) points: at w = 16 that is 32 MiB of BN254 G1 points and
// 100 MiB of BLS12-381 G2 points, and wider ones save only a window or two.
constexpr unsigned kMaxWindow = 16;

// [k]P for one fixed P and many scalars k. Signed w-bit windows:
// k = Σ_i d_i 2^(wi) with d_i in [-2^(w-1), 2^(w-1)], and the table holds
// [d 2^(wi)]P for d = 1 .. 2^(w-1) per window, so a scalar costs one
// addition per non-zero digit and no doubling (a negative digit adds the
// negated entry, which is free in affine). k = 0 gives infinity.
template <class C>
class FixedBase {
 public:
  using Fr = typename C::Fr;
  using Aff = ec::Affine<C>;

  // The window minimises the additions for `count` scalars plus those that
  // build the table.
  FixedBase(const Aff& p, size_t count, unsigned threads) {
    double best = 0;
    for (unsigned w = 2; w <= kMaxWindow; ++w) {
      const double cost = (double)windows_for(w) * ((double)count + (double)(1u << (w - 1)));
      if (w == 2 || cost < best) best = cost, w_ = w;
    }
    windows_ = windows_for(w_);
    half_ = size_t{1} << (w_ - 1);

    // bases[i] = [2^(wi)]P.
    std::vector<ec::Jacobian<C>> jac(windows_);
    jac[0] = ec::Jacobian<C>::from(p);
    for (unsigned i = 1; i < windows_; ++i) {
      jac[i] = jac[i - 1];
      for (unsigned b = 0; b < w_; ++b) jac[i] = jac[i].dbl();
    }
    std::vector<Aff> bases(windows_);
    ec::batch_to_affine<C>(jac, bases);

    table_.resize(windows_ * half_);
    parallel_tasks(windows_, threads, [&](size_t i) {
      std::vector<ec::Jacobian<C>> row(half_);
      ec::Jacobian<C> acc = ec::Jacobian<C>::from(bases[i]);
      for (size_t d = 0; d < half_; ++d, acc = acc.add(bases[i])) row[d] = acc;
      ec::batch_to_affine<C>(row, std::span<Aff>(table_).subspan(i * half_, half_));
    });
  }

  // The scalars of a chunk advance together, window by window, in affine:
  // the additions of one window share a single inversion (Montgomery's
  // trick), so each costs 5M + 1S against 8M + 2S for an XYZZ mixed addition,
  // and the sums need no conversion at the end.
  // Each chunk adds its count times `weight` to `progress`.
  void mul(std::span<const Fr> k, std::span<Aff> out, unsigned threads, Progress* progress = nullptr,
           uint64_t weight = 1) const {
    using F = typename C::F;
    for_chunks(k.size(), threads, [&](size_t b, size_t e) {
      const size_t n = e - b, W = windows_;
      const std::span<Aff> acc = out.subspan(b, n);
      std::vector<int32_t> d(n * W);
      for (size_t i = 0; i < n; ++i) digits(k[b + i], &d[i], n), acc[i] = Aff::infinity();
      std::vector<F> prefix(n);
      for (size_t j = 0; j < W; ++j) {
        // Forward: the product of the slopes' denominators. A sum that is
        // infinity, or has the entry's x (doubling or cancellation, only for
        // crafted scalars), is finished here and its digit cleared.
        F prod = F::one();
        for (size_t i = 0; i < n; ++i) {
          int32_t& dij = d[j * n + i];
          if (!dij) continue;
          const Aff q = entry(j, dij);
          if (acc[i].is_inf()) {
            acc[i] = q;
          } else if (acc[i].x == q.x) {
            acc[i] = ec::Jacobian<C>::from(acc[i]).add(q).to_affine();
          } else {
            prefix[i] = prod;
            prod *= q.x - acc[i].x;
            continue;
          }
          dij = 0;
        }
        // Backward: peel each inverse off the product's inverse, then add.
        F inv = prod.inverse();
        for (size_t i = n; i-- > 0;) {
          if (!d[j * n + i]) continue;
          const Aff q = entry(j, d[j * n + i]);
          const F lambda = (q.y - acc[i].y) * inv * prefix[i];
          inv *= q.x - acc[i].x;
          const F x3 = lambda.sqr() - acc[i].x - q.x;
          acc[i] = {x3, lambda * (acc[i].x - x3) - acc[i].y};
        }
      }
      if (progress) progress->add(weight * (e - b));
    });
  }

 private:
  // Enough windows for a final carry out of the top bit: ⌈(bits + 1)/w⌉.
  static unsigned windows_for(unsigned w) { return (Fr::bits + w) / w; }

  // [d 2^(w·window)]P for a non-zero signed digit d.
  Aff entry(size_t window, int32_t digit) const {
    const Aff& p = table_[window * half_ + (size_t)(digit < 0 ? -digit : digit) - 1];
    return digit < 0 ? -p : p;
  }

  // k's signed digits, least significant first, `stride` apart.
  void digits(const Fr& k, int32_t* d, size_t stride) const {
    uint64_t v[Fr::N + 1] = {};  // a zero limb above the top: the last window may reach it
    k.to_canonical(v);
    const uint64_t mask = (uint64_t{1} << w_) - 1;
    int32_t carry = 0;
    for (unsigned i = 0; i < windows_; ++i) {
      const unsigned bit = i * w_, l = bit / 64, s = bit % 64;
      uint64_t x = v[l] >> s;
      if (s + w_ > 64) x |= v[l + 1] << (64 - s);
      const int32_t raw = (int32_t)(x & mask) + carry;
      carry = raw > (int32_t)half_;
      d[i * stride] = raw - (carry << w_);
    }
  }

  unsigned w_ = 2, windows_ = 0;
  size_t half_ = 0;
  std::vector<Aff> table_;  // windows_ rows of half_ entries
};

// out[j] = c · y_j / (τ - y_j) for y_j = y0 ρ^j: the form that both Lagrange
// bases take at τ (see dev_setup). One batch inversion per chunk.
template <class Fr>
void ratios(std::span<Fr> out, const Fr& c, const Fr& y0, const Fr& rho, const Fr& tau, unsigned threads) {
  for_chunks(out.size(), threads, [&](size_t b, size_t e) {
    const uint64_t b64 = b;
    std::vector<Fr> y(e - b), prefix(e - b);
    Fr yj = y0 * rho.pow(&b64, 1), acc = Fr::one();
    for (size_t j = 0; j < e - b; ++j, yj *= rho) {
      y[j] = yj;
      prefix[j] = acc;
      acc *= tau - yj;
    }
    Fr inv = acc.inverse();
    for (size_t j = e - b; j-- > 0;) {
      out[b + j] = c * y[j] * inv * prefix[j];
      inv *= tau - y[j];
    }
  });
}

// u, v, w: per signal, Σ coef · L_row(τ) over its A, B and C terms. Each task
// owns a range of signals and scans every term but multiplies only its own:
// no per-thread copies of three n_vars-long sums and no conflicting writes.
// The scan is a load per term, small next to the multiplications.
template <class E, class Fr = typename E::Fr>
std::array<std::vector<Fr>, 3> qap_at_tau(const ConstraintMatrices<E>& m, std::span<const Fr> lag, unsigned threads) {
  std::array<std::vector<Fr>, 3> uvw;
  for (auto& x : uvw) x.assign(m.n_vars, Fr::zero());
  const size_t tasks = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
  parallel_tasks(tasks, threads, [&](size_t t) {
    const uint32_t lo = (uint32_t)(m.n_vars * t / tasks), hi = (uint32_t)(m.n_vars * (t + 1) / tasks);
    for (size_t c = 0; c < m.n_constraints(); ++c)
      for (int k = 0; k < 3; ++k)
        for (const auto& term : m.lc(c, k))
          if (term.wire >= lo && term.wire < hi) uvw[k][term.wire] += term.coef * lag[c];
  });
  // snarkjs's extra rows: signal s has A coefficient 1 on row n_constraints + s.
  for (uint32_t s = 0; s <= m.n_public; ++s) uvw[0][s] += lag[m.n_constraints() + s];
  return uvw;
}

}  // namespace

template <class E>
ToxicWaste<E> ToxicWaste<E>::draw() {
  // The prover's r and s are uniform in [0, r) from getrandom; dropping zeros
  // (a 2^-254 event) leaves them uniform in [1, r).
  std::vector<Fr> v;
  while (v.size() < 5) {
    const auto rs = detail::Randomness<Fr>::draw();
    for (const Fr& x : {rs.r, rs.s})
      if (!x.is_zero()) v.push_back(x);
  }
  return {v[0], v[1], v[2], v[3], v[4]};
}

template <class E>
DevKey<E> dev_setup(const ConstraintMatrices<E>& m, const ToxicWaste<E>& t, unsigned threads) {
  using Fr = typename E::Fr;
  using Domain = poly::Domain<Fr>;
  const size_t nc = m.n_constraints(), np = m.n_public, nv = m.n_vars;
  if (np >= nv)
    throw std::invalid_argument("n_public " + std::to_string(np) + " is not below n_vars " + std::to_string(nv));
  for (const auto& term : m.terms)
    if (term.wire >= nv)
      throw std::invalid_argument("a constraint uses wire " + std::to_string(term.wire) + " but n_vars is " +
                                  std::to_string(nv));

  // snarkjs zkey_new: 2^(⌊log2(nConstraints + nPublic)⌋ + 1) (log2(0) = 0), so
  // there is room for the nPublic + 1 extra rows.
  const unsigned log_n = std::max<unsigned>(1, (unsigned)std::bit_width(nc + np));
  if (log_n > Domain::max_log_size)
    throw std::invalid_argument(std::to_string(nc) + " constraints and " + std::to_string(np) +
                                " public signals need a domain of 2^" + std::to_string(log_n) + ", beyond the 2^" +
                                std::to_string(Domain::max_log_size) + " roots of unity of " + curve_name(E::id) +
                                "'s scalar field");
  if (t.gamma.is_zero() || t.delta.is_zero())
    throw std::invalid_argument("toxic waste with γ or δ zero: IC and C are divided by them");

  const Domain dom(log_n);
  const uint64_t n = dom.size();
  const Fr n_fr = Fr::from_uint(n), g = dom.coset_shift();
  const Fr tau_n = t.tau.pow(&n, 1), g_n = g.pow(&n, 1);
  const Fr z = tau_n - Fr::one(), z_coset = tau_n - g_n;
  if (z.is_zero() || z_coset.is_zero())
    throw std::invalid_argument("τ lies on the domain of size 2^" + std::to_string(log_n) +
                                " or on its coset: the Lagrange bases are undefined there");

  // On ⟨ω⟩ the vanishing polynomial is Xⁿ - 1, with derivative n ω^(-j) at ω^j,
  // so L_j(τ) = (τⁿ - 1) ω^j / (n (τ - ω^j)). Only rows up to the last public
  // one are needed.
  std::vector<Fr> lag(nc + np + 1);
  ratios<Fr>(lag, z * n_fr.inverse(), Fr::one(), dom.omega(), t.tau, threads);
  auto [u, v, w] = qap_at_tau(m, std::span<const Fr>(lag), threads);
  lag = {};

  // IC and C: (β u + α v + w)/γ for the public signals and 1, /δ for the rest.
  const Fr gamma_inv = t.gamma.inverse(), delta_inv = t.delta.inverse();
  for_chunks(nv, threads, [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) w[i] = (t.beta * u[i] + t.alpha * v[i] + w[i]) * (i <= np ? gamma_inv : delta_inv);
  });

  // H. On the coset x_j = g ω^j the vanishing polynomial is Xⁿ - gⁿ, with
  // derivative n gⁿ / x_j at x_j, so L'_j(τ) = (τⁿ - gⁿ) x_j / (n gⁿ (τ - x_j)).
  // The prover's h_j = (ab - c)(x_j) = q(x_j) Z(x_j) = q(x_j)(gⁿ - 1) for the
  // quotient q of degree < n, so Σ_j h_j L'_j(τ) = q(τ)(gⁿ - 1) and
  // H_j = [L'_j(τ) Z(τ) / ((gⁿ - 1) δ)]₁ gives Σ h_j H_j = [q(τ) Z(τ)/δ]₁.
  // Check against snarkjs: g = ω_{2n}, gⁿ = -1, and H_j collapses to
  // (τ^(2n) - 1) x_j / (2n (τ - x_j) δ), which is L^(2n)_(2j+1)(τ)/δ, the odd
  // Lagrange points of the 2n domain that zkey_new takes from the ptau file
  // and contributions divide by δ.
  std::vector<Fr> hs(n);
  ratios<Fr>(hs, z_coset * z * (n_fr * g_n * (g_n - Fr::one()) * t.delta).inverse(), g, dom.omega(), t.tau, threads);

  const auto g1 = ec::generator<typename E::G1>();
  const auto g2 = ec::generator<typename E::G2>();
  const FixedBase<typename E::G1> base1(g1, 3 * nv + n, threads);
  const FixedBase<typename E::G2> base2(g2, nv, threads);
  // The bar counts the key's points, a G2 point as kG2Weight G1 points (about
  // its cost), so that its rate and ETA hold steady across G1 and G2.
  constexpr uint64_t kG2Weight = 3;
  Progress progress("setup", 3 * nv + n + kG2Weight * nv, "points");
  DevKey<E> d;
  const auto run1 = [&](std::vector<ec::Affine<typename E::G1>>& out, std::span<const Fr> k) {
    out.resize(k.size());
    base1.mul(k, out, threads, &progress);
  };
  run1(d.a, u);
  run1(d.b1, v);
  run1(d.ic, std::span<const Fr>(w).first(np + 1));
  run1(d.c, std::span<const Fr>(w).subspan(np + 1));
  run1(d.h, hs);
  d.b2.resize(nv);
  base2.mul(v, d.b2, threads, &progress, kG2Weight);
  progress.finish();

  const std::array<Fr, 3> s1{t.alpha, t.beta, t.delta}, s2{t.beta, t.gamma, t.delta};
  std::array<ec::Affine<typename E::G1>, 3> p1;
  std::array<ec::Affine<typename E::G2>, 3> p2;
  base1.mul(s1, p1, threads);
  base2.mul(s2, p2, threads);

  ProvingKey<E>& k = d.key;
  k.alpha1 = p1[0], k.beta1 = p1[1], k.delta1 = p1[2];
  k.beta2 = p2[0], k.gamma2 = p2[1], k.delta2 = p2[2];
  k.ic = d.ic, k.a = d.a, k.b1 = d.b1, k.b2 = d.b2, k.c = d.c, k.h = d.h;
  // snarkjs's order: per constraint its A then its B terms, then the extra rows.
  for (size_t c = 0; c < nc; ++c)
    for (uint32_t mat = 0; mat < 2; ++mat)
      for (const auto& term : m.lc(c, (int)mat)) k.coefs.push_back({mat, (uint32_t)c, term.wire, term.coef});
  for (uint32_t s = 0; s <= np; ++s) k.coefs.push_back({0, (uint32_t)(nc + s), s, Fr::one()});
  return d;
}

template struct ToxicWaste<ec::Bn254>;
template struct ToxicWaste<ec::Bls12_381>;
template DevKey<ec::Bn254> dev_setup(const ConstraintMatrices<ec::Bn254>&, const ToxicWaste<ec::Bn254>&, unsigned);
template DevKey<ec::Bls12_381> dev_setup(const ConstraintMatrices<ec::Bls12_381>&, const ToxicWaste<ec::Bls12_381>&,
                                         unsigned);

}  // namespace cuzk::groth16
