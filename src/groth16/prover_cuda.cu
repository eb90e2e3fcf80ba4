// The Groth16 prover on the GPU (prover_cuda.hpp). One proof's timeline on a
// Worker:
//   copy stream   w ──► a, b, c
//   stream            └► MSM A, B1, B2 (G2), C ──► (a, b, c ready) NTTs, h ──► MSM H
// The uploads of a, b and c hide behind the four witness MSMs.
#include <optional>
#include <string>
#include <vector>

#include "cuzk/ec/bls12_381.hpp"
#include "cuzk/ec/bn254.hpp"
#include "cuzk/groth16/prover_cuda.hpp"
#include "cuzk/msm/pippenger_cuda.hpp"
#include "cuzk/poly/ntt_cuda.hpp"

namespace cuzk::groth16::cuda {

using ::cuzk::cuda::DeviceBuffer;
using ::cuzk::cuda::DeviceScope;
using ::cuzk::cuda::Event;

template <class E>
struct DeviceKey<E>::Resident {
  using G1 = typename E::G1;
  using G2 = typename E::G2;
  DeviceBuffer<ec::Affine<G1>> a, b1, c, h;
  DeviceBuffer<ec::Affine<G2>> b2;
  poly::cuda::DeviceDomain<typename E::Fr> domain;

  explicit Resident(const PreparedKey<E>& p) : domain(p.domain()) {}
};

namespace {

template <class T>
void upload_all(DeviceBuffer<T>& d, std::span<const T> h) {
  d = DeviceBuffer<T>(h.size());
  d.upload(h);
}

}  // namespace

template <class E>
DeviceKey<E>::DeviceKey(const PreparedKey<E>& prepared, int device) : prepared_(prepared), device_(device) {
  DeviceScope on(device);
  const ProvingKey<E>& k = prepared.key();
  const size_t need = (k.a.size() + k.b1.size() + k.c.size() + k.h.size()) * sizeof(k.a[0]) +
                      k.b2.size() * sizeof(k.b2[0]) + k.domain_size() * sizeof(typename E::Fr);
  const size_t free = ::cuzk::cuda::free_device_memory();
  if (need > free)
    throw ::cuzk::cuda::Error("the proving key needs " + std::to_string(need >> 20) + " MiB on GPU " +
                              std::to_string(device) + ", which has " + std::to_string(free >> 20) + " MiB free");
  resident_ = std::make_unique<Resident>(prepared);
  upload_all(resident_->a, k.a);
  upload_all(resident_->b1, k.b1);
  upload_all(resident_->b2, k.b2);
  upload_all(resident_->c, k.c);
  upload_all(resident_->h, k.h);
  CUZK_CUDA_CHECK(cudaDeviceSynchronize());
}

template <class E>
DeviceKey<E>::~DeviceKey() = default;

template <class E>
size_t DeviceKey<E>::bytes() const {
  const Resident& r = *resident_;
  return (r.a.size() + r.b1.size() + r.c.size() + r.h.size()) * sizeof(ec::Affine<typename E::G1>) +
         r.b2.size() * sizeof(ec::Affine<typename E::G2>) + r.domain.size() * sizeof(typename E::Fr);
}

template <class E>
struct PendingGpuProof<E>::State {
  using G1 = typename E::G1;
  using G2 = typename E::G2;
  std::vector<typename E::Fr> publics;
  std::optional<msm::cuda::Msm<G1>> a, b1, c, h;
  std::optional<msm::cuda::Msm<G2>> b2;
  // Main stream: start, after A, B1, B2, C, the NTTs, H. Copy stream: start, end.
  Event main[7], copy[2];
  bool waited = false;
};

template <class E>
PendingGpuProof<E>::PendingGpuProof(std::unique_ptr<State> s) : state_(std::move(s)) {}
template <class E>
PendingGpuProof<E>::PendingGpuProof(PendingGpuProof&&) noexcept = default;
template <class E>
PendingGpuProof<E>& PendingGpuProof<E>::operator=(PendingGpuProof&&) noexcept = default;
template <class E>
PendingGpuProof<E>::~PendingGpuProof() = default;  // each Msm waits for its own results

template <class E>
PendingProof<E> PendingGpuProof<E>::wait(GpuTimes* times) {
  if (!state_ || state_->waited) throw std::logic_error("prove_start's result was already waited for");
  State& s = *state_;
  s.waited = true;
  PendingProof<E> p;
  p.a = s.a->wait();
  p.b1 = s.b1->wait();
  p.b2 = s.b2->wait();
  p.c = s.c->wait();
  p.h = s.h->wait();
  s.main[6].sync();
  s.copy[1].sync();
  p.publics = std::move(s.publics);
  if (times) {
    const auto sec = [](const Event& to, const Event& from) { return 1e-3 * to.ms_since(from); };
    times->upload = sec(s.copy[1], s.copy[0]);
    times->msm_a = sec(s.main[1], s.main[0]);
    times->msm_b1 = sec(s.main[2], s.main[1]);
    times->msm_b2 = sec(s.main[3], s.main[2]);
    times->msm_c = sec(s.main[4], s.main[3]);
    times->ntt = sec(s.main[5], s.main[4]);
    times->msm_h = sec(s.main[6], s.main[5]);
    times->total = sec(s.main[6], s.main[0]);
  }
  return p;
}

namespace {

void check_length(const char* what, size_t got, size_t want) {
  if (got != want)
    throw std::invalid_argument(std::string(what) + " has " + std::to_string(got) + " values; the key needs " +
                                std::to_string(want));
}

template <class T>
void upload_async(T* dst, std::span<const T> src, cudaStream_t s) {
  CUZK_CUDA_CHECK(cudaMemcpyAsync(dst, src.data(), src.size_bytes(), cudaMemcpyHostToDevice, s));
}

}  // namespace

template <class E>
PendingGpuProof<E> prove_start(const DeviceKey<E>& key, Worker& worker, std::span<const typename E::Fr> w,
                               std::span<const typename E::Fr> a, std::span<const typename E::Fr> b,
                               std::span<const typename E::Fr> c) {
  using Fr = typename E::Fr;
  using G1 = typename E::G1;
  using G2 = typename E::G2;
  const ProvingKey<E>& pk = key.prepared().key();
  check_length("the witness", w.size(), pk.n_vars());
  for (auto* v : {&a, &b, &c}) check_length("an a/b/c buffer", v->size(), pk.domain_size());
  if (worker.device() != key.device())
    throw std::invalid_argument("the worker is on GPU " + std::to_string(worker.device()) + " but the key on GPU " +
                                std::to_string(key.device()));
  DeviceScope on(key.device());
  const auto& r = key.resident();
  const size_t n = pk.domain_size(), n_public = pk.n_public();
  const cudaStream_t main = worker.stream(), copy = worker.copy_stream();

  auto st = std::make_unique<typename PendingGpuProof<E>::State>();
  st->publics.assign(w.begin() + 1, w.begin() + 1 + n_public);
  // Scratch goes back to the arena at the end of this function; the copy stream
  // first waits for all work already on the main stream, which may still read
  // the previous proof's blocks.
  auto dw = worker.arena().take(w.size_bytes());
  auto dabc = worker.arena().take(3 * n * sizeof(Fr));
  Fr* d_w = dw.as<Fr>();
  Fr* d_a = dabc.as<Fr>();
  Fr* d_b = d_a + n;
  Fr* d_c = d_b + n;

  st->main[0].record(main);
  st->main[0].wait_in(copy);
  st->copy[0].record(copy);
  upload_async(d_w, w, copy);
  Event w_ready(cudaEventDisableTiming);
  w_ready.record(copy);
  upload_async(d_a, a, copy);
  upload_async(d_b, b, copy);
  upload_async(d_c, c, copy);
  st->copy[1].record(copy);

  w_ready.wait_in(main);
  auto& arena = worker.arena();
  st->a.emplace(msm::cuda::Msm<G1>::enqueue(r.a.data(), d_w, pk.n_vars(), main, arena));
  st->main[1].record(main);
  st->b1.emplace(msm::cuda::Msm<G1>::enqueue(r.b1.data(), d_w, pk.n_vars(), main, arena));
  st->main[2].record(main);
  st->b2.emplace(msm::cuda::Msm<G2>::enqueue(r.b2.data(), d_w, pk.n_vars(), main, arena));
  st->main[3].record(main);
  st->c.emplace(msm::cuda::Msm<G1>::enqueue(r.c.data(), d_w + n_public + 1, pk.c.size(), main, arena));
  st->main[4].record(main);

  st->copy[1].wait_in(main);
  for (Fr* v : {d_a, d_b, d_c}) poly::cuda::coset_evaluations(r.domain, v, main);
  poly::cuda::quotient_pointwise(d_a, d_b, d_c, n, main);
  st->main[5].record(main);
  st->h.emplace(msm::cuda::Msm<G1>::enqueue(r.h.data(), d_a, n, main, arena));
  st->main[6].record(main);
  return PendingGpuProof<E>(std::move(st));
}

#define CUZK_GROTH16_CUDA_INSTANTIATE(E)                                                                \
  template class DeviceKey<E>;                                                                          \
  template class PendingGpuProof<E>;                                                                    \
  template PendingGpuProof<E> prove_start(const DeviceKey<E>&, Worker&, std::span<const E::Fr>,         \
                                          std::span<const E::Fr>, std::span<const E::Fr>, std::span<const E::Fr>);
CUZK_GROTH16_CUDA_INSTANTIATE(ec::Bn254)
CUZK_GROTH16_CUDA_INSTANTIATE(ec::Bls12_381)

}  // namespace cuzk::groth16::cuda
