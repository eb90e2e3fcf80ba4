#include "cuzk/groth16/setup.hpp"

#include <array>
#include <bit>
#include <stdexcept>
#include <string>
#include <thread>

#include "cuzk/ec/fixed_base.hpp"
#include "cuzk/groth16/detail/assemble.hpp"
#include "cuzk/poly/domain.hpp"
#include "cuzk/util/parallel.hpp"
#include "cuzk/util/progress.hpp"

namespace cuzk::groth16 {
namespace {

// Work is split into chunks of this many values: one task each, and one
// inversion per chunk that kChunk values share.
constexpr size_t kChunk = 4096;

// out[j] = c · y_j / (τ - y_j) for y_j = y0 ρ^j: the form that both Lagrange
// bases take at τ (see dev_setup). One batch inversion per chunk.
template <class Fr>
void ratios(std::span<Fr> out, const Fr& c, const Fr& y0, const Fr& rho, const Fr& tau, unsigned threads) {
  parallel_blocks(out.size(), kChunk, threads, [&](size_t b, size_t e) {
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
std::array<std::vector<Fr>, 3> qap_at_tau(const r1cs::ConstraintMatrices<E>& m, std::span<const Fr> lag, unsigned threads) {
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

// out[i] = c · τ^i: bellman's H scalars, with c = Z(τ)/δ.
template <class Fr>
void bellman_h(std::span<Fr> out, const Fr& c, const Fr& tau, unsigned threads) {
  parallel_blocks(out.size(), kChunk, threads, [&](size_t b, size_t e) {
    const uint64_t b64 = b;
    Fr p = c * tau.pow(&b64, 1);
    for (size_t i = b; i < e; ++i, p *= tau) out[i] = p;
  });
}

// The entries of x of the variables in d, in order.
template <class Fr>
std::vector<Fr> dense(const std::vector<Fr>& x, const Density& d) {
  std::vector<Fr> out(d.count());
  d.gather(std::span<const Fr>(x), std::span<Fr>(out));
  return out;
}

}  // namespace

template <class E>
ToxicWaste<E> ToxicWaste<E>::draw() {
  // The prover's r and s are uniform in [0, r) from getrandom; dropping zeros
  // (a 2^-254 event) leaves them uniform in [1, r).
  std::vector<Fr> v;
  while (v.size() < 5) {
    const auto rs = Randomness<Fr>::draw();
    for (const Fr& x : {rs.r, rs.s})
      if (!x.is_zero()) v.push_back(x);
  }
  return {v[0], v[1], v[2], v[3], v[4]};
}

template <class E>
CoefList<E> coefficient_list(const r1cs::ConstraintMatrices<E>& m) {
  using Fr = typename E::Fr;
  const size_t nc = m.n_constraints(), np = m.n_public;
  // Reserved, as at 2^27 constraints the list is ~16 GB.
  size_t count = np + 1;
  for (size_t c = 0; c < nc; ++c) count += m.starts[3 * c + 2] - m.starts[3 * c];
  CoefList<E> coefs;
  coefs.reserve(count);
  for (size_t c = 0; c < nc; ++c)
    for (uint32_t mat = 0; mat < 2; ++mat)
      for (const auto& term : m.lc(c, (int)mat)) coefs.push_back({mat, (uint32_t)c, term.wire, term.coef});
  for (uint32_t s = 0; s <= np; ++s) coefs.push_back({0, (uint32_t)(nc + s), s, Fr::one()});
  return coefs;
}

namespace detail {

template <class E>
SetupPlan<E> plan_setup(const r1cs::ConstraintMatrices<E>& m, const ToxicWaste<E>& t, unsigned threads,
                        Convention convention) {
  using Fr = typename E::Fr;
  using Domain = poly::Domain<Fr>;
  const size_t nc = m.n_constraints(), np = m.n_public, nv = m.n_vars;
  const QapReduction qap = reduction(convention);
  if (convention == Convention::bellman && E::id != ec::Curve::bls12_381)
    throw std::invalid_argument(std::string("bellman's convention is defined for BLS12-381 only, not ") +
                                curve_name(E::id));
  if (np >= nv)
    throw std::invalid_argument("n_public " + std::to_string(np) + " is not below n_vars " + std::to_string(nv));
  for (const auto& term : m.terms)
    if (term.wire >= nv)
      throw std::invalid_argument("a constraint uses wire " + std::to_string(term.wire) + " but n_vars is " +
                                  std::to_string(nv));

  // The domain, with room for the nPublic + 1 extra rows (reduction.hpp).
  const unsigned log_n = qap.log_domain(nc + np), max_log_n = qap.max_log_domain(Domain::max_log_size);
  if (log_n > max_log_n)
    throw std::invalid_argument(std::to_string(nc) + " constraints and " + std::to_string(np) +
                                " public signals need a domain of 2^" + std::to_string(log_n) + ", beyond the 2^" +
                                std::to_string(max_log_n) + " roots of unity " + convention_name(convention) +
                                "'s prover takes in " + curve_name(E::id) + "'s scalar field");
  if (t.gamma.is_zero() || t.delta.is_zero())
    throw std::invalid_argument("toxic waste with γ or δ zero: IC and C are divided by them");

  const Domain dom(log_n, qap.roots);
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
  parallel_blocks(nv, kChunk, threads, [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) w[i] = (t.beta * u[i] + t.alpha * v[i] + w[i]) * (i <= np ? gamma_inv : delta_inv);
  });

  // H's scalars, for h's coefficients or for its evaluations on the coset
  // (reduction.hpp).
  std::vector<Fr> hs(qap.h_terms(n));
  if (qap.h_as_coefficients) {
    bellman_h(std::span<Fr>(hs), z * delta_inv, t.tau, threads);
  } else {
    // On the coset x_j = g ω^j the vanishing polynomial is Xⁿ - gⁿ, with
    // derivative n gⁿ / x_j at x_j, so L'_j(τ) = (τⁿ - gⁿ) x_j / (n gⁿ (τ - x_j)).
    // The prover's h_j = (ab - c)(x_j) = q(x_j) Z(x_j) = q(x_j)(gⁿ - 1) for the
    // quotient q of degree < n, so Σ_j h_j L'_j(τ) = q(τ)(gⁿ - 1) and
    // H_j = [L'_j(τ) Z(τ) / ((gⁿ - 1) δ)]₁ gives Σ h_j H_j = [q(τ) Z(τ)/δ]₁.
    // Check against snarkjs: g = ω_{2n}, gⁿ = -1, and H_j collapses to
    // (τ^(2n) - 1) x_j / (2n (τ - x_j) δ), which is L^(2n)_(2j+1)(τ)/δ, the odd
    // Lagrange points of the 2n domain that zkey_new takes from the ptau file
    // and contributions divide by δ.
    ratios<Fr>(hs, z_coset * z * (n_fr * g_n * (g_n - Fr::one()) * t.delta).inverse(), g, dom.omega(), t.tau, threads);
  }
  if (convention == Convention::bellman)
    for (size_t i = np + 1; i < nv; ++i)
      if (w[i].is_zero())
        throw std::invalid_argument("private signal " + std::to_string(i) +
                                    " is in no constraint: its L point would be the point at infinity, which "
                                    "bellperson's parameters cannot hold");
  // A's and B's densities, which keep only their variables' u and v.
  Density a_density, b_density;
  if (qap.dense_ab) {
    a_density = column_density(m, 0), b_density = column_density(m, 1);
    u = dense(u, a_density);
    v = dense(v, b_density);
  }

  // A, B1, C and H (IC is made apart); B2.
  const size_t points_g2 = v.size(), points_g1 = u.size() + points_g2 + (nv - np - 1) + hs.size();
  return {std::move(u), std::move(v), std::move(w), std::move(hs),
          ec::FixedBase<typename E::G1>(ec::generator<typename E::G1>(), points_g1, threads),
          ec::FixedBase<typename E::G2>(ec::generator<typename E::G2>(), points_g2, threads), convention,
          std::move(a_density), std::move(b_density)};
}

template <class E>
void finish_setup(DevKey<E>& d, const SetupPlan<E>& plan, const r1cs::ConstraintMatrices<E>& m, const ToxicWaste<E>& t,
                  unsigned threads) {
  using Fr = typename E::Fr;
  const size_t np = m.n_public;
  d.ic.resize(np + 1);
  plan.g1.mul(std::span<const Fr>(plan.w).first(np + 1), d.ic, threads);
  const std::array<Fr, 3> s1{t.alpha, t.beta, t.delta}, s2{t.beta, t.gamma, t.delta};
  std::array<ec::Affine<typename E::G1>, 3> p1;
  std::array<ec::Affine<typename E::G2>, 3> p2;
  plan.g1.mul(s1, p1, threads);
  plan.g2.mul(s2, p2, threads);

  ProvingKey<E>& k = d.key;
  k.alpha1 = p1[0], k.beta1 = p1[1], k.delta1 = p1[2];
  k.beta2 = p2[0], k.gamma2 = p2[1], k.delta2 = p2[2];
  k.ic = d.ic, k.a = d.a, k.b1 = d.b1, k.b2 = d.b2, k.c = d.c, k.h = d.h;
  k.convention = plan.convention;
  k.a_density = plan.a_density;
  k.b_density = plan.b_density;
  k.coefs = coefficient_list(m);
}

}  // namespace detail

template <class E>
DevKey<E> dev_setup(const r1cs::ConstraintMatrices<E>& m, const ToxicWaste<E>& t, unsigned threads, Convention convention) {
  using Fr = typename E::Fr;
  const auto plan = detail::plan_setup(m, t, threads, convention);
  const size_t np = m.n_public;
  Progress progress("setup", detail::setup_points(plan, np), "points");
  DevKey<E> d;
  const auto run1 = [&](std::vector<ec::Affine<typename E::G1>>& out, std::span<const Fr> k) {
    out.resize(k.size());
    plan.g1.mul(k, out, threads, &progress);
  };
  run1(d.a, plan.u);
  run1(d.b1, plan.v);
  run1(d.c, std::span<const Fr>(plan.w).subspan(np + 1));
  run1(d.h, plan.h);
  d.b2.resize(plan.v.size());
  plan.g2.mul(plan.v, d.b2, threads, &progress, detail::kG2Weight);
  progress.finish();
  detail::finish_setup(d, plan, m, t, threads);
  return d;
}

template CoefList<ec::Bn254> coefficient_list(const r1cs::ConstraintMatrices<ec::Bn254>&);
template CoefList<ec::Bls12_381> coefficient_list(const r1cs::ConstraintMatrices<ec::Bls12_381>&);
template struct ToxicWaste<ec::Bn254>;
template struct ToxicWaste<ec::Bls12_381>;
template DevKey<ec::Bn254> dev_setup(const r1cs::ConstraintMatrices<ec::Bn254>&, const ToxicWaste<ec::Bn254>&, unsigned,
                                     Convention);
template DevKey<ec::Bls12_381> dev_setup(const r1cs::ConstraintMatrices<ec::Bls12_381>&, const ToxicWaste<ec::Bls12_381>&,
                                         unsigned, Convention);
#define CUZK_SETUP_DETAIL_INSTANTIATE(E)                                                                 \
  template detail::SetupPlan<E> detail::plan_setup(const r1cs::ConstraintMatrices<E>&, const ToxicWaste<E>&,   \
                                                   unsigned, Convention);                                \
  template void detail::finish_setup(DevKey<E>&, const detail::SetupPlan<E>&, const r1cs::ConstraintMatrices<E>&,       \
                                     const ToxicWaste<E>&, unsigned);
CUZK_SETUP_DETAIL_INSTANTIATE(ec::Bn254)
CUZK_SETUP_DETAIL_INSTANTIATE(ec::Bls12_381)
#undef CUZK_SETUP_DETAIL_INSTANTIATE

}  // namespace cuzk::groth16
