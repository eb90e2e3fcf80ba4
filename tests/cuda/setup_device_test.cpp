// The development setup on the GPU against the host's, the oracle: the GPU
// fixed-base multiplication on edge and random scalars across its chunk and
// batch boundaries in all four groups; for the same toxic waste the same key,
// point for point, on both curves (random constraint systems with signals in
// no matrix, whose points are infinity, and the Partition circuit); the points
// stay on the GPU, and a proof with such a key is the host key's proof for the
// same r and s, and verifies; brought back to the host it writes the host
// key's file; what such a key refuses (streaming, another
// GPU, the CPU prover, a zkey file).
//
// Replay a failure with CUZK_TEST_SEED=<the printed seed>.
#include <gtest/gtest.h>

#include <filesystem>
#include <span>
#include <vector>

#include "../io/io_test_support.hpp"
#include "cuzk/circuit/examples/partition.hpp"
#include "cuzk/circuit/matrices.hpp"
#include "cuzk/circuit/witness.hpp"
#include "cuzk/ec/fixed_base_cuda.hpp"
#include "cuzk/groth16/detail/assemble.hpp"
#include "cuzk/groth16/prover_cuda.hpp"
#include "cuzk/groth16/setup_cuda.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/io/bellperson.hpp"
#include "cuzk/io/bellperson_key.hpp"
#include "cuzk/io/zkey_writer.hpp"
#include "device_test_util.hpp"
#include "proving_support.hpp"
#include "seed.hpp"
#include "setup_support.hpp"

namespace cuzk::test {
namespace {

namespace gpu = groth16::gpu;
using cuda::DeviceBuffer;

template <class C>
std::vector<ec::Affine<C>> downloaded(const DeviceBuffer<ec::Affine<C>>& d) {
  std::vector<ec::Affine<C>> h(d.size());
  d.download(std::span<ec::Affine<C>>(h));
  return h;
}

// [k]G on the GPU and on the host for n scalars: 0, 1, 2, -1, -2 first (the
// top window's carry), the rest random.
template <class C>
void expect_fixed_base_matches(size_t n) {
  using Fr = typename C::Fr;
  SCOPED_TRACE(std::to_string(n) + " scalars");
  auto rng = test_rng();
  std::vector<Fr> k(n);
  for (auto& x : k) x = ff::random_element<Fr>(rng);
  const Fr two = Fr::from_uint(2);
  const Fr edges[] = {Fr::zero(), Fr::one(), two, -Fr::one(), -two};
  for (size_t i = 0; i < std::size(edges) && i < n; ++i) k[i] = edges[i];
  const ec::FixedBase<C> base(ec::generator<C>(), n, 0);
  std::vector<ec::Affine<C>> want(n);
  base.mul(k, want, 0);
  DeviceBuffer<ec::Affine<C>> got(n);
  ec::gpu::fixed_base_mul(base.table(), std::span<const Fr>(k), got.data());
  EXPECT_TRUE(same_values(downloaded(got), want));
}

TEST(GpuFixedBase, MatchesHostInEveryGroup) {
  SEED_TRACE();
  // 1 and 64 ± 1 cross the batches of points brought to affine together.
  for (size_t n : {1, 63, 65, 1000}) {
    expect_fixed_base_matches<ec::bn254::G1>(n);
    expect_fixed_base_matches<ec::bn254::G2>(n);
    expect_fixed_base_matches<ec::bls12_381::G1>(n);
    expect_fixed_base_matches<ec::bls12_381::G2>(n);
  }
}

TEST(GpuFixedBase, CrossesItsChunks) {
  SEED_TRACE();
  expect_fixed_base_matches<ec::bn254::G1>((size_t(1) << 22) + 77);  // the launches take 2^22
}

// The GPU setup's key against the host's for the same toxic waste.
template <class E>
void expect_same_key(const groth16::DevKey<E>& host, const groth16::DevKey<E>& dev) {
  const auto& h = host.key;
  const auto& d = dev.key;
  ASSERT_TRUE(d.on_gpu.has_value());
  EXPECT_EQ(d.on_gpu->device, 0);
  EXPECT_TRUE(dev.a.empty() && dev.b1.empty() && dev.b2.empty() && dev.c.empty() && dev.h.empty());
  EXPECT_TRUE(d.a.empty() && d.h.empty()) << "the points have a host copy";
  EXPECT_EQ(d.n_vars(), h.n_vars());
  EXPECT_EQ(d.domain_size(), h.domain_size());
  EXPECT_EQ(d.n_public(), h.n_public());
  EXPECT_EQ(d.convention, h.convention);
  EXPECT_TRUE(d.a_density == h.a_density && d.b_density == h.b_density) << "densities";
  const auto& p = *d.on_gpu->points;
  EXPECT_TRUE(same_values(downloaded(p.a), host.a)) << "A";
  EXPECT_TRUE(same_values(downloaded(p.b1), host.b1)) << "B1";
  EXPECT_TRUE(same_values(downloaded(p.b2), host.b2)) << "B2";
  EXPECT_TRUE(same_values(downloaded(p.c), host.c)) << "C";
  EXPECT_TRUE(same_values(downloaded(p.h), host.h)) << "H";
  EXPECT_TRUE(same_values(dev.ic, host.ic)) << "IC";
  EXPECT_TRUE(d.alpha1 == h.alpha1 && d.beta1 == h.beta1 && d.delta1 == h.delta1);
  EXPECT_TRUE(d.beta2 == h.beta2 && d.gamma2 == h.gamma2 && d.delta2 == h.delta2);
  ASSERT_EQ(d.coefs.size(), h.coefs.size());
  for (size_t i = 0; i < h.coefs.size(); ++i) {
    const auto &x = d.coefs[i], &y = h.coefs[i];
    ASSERT_TRUE(x.matrix == y.matrix && x.constraint == y.constraint && x.signal == y.signal && x.value == y.value)
        << "coefficient " << i;
  }
}

// A proof of `in` from the key made on the GPU (its points read in place) and
// from the host's key uploaded: the same MSMs, the same proof for the same r
// and s, and it verifies.
template <class E>
void expect_same_proofs(const gpu::DeviceKey<E>& made, const gpu::DeviceKey<E>& uploaded,
                        const circuit::Assignment<typename E::Fr>& in) {
  using Fr = typename E::Fr;
  gpu::Worker worker(0);
  const std::span<const Fr> w(in.w), a(in.a), b(in.b), c(in.c);
  auto pending = gpu::prove_start(made, worker, w, a, b, c);
  auto from_host_key = gpu::prove_start(uploaded, worker, w, a, b, c);
  const auto got = pending.wait(), want = from_host_key.wait();
  expect_same_pending(got, want);
  const auto rs = groth16::Randomness<Fr>::draw();
  const auto proof = groth16::detail::assemble(made.prepared(), got, rs);
  EXPECT_TRUE(proof == groth16::detail::assemble(uploaded.prepared(), want, rs));
  EXPECT_TRUE(groth16::verify<E>(made.prepared().vk(), got.publics, proof));
}

template <class E>
class GpuSetup : public ::testing::Test {};
using Curves = ::testing::Types<ec::Bn254, ec::Bls12_381>;
TYPED_TEST_SUITE(GpuSetup, Curves);

TYPED_TEST(GpuSetup, SameKeyAsHostForRandomConstraints) {
  using E = TypeParam;
  SEED_TRACE();
  auto rng = test_rng();
  const std::pair<size_t, uint32_t> sizes[] = {{5, 6}, {300, 257}, {2000, 2100}};
  for (const auto& [nc, nv] : sizes) {
    SCOPED_TRACE(std::to_string(nc) + " constraints, " + std::to_string(nv) + " signals");
    const auto m = random_r1cs<E>(nc, nv, 2, rng);
    const auto t = toxic<E>(rng);
    expect_same_key(groth16::dev_setup(m, t), gpu::dev_setup(m, t, 0));
  }
}

// What `cuzk setup --backend cuda` writes: the GPU's points brought back
// make the host key, file byte for byte.
TYPED_TEST(GpuSetup, BroughtToHostWritesTheHostKey) {
  using E = TypeParam;
  SEED_TRACE();
  auto rng = test_rng();
  const auto m = random_r1cs<E>(700, 650, 2, rng);
  const auto t = toxic<E>(rng);
  const auto host = groth16::dev_setup(m, t);
  auto dev = gpu::dev_setup(m, t, 0);
  gpu::bring_to_host(dev);
  EXPECT_FALSE(dev.key.on_gpu.has_value());
  EXPECT_EQ(dev.key.a.data(), dev.a.data());
  EXPECT_EQ(dev.key.b2.data(), dev.b2.data());
  EXPECT_TRUE(same_values(dev.a, host.a) && same_values(dev.b1, host.b1) && same_values(dev.b2, host.b2) &&
              same_values(dev.c, host.c) && same_values(dev.h, host.h));
  const TempDir dir;
  io::write_zkey(dir.path() / "host.zkey", host.key);
  io::write_zkey(dir.path() / "gpu.zkey", dev.key);
  EXPECT_EQ(read_bytes(dir.path() / "gpu.zkey"), read_bytes(dir.path() / "host.zkey"));
}

TYPED_TEST(GpuSetup, SameKeyAndProofsAsHostForPartition) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  SEED_TRACE();
  auto rng = test_rng();
  const auto circuit = circuit::Partition<E>::for_constraints(1 << 14, rng());
  const auto m = circuit::constraint_matrices(circuit);
  const auto t = groth16::ToxicWaste<E>::draw();
  auto host_dev = groth16::dev_setup(m, t);
  auto gpu_dev = gpu::dev_setup(m, t, 0);
  expect_same_key(host_dev, gpu_dev);
  const auto host = groth16::PreparedKey<E>::make(groth16::share(std::move(host_dev)));
  const auto made = groth16::PreparedKey<E>::make(groth16::share(std::move(gpu_dev)));

  // The DeviceKey reads the points in place: it holds only the domain's tables.
  const gpu::DeviceKey<E> key(made, 0), uploaded(host, 0);
  EXPECT_LT(key.bytes(), uploaded.bytes());
  EXPECT_EQ(key.bytes(), gpu::DeviceKey<E>::bytes_needed(*made, {}));

  auto in = circuit::synthesize_assignment(circuit);
  expect_same_proofs(key, uploaded, in);
  EXPECT_TRUE(made->vk() == host->vk());

  // What a key that lives on its GPU refuses, each with a message.
  EXPECT_THROW(gpu::DeviceKey<E>(made, 0, {.streamed = true}), cuda::Error);
  if (cuda::device_count() > 1) {
    EXPECT_THROW(gpu::DeviceKey<E>(made, 1), cuda::Error);
  }
  EXPECT_THROW(groth16::prove_start(*made, std::span<const Fr>(in.w), std::span<Fr>(in.a), std::span<Fr>(in.b),
                                    std::span<Fr>(in.c)),
               std::invalid_argument);
  const TempDir dir;
  EXPECT_THROW(io::write_zkey(dir.path() / "k.zkey", made->key()), std::invalid_argument);
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "k.zkey"));
}

// Bellman's convention (a bellperson parameter file, `cuzk setup --format
// bellperson`): A and B over their densities, h's coefficients, one H point
// fewer than the domain. The GPU's key is the host's, its file byte for byte,
// and a key that stays on the GPU proves as the host's does.
TEST(GpuSetupBellman, SameKeyFileAndProofsAsHost) {
  using E = ec::Bls12_381;
  SEED_TRACE();
  auto rng = test_rng();
  const auto circuit = circuit::Partition<E>::for_constraints(1 << 12, rng());
  const auto m = circuit::constraint_matrices(circuit);
  const auto t = groth16::ToxicWaste<E>::draw();
  const auto bellman = groth16::Convention::bellman;
  auto host_dev = groth16::dev_setup(m, t, 0, bellman);
  ASSERT_LT(host_dev.a.size(), host_dev.c.size() + m.n_public + 1)
      << "every signal is in A: the densities would go untested";
  auto gpu_dev = gpu::dev_setup(m, t, 0, 0, bellman);
  expect_same_key(host_dev, gpu_dev);

  auto brought = gpu::dev_setup(m, t, 0, 0, bellman);
  gpu::bring_to_host(brought);
  const TempDir dir;
  io::write_bellperson_params(dir.path() / "host.params", io::to_bellperson(host_dev.key));
  io::write_bellperson_params(dir.path() / "gpu.params", io::to_bellperson(brought.key));
  EXPECT_EQ(read_bytes(dir.path() / "gpu.params"), read_bytes(dir.path() / "host.params"));

  const auto host = groth16::PreparedKey<E>::make(groth16::share(std::move(host_dev)));
  const auto made = groth16::PreparedKey<E>::make(groth16::share(std::move(gpu_dev)));
  const gpu::DeviceKey<E> key(made, 0), uploaded(host, 0);
  auto in = circuit::synthesize_assignment(circuit);
  expect_same_proofs(key, uploaded, in);
}

TYPED_TEST(GpuSetup, RefusesWhatTheHostSetupRefuses) {
  using E = TypeParam;
  auto rng = test_rng();
  auto m = random_r1cs<E>(5, 6, 2, rng);
  auto t = toxic<E>(rng);
  t.delta = E::Fr::zero();
  EXPECT_THROW(gpu::dev_setup(m, t, 0), std::invalid_argument);
  m.n_public = 6;
  EXPECT_THROW(gpu::dev_setup(m, toxic<E>(rng), 0), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::test
