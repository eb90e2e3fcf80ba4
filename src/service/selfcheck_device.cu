// Device half of `cuzk selfcheck`: field and curve operations on the GPU
// against the host, bit for bit. Multiplication is out of line here (see
// mont32_eo.hpp) to keep this file's compile time small; the GPU tests cover the
// inlined form.
#define CUZK_DEVICE_MUL_NOINLINE

#include <random>

#include "cuzk/arith_ops.hpp"
#include "cuzk/cuda/crosscheck.cuh"
#include "cuzk/ec/bls12_381.hpp"
#include "cuzk/ec/bn254.hpp"
#include "cuzk/ec/random_points.hpp"
#include "cuzk/ff/encode.hpp"
#include "cuzk/service/selfcheck.hpp"

namespace cuzk::service {
namespace {

template <class F>
bool field_ok(uint64_t seed, size_t n) {
  const auto a = ff::random_elements<F>(n, seed), b = ff::random_elements<F>(n, seed + 1);
  return cuda::crosscheck<F>(ops::Mul{}, a, b).count == 0 && cuda::crosscheck<F>(ops::Add{}, a, b).count == 0 &&
         cuda::crosscheck<F>(ops::Sub{}, a, b).count == 0;
}

template <class C>
bool madd_ok(const ec::Affine<C>& g, uint64_t seed, size_t n) {
  const auto p = ec::random_points<C>(n, g, seed), q = ec::random_points<C>(n, g, seed + 1);
  std::vector<ec::Xyzz<C>> px(n);
  parallel_for(n, [&](size_t i) { px[i] = ec::Xyzz<C>::from(p[i]).dbl(); });
  return cuda::crosscheck<ec::Xyzz<C>>(ops::PointAdd{}, px, q).count == 0;
}

}  // namespace

int selfcheck_device(uint64_t seed, size_t n, const CheckReporter& report) {
  int failed = 0;
  auto check = [&](const std::string& name, bool ok) {
    report(name, ok);
    failed += !ok;
  };
  check("cuda bn254 Fq mul/add/sub = host", field_ok<ff::bn254::Fq>(seed, n));
  check("cuda bn254 Fr mul/add/sub = host", field_ok<ff::bn254::Fr>(seed + 10, n));
  check("cuda bn254 Fq2 mul/add/sub = host", field_ok<ff::bn254::Fq2>(seed + 20, n));
  check("cuda bls12_381 Fq mul/add/sub = host", field_ok<ff::bls12_381::Fq>(seed + 30, n));
  check("cuda bls12_381 Fr mul/add/sub = host", field_ok<ff::bls12_381::Fr>(seed + 40, n));
  check("cuda bls12_381 Fq2 mul/add/sub = host", field_ok<ff::bls12_381::Fq2>(seed + 50, n));
  check("cuda bn254 G1 XYZZ mixed add = host", madd_ok(ec::bn254::g1_generator(), seed + 60, n));
  check("cuda bn254 G2 XYZZ mixed add = host", madd_ok(ec::bn254::g2_generator(), seed + 70, n));
  check("cuda bls12_381 G1 XYZZ mixed add = host", madd_ok(ec::bls12_381::g1_generator(), seed + 80, n));
  check("cuda bls12_381 G2 XYZZ mixed add = host", madd_ok(ec::bls12_381::g2_generator(), seed + 90, n));
  return failed;
}

}  // namespace cuzk::service
