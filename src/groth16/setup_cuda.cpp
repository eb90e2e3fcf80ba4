#include "cuzk/groth16/setup_cuda.hpp"

#include <string>

#include "cuzk/ec/fixed_base_cuda.hpp"
#include "cuzk/groth16/prover_cuda.hpp"

namespace cuzk::groth16::gpu {

using cuda::DeviceScope;

template <class E>
DevKey<E> dev_setup(const r1cs::ConstraintMatrices<E>& m, const ToxicWaste<E>& t, int device, unsigned threads,
                    Convention convention) {
  using Fr = typename E::Fr;
  using G1 = ec::Affine<typename E::G1>;
  using G2 = ec::Affine<typename E::G2>;
  const auto plan = groth16::detail::plan_setup(m, t, threads, convention);
  // A and B have points for every signal (snarkjs) or for their densities'
  // (bellman); C for every private signal; H for the convention's H terms.
  const size_t nv = plan.w.size(), np = m.n_public;
  const size_t na = plan.u.size(), nb = plan.v.size(), nc = nv - np - 1, nh = plan.h.size();

  DeviceScope on(device);
  const size_t need = (na + nb + nc + nh) * sizeof(G1) + nb * sizeof(G2);
  const size_t free = cuda::free_device_memory();
  if (need > free)
    throw cuda::Error("the development key's points need " + std::to_string(need >> 20) + " MiB on GPU " +
                              std::to_string(device) + ", which has " + std::to_string(free >> 20) + " MiB free");
  // The deleter frees the points on their GPU, from whichever thread lets go
  // of the key last.
  std::shared_ptr<DevicePoints<E>> points(new DevicePoints<E>, [device](DevicePoints<E>* p) {
    DeviceScope on(device);
    delete p;
  });
  using cuda::DeviceBuffer;
  points->a = DeviceBuffer<G1>(na), points->b1 = DeviceBuffer<G1>(nb), points->c = DeviceBuffer<G1>(nc);
  points->h = DeviceBuffer<G1>(nh), points->b2 = DeviceBuffer<G2>(nb);

  Progress progress("setup", groth16::detail::setup_points(plan, np), "points");
  const auto g1 = plan.g1.table();
  ec::gpu::fixed_base_mul(g1, std::span<const Fr>(plan.u), points->a.data(), &progress);
  ec::gpu::fixed_base_mul(g1, std::span<const Fr>(plan.v), points->b1.data(), &progress);
  ec::gpu::fixed_base_mul(g1, std::span<const Fr>(plan.w).subspan(np + 1), points->c.data(), &progress);
  ec::gpu::fixed_base_mul(g1, std::span<const Fr>(plan.h), points->h.data(), &progress);
  ec::gpu::fixed_base_mul(plan.g2.table(), std::span<const Fr>(plan.v), points->b2.data(), &progress,
                           groth16::detail::kG2Weight);
  progress.finish();

  DevKey<E> d;
  groth16::detail::finish_setup(d, plan, m, t, threads);
  d.key.on_gpu = typename ProvingKey<E>::OnGpu{device, nv, reduction(convention).domain_size(nh), std::move(points)};
  return d;
}

template <class E>
void bring_to_host(DevKey<E>& d) {
  if (!d.key.on_gpu) return;
  const auto& on_gpu = *d.key.on_gpu;
  const DevicePoints<E>& p = *on_gpu.points;
  DeviceScope on(on_gpu.device);
  const auto down = [](const auto& from, auto& to) {
    to.resize(from.size());
    from.download(std::span(to));
  };
  down(p.a, d.a), down(p.b1, d.b1), down(p.c, d.c), down(p.h, d.h), down(p.b2, d.b2);
  ProvingKey<E>& k = d.key;
  k.a = d.a, k.b1 = d.b1, k.b2 = d.b2, k.c = d.c, k.h = d.h;
  k.on_gpu.reset();
}

template DevKey<ec::Bn254> dev_setup(const r1cs::ConstraintMatrices<ec::Bn254>&, const ToxicWaste<ec::Bn254>&, int,
                                     unsigned, Convention);
template DevKey<ec::Bls12_381> dev_setup(const r1cs::ConstraintMatrices<ec::Bls12_381>&, const ToxicWaste<ec::Bls12_381>&,
                                         int, unsigned, Convention);
template void bring_to_host(DevKey<ec::Bn254>&);
template void bring_to_host(DevKey<ec::Bls12_381>&);

}  // namespace cuzk::groth16::gpu
