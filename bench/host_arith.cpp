// Host micro-benchmarks (Google Benchmark): field mul/square/reduction/inverse,
// G1/G2 addition, doubling and constant-time scalar multiplication per curve,
// the pairing, and a Groth16 verification (what every proof costs its
// finalizer).
//   cuzk_bench_host [--benchmark_format=json ...]
#include <benchmark/benchmark.h>

#include <random>
#include <string>

#include "cuzk/ec/bls12_381.hpp"
#include "cuzk/ec/bn254.hpp"
#include "cuzk/ec/consttime.hpp"
#include "cuzk/ec/curves.hpp"
#include "cuzk/ec/ops.hpp"
#include "cuzk/ec/pairing.hpp"
#include "cuzk/ff/encode.hpp"
#include "cuzk/groth16/verifier.hpp"

namespace {

using namespace cuzk;

template <class F>
F sample(uint64_t seed) {
  std::mt19937_64 rng(seed);
  return ff::random_element<F>(rng);
}

// Each iteration depends on the last, so this measures latency of one operation.
template <class F>
void BM_mul(benchmark::State& st) {
  F a = sample<F>(1);
  const F b = sample<F>(2);
  for (auto _ : st) {
    a = a * b;
    benchmark::DoNotOptimize(a);
  }
}
// a = a.op() over and over: squaring, the Montgomery reduction.
template <class F, F (F::*op)() const>
void BM_unary(benchmark::State& st) {
  F a = sample<F>(3);
  for (auto _ : st) {
    a = (a.*op)();
    benchmark::DoNotOptimize(a);
  }
}
template <class F>
void BM_inverse(benchmark::State& st) {
  F a = sample<F>(4);
  for (auto _ : st) {
    a = a.inverse() + F::one();
    benchmark::DoNotOptimize(a);
  }
}

template <class C>
void BM_jacobian_add(benchmark::State& st, ec::Affine<C> g) {
  auto p = ec::Jacobian<C>::from(g).dbl();
  const auto q = p.dbl().add(g);
  for (auto _ : st) {
    p = p.add(q);
    benchmark::DoNotOptimize(p);
  }
}
template <class C>
void BM_xyzz_madd(benchmark::State& st, ec::Affine<C> g) {
  auto p = ec::Xyzz<C>::from(g).dbl();
  const auto q = ec::Jacobian<C>::from(g).dbl().dbl().to_affine();
  for (auto _ : st) {
    p = p.add(q);
    benchmark::DoNotOptimize(p);
  }
}
template <class C>
void BM_jacobian_dbl(benchmark::State& st, ec::Affine<C> g) {
  auto p = ec::Jacobian<C>::from(g);
  for (auto _ : st) {
    p = p.dbl();
    benchmark::DoNotOptimize(p);
  }
}

// The prover's constant-time k·P (its secret r and s), a full-width scalar.
template <class C>
void BM_mul_consttime(benchmark::State& st, ec::Affine<C> g) {
  const auto k = sample<typename C::Fr>(5);
  for (auto _ : st) benchmark::DoNotOptimize(ec::mul_consttime(g, k));
}

template <class G1A, class G2A, class Pair>
void BM_pairing(benchmark::State& st, G1A p, G2A q, Pair pairing) {
  for (auto _ : st) benchmark::DoNotOptimize(pairing(p, q));
}

// A key and a proof that verifies, from chosen discrete logs: A = a G1,
// B = b G2, and C = c G1 with a b = alpha beta + x gamma + c delta, x being
// vk_x's (IC_i = ic_i G1); three publics, as a Filecoin partition has.
template <class E>
struct ValidProof {
  using Fr = typename E::Fr;
  groth16::VerifyingKey<E> vk;
  std::vector<Fr> publics;
  groth16::Proof<E> proof;

  explicit ValidProof(uint64_t seed) {
    const auto k = ff::random_elements<Fr>(9, seed);
    const Fr &a = k[0], &b = k[1], &alpha = k[2], &beta = k[3], &gamma = k[4], &delta = k[5];
    const auto g1 = [](const Fr& s) { return ec::mul_vartime(ec::generator<typename E::G1>(), s).to_affine(); };
    const auto g2 = [](const Fr& s) { return ec::mul_vartime(ec::generator<typename E::G2>(), s).to_affine(); };
    publics = {k[6], k[7], k[8]};
    const auto ic = ff::random_elements<Fr>(publics.size() + 1, seed + 1);
    Fr x = ic[0];
    for (size_t i = 0; i < publics.size(); ++i) x = x + publics[i] * ic[i + 1];
    vk.alpha1 = g1(alpha), vk.beta2 = g2(beta), vk.gamma2 = g2(gamma), vk.delta2 = g2(delta);
    for (const Fr& s : ic) vk.ic.push_back(g1(s));
    vk.alphabeta = groth16::PairingOf<E>::pairing(vk.alpha1, vk.beta2);
    proof = {g1(a), g2(b), g1((a * b - alpha * beta - x * gamma) * delta.inverse())};
  }
};

template <class E>
void BM_verify(benchmark::State& st) {
  const ValidProof<E> v(7);
  if (!groth16::verify<E>(v.vk, v.publics, v.proof)) {
    st.SkipWithError("the benchmark's proof does not verify");
    return;
  }
  for (auto _ : st) benchmark::DoNotOptimize(groth16::verify<E>(v.vk, v.publics, v.proof));
}
// With the key made ready once, as a prover verifies each proof it makes.
template <class E>
void BM_verify_prepared(benchmark::State& st) {
  const ValidProof<E> v(7);
  const groth16::PreparedVerifier<E> prepared(v.vk);
  if (!prepared.verify(v.publics, v.proof)) {
    st.SkipWithError("the benchmark's proof does not verify");
    return;
  }
  for (auto _ : st) benchmark::DoNotOptimize(prepared.verify(v.publics, v.proof));
}
BENCHMARK(BM_verify<ec::Bn254>)->Name("groth16_verify/bn254")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_verify<ec::Bls12_381>)->Name("groth16_verify/bls12_381")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_verify_prepared<ec::Bn254>)->Name("groth16_verify_prepared/bn254")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_verify_prepared<ec::Bls12_381>)->Name("groth16_verify_prepared/bls12_381")->Unit(benchmark::kMicrosecond);

#define FIELD_BENCH(F, name)                           \
  BENCHMARK(BM_mul<F>)->Name("mul/" name);             \
  BENCHMARK(BM_unary<F, &F::sqr>)->Name("sqr/" name);  \
  BENCHMARK(BM_inverse<F>)->Name("inverse/" name)

FIELD_BENCH(ff::bn254::Fq, "bn254_fq");
FIELD_BENCH(ff::bn254::Fr, "bn254_fr");
FIELD_BENCH(ff::bn254::Fq2, "bn254_fq2");
FIELD_BENCH(ff::bls12_381::Fq, "bls12_381_fq");
FIELD_BENCH(ff::bls12_381::Fr, "bls12_381_fr");
FIELD_BENCH(ff::bls12_381::Fq2, "bls12_381_fq2");
BENCHMARK(BM_unary<ff::bn254::Fr, &ff::bn254::Fr::divided_by_r>)->Name("divided_by_r/bn254_fr");
BENCHMARK(BM_unary<ff::bls12_381::Fr, &ff::bls12_381::Fr::divided_by_r>)->Name("divided_by_r/bls12_381_fr");

template <class C>
void register_group(const std::string& name, ec::Affine<C> g) {
  benchmark::RegisterBenchmark(("jacobian_add/" + name).c_str(), BM_jacobian_add<C>, g);
  benchmark::RegisterBenchmark(("jacobian_dbl/" + name).c_str(), BM_jacobian_dbl<C>, g);
  benchmark::RegisterBenchmark(("xyzz_madd/" + name).c_str(), BM_xyzz_madd<C>, g);
  benchmark::RegisterBenchmark(("mul_consttime/" + name).c_str(), BM_mul_consttime<C>, g)
      ->Unit(benchmark::kMicrosecond);
}

template <class G1A, class G2A, class Pair>
void register_pairing(const std::string& name, G1A p, G2A q, Pair pairing) {
  benchmark::RegisterBenchmark(("pairing/" + name).c_str(), BM_pairing<G1A, G2A, Pair>, p, q, pairing)
      ->Unit(benchmark::kMicrosecond);
}

}  // namespace

int main(int argc, char** argv) {
  register_group<ec::bn254::G1>("bn254_g1", ec::bn254::g1_generator());
  register_group<ec::bn254::G2>("bn254_g2", ec::bn254::g2_generator());
  register_group<ec::bls12_381::G1>("bls12_381_g1", ec::bls12_381::g1_generator());
  register_group<ec::bls12_381::G2>("bls12_381_g2", ec::bls12_381::g2_generator());
  register_pairing("bn254", ec::bn254::g1_generator(), ec::bn254::g2_generator(),
                   [](const auto& p, const auto& q) { return ec::bn254::pairing(p, q); });
  register_pairing("bls12_381", ec::bls12_381::g1_generator(), ec::bls12_381::g2_generator(),
                   [](const auto& p, const auto& q) { return ec::bls12_381::pairing(p, q); });
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
