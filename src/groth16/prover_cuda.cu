// The Groth16 prover on the GPU (prover_cuda.hpp). One proof's timeline on a
// Worker:
//   copy stream   w ──► a, b, c                     (key chunks, when streamed)
//   stream            └► (bellman: A's and B's dense scalars gathered) w
//                        classified, MSM A, B1, B2 (G2), C ──► (a, b, c ready,
//                        or computed from the rows) NTTs, h ──► MSM H
// The uploads of a, b and c hide behind the four witness MSMs. The host waits
// once, for the classification of the witness scalars, which all four share.
#include <algorithm>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "cuzk/ec/bls12_381.hpp"
#include "cuzk/ec/bn254.hpp"
#include "cuzk/cuda/map.cuh"
#include "cuzk/groth16/detail/abc_row.hpp"
#include "cuzk/groth16/prover_cuda.hpp"
#include "cuzk/msm/pippenger_cuda.hpp"
#include "cuzk/poly/ntt_cuda.hpp"
#include "device_key_cuda.cuh"

namespace cuzk::groth16::gpu {

template <class E>
struct DeviceInputs<E>::State {
  const DeviceKey<E>* key = nullptr;
  const Worker* worker = nullptr;
  // scalars: the witness MSMs' (WitnessLayout), w uploaded at `gathered`;
  // abc: a, b, c of domain_size each.
  Arena::Block scalars, abc;
  // The first index of each piece whose value is not below the modulus
  // (Worker::kCheckSlots of them, all ones: none), set by the device's
  // checks: a block of the proof's own, so that the memory plan counts it.
  Arena::Block checks;
  std::vector<typename E::Fr> publics;  // w[1 .. n_public], read while w is at hand
  size_t bytes = 0;
  bool has_abc = false;
  AbcSchedule schedule = AbcSchedule::together;
  HostInputs<typename E::Fr> host;  // the pieces: in_turn, prove_start uploads a, b, c from them
  // Copy stream: start, w done (waited for by the host: it sleeps); the
  // copies' end is that of `copies`.
  Event start, w_ready{cudaEventDisableTiming | cudaEventBlockingSync};
  // Last: the copies read the caller's host buffers and write blocks that go
  // back to the arena, neither of which may be let go of while they run.
  cuda::InFlight copies;

  explicit State(cudaStream_t copy) : copies(copy, cudaEventDefault) {}
};

template <class E>
DeviceInputs<E>::DeviceInputs(std::unique_ptr<State> s) : state_(std::move(s)) {}
template <class E>
DeviceInputs<E>::DeviceInputs(DeviceInputs&&) noexcept = default;
template <class E>
DeviceInputs<E>& DeviceInputs<E>::operator=(DeviceInputs&&) noexcept = default;
template <class E>
DeviceInputs<E>::~DeviceInputs() = default;

template <class E>
double DeviceInputs<E>::wait_uploaded() {
  state_->copies.wait();
  return 1e-3 * state_->copies.end().ms_since(state_->start);
}

template <class E>
void DeviceInputs<E>::wait_witness() const {
  state_->w_ready.sync();
}

template <class E>
size_t DeviceInputs<E>::bytes() const {
  return state_->bytes;
}

template <class E>
bool DeviceInputs<E>::host_abc_pending() const {
  return state_->schedule == AbcSchedule::in_turn;
}

namespace {

template <class T>
void upload_async(T* dst, std::span<const T> src, cudaStream_t s) {
  CUZK_CUDA_CHECK(cudaMemcpyAsync(dst, src.data(), src.size_bytes(), cudaMemcpyHostToDevice, s));
}

// A vector of `n` rows on the device from a host piece of rows ≤ n (staged
// when pageable, on the staging's stream), the rows past them zero.
template <class Fr>
void upload_rows(Fr* dst, std::span<const Fr> rows, size_t n, cuda::StagedUpload& staging) {
  staging.copy(dst, rows.data(), rows.size_bytes());
  if (rows.size() < n)
    CUZK_CUDA_CHECK(cudaMemsetAsync(dst + rows.size(), 0, (n - rows.size()) * sizeof(Fr), staging.stream()));
}

}  // namespace

// The least index i < n with v[i] not below the modulus into *first (which
// holds all ones, or a lesser index already); each such value is zeroed, so
// that no kernel after this meets one (their carry bounds and the MSMs'
// digits assume reduced values) while the proof runs on to its failure.
template <class Fr>
__global__ void first_not_below_modulus(Fr* v, size_t n, unsigned long long* first) {
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    if (!Fr::less_than_modulus(v[i].limb)) {
      atomicMin(first, (unsigned long long)i);
      v[i] = Fr::zero();
    }
}

namespace {

// Checked on the device, where the values are after their upload, rather
// than on the host: a host pass would read every byte of the caller's
// vectors once more (13.6 GiB for a 2^27 partition) on hosts whose memory
// bandwidth is the limit, while the device reads them at its own bandwidth
// in milliseconds. Into `slot`, one of the proof's checks, on `stream`.
template <class Fr>
void check_values(Fr* d, size_t n, unsigned long long* slot, int device, cudaStream_t stream) {
  if (n == 0) return;
  first_not_below_modulus<<<cuda::grid_stride_blocks(n, device), 256, 0, stream>>>(d, n, slot);
  CUZK_CUDA_CHECK_LAUNCH();
}

constexpr size_t kAbcSlot = kMaxWitnessPieces;  // a's slot; b's and c's follow

}  // namespace

template <class E>
DeviceInputs<E> upload_inputs(const DeviceKey<E>& key, Worker& worker, const HostInputs<typename E::Fr>& in,
                              std::optional<AbcSchedule> schedule) {
  using Fr = typename E::Fr;
  const ProvingKey<E>& pk = key.prepared().key();
  const size_t n = pk.domain_size();
  in.check_shape(pk.n_vars(), n);
  const bool has_abc = in.has_abc();
  if (!has_abc && !key.has_matrices())
    throw std::invalid_argument(
        "no a/b/c given, and the key on the GPU has no rows to compute them from (not asked for, or no coefficients)");
  if (worker.device() != key.device())
    throw std::invalid_argument("the worker is on GPU " + std::to_string(worker.device()) + " but the key on GPU " +
                                std::to_string(key.device()));
  DeviceScope on(key.device());
  const cudaStream_t copy = worker.copy_stream();
  auto st = std::make_unique<typename DeviceInputs<E>::State>(copy);
  st->key = &key;
  st->worker = &worker;
  st->has_abc = has_abc;
  st->host = in;
  st->schedule = has_abc ? schedule.value_or(choose_schedule(
                               key, has_abc, cuda::free_device_memory() + worker.arena().free_bytes()))
                         : AbcSchedule::together;
  // w[1 .. n_public], from the pieces that hold them.
  for (size_t at = 0; const auto& piece : in.w) {
    const size_t from = std::max<size_t>(at, 1), to = std::min(at + piece.values.size(), 1 + pk.n_public());
    for (size_t i = from; i < to; ++i) st->publics.push_back(piece.values[i - at]);
    at += piece.values.size();
  }
  const WitnessLayout& layout = key.resident().witness;
  st->scalars = worker.arena().take(layout.size() * sizeof(Fr));
  st->checks = worker.arena().take(Worker::kCheckSlots * sizeof(unsigned long long));
  if (st->schedule == AbcSchedule::together) st->abc = worker.arena().take(3 * n * sizeof(Fr));
  // The blocks may have served the previous proof on this worker, whose
  // kernels on the main stream may still read them: copy after those.
  Event main_so_far(cudaEventDisableTiming);
  main_so_far.record(worker.stream());
  main_so_far.wait_in(copy);
  st->start.record(copy);
  Fr* d_w = st->scalars.template as<Fr>() + layout.gathered;
  for (const auto& piece : in.w) {
    worker.staging().copy(d_w, piece.values.data(), piece.values.size_bytes());
    d_w += piece.values.size();
  }
  st->w_ready.record(copy);
  st->bytes = pk.n_vars() * sizeof(Fr);
  if (st->schedule == AbcSchedule::together && has_abc) {
    Fr* d = st->abc.template as<Fr>();
    for (const auto* v : {&in.a, &in.b, &in.c}) upload_rows<Fr>(d, v->values, n, worker.staging()), d += n;
    st->bytes += 3 * in.rows() * sizeof(Fr);
  }
  st->copies.finish();
  return DeviceInputs<E>(std::move(st));
}

// a = A·w, b = B·w on every row and c = a∘b: evaluate_abc of prover.hpp on
// the same rows, one thread a row (rows hold a few entries; the public rows,
// one each).
template <class Fr, class Entry>
__global__ void abc_kernel(const uint32_t* a_start, const Entry* a_entries, const uint32_t* b_start,
                           const Entry* b_entries, const Fr* w, size_t rows, Fr* a, Fr* b, Fr* c) {
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < rows; i += stride)
    detail::abc_row(i, a_start, a_entries, b_start, b_entries, w, a, b, c);
}

namespace {

// a, b, c from w and the key's rows on the GPU.
template <class E>
void compute_abc(const typename DeviceKey<E>::Resident& resident, int device, const typename E::Fr* w, size_t n,
                 typename E::Fr* a, typename E::Fr* b, typename E::Fr* c, cudaStream_t stream) {
  abc_kernel<<<cuda::grid_stride_blocks(n, device), 256, 0, stream>>>(resident.rows[0].start.data(), resident.rows[0].entries.data(),
                                                      resident.rows[1].start.data(), resident.rows[1].entries.data(),
                                                      w, n, a, b, c);
  CUZK_CUDA_CHECK_LAUNCH();
}

// w[var], for launch_map over a list of variables: bellman's A and B scalars.
template <class Fr>
struct ValueOf {
  const Fr* w;
  __device__ Fr operator()(uint32_t var) const { return w[var]; }
};

// The quotient h (prover.cpp's prove_start) from a, b, c on the domain: each
// taken to the coset g·⟨ω⟩, where Z is the constant gⁿ − 1, and h = a·b − c
// there, scaled by the reduction's factor and brought back to coefficients
// where the key's H takes them (reduction.hpp; quotient_finish).
template <class Fr>
void quotient_finish(const poly::gpu::DeviceDomain<Fr>& domain, QapReduction qap, Fr* h, cudaStream_t stream) {
  if (qap.h_as_coefficients) poly::gpu::coset_intt(domain, h, stream);
}

// The together schedule: h in a, from a, b, c in three vectors.
template <class Fr>
void quotient(const poly::gpu::DeviceDomain<Fr>& domain, QapReduction qap, Fr* a, Fr* b, Fr* c,
              cudaStream_t stream) {
  for (Fr* v : {a, b, c}) poly::gpu::coset_evaluations(domain, v, stream);
  poly::gpu::quotient_pointwise(a, b, c, domain.size(), stream, qap.quotient_factor(domain.host()));
  quotient_finish(domain, qap, a, stream);
}

// The in_turn schedule (AbcSchedule): h in x, from the host's a, b, c copied
// on the worker's copy stream into two vectors x and y: a and b, their
// product into x, then c into y. Each copy into a vector waits for the
// kernels queued before it on the main stream (the witness MSMs still read
// w's block, which x may be), and the kernels (the values' checks first) wait
// for the copy. `ab_ready` is recorded on the main stream once a and b are
// there.
template <class Fr>
void quotient_in_turn(const poly::gpu::DeviceDomain<Fr>& domain, QapReduction qap, const HostInputs<Fr>& host,
                      Fr* x, Fr* y, Worker& worker, unsigned long long* checks, Event& ab_ready) {
  const cudaStream_t main = worker.stream(), copy = worker.copy_stream();
  const size_t n = domain.size();
  Event main_so_far(cudaEventDisableTiming), arrived(cudaEventDisableTiming);
  using Upload = std::tuple<Fr*, const typename HostInputs<Fr>::Piece*, size_t>;  // to, from, check slot
  const auto upload_after_main = [&](std::initializer_list<Upload> copies) {
    main_so_far.record(main);
    main_so_far.wait_in(copy);
    for (const auto& [to, from, slot] : copies) upload_rows<Fr>(to, from->values, n, worker.staging());
    arrived.record(copy);
    arrived.wait_in(main);
    for (const auto& [to, from, slot] : copies)
      check_values<Fr>(to, from->values.size(), checks + slot, worker.device(), main);
  };
  upload_after_main({{x, &host.a, kAbcSlot}, {y, &host.b, kAbcSlot + 1}});
  ab_ready.record(main);
  poly::gpu::coset_evaluations(domain, x, main);
  poly::gpu::coset_evaluations(domain, y, main);
  poly::gpu::pointwise_product(x, static_cast<const Fr*>(y), n, main);
  upload_after_main({{y, &host.c, kAbcSlot + 2}});
  poly::gpu::coset_evaluations(domain, y, main);
  poly::gpu::pointwise_difference(x, static_cast<const Fr*>(y), n, main, qap.quotient_factor(domain.host()));
  quotient_finish(domain, qap, x, main);
}

// One MSM of the proof, over scalars [begin, end) of k: a single device MSM
// over resident bases, or for a streamed key one per chunk of bases (starting
// at begin, begin + chunk, ...: bounds of k), each chunk copied into one of
// two staging blocks while the MSM of the other runs. The sum of the parts.
template <class C>
struct MsmParts {
  std::vector<msm::gpu::Msm<C>> parts;
  ec::Jacobian<C> wait() {
    ec::Jacobian<C> sum = ec::Jacobian<C>::infinity();
    for (auto& p : parts) sum = sum.add(p.wait());
    return sum;
  }
};

// The double buffer a streamed key's chunks pass through: two blocks of
// `bytes`, a chunk of G2 points or of twice as many G1 points each.
struct Staging {
  size_t bytes = 0;
  Arena::Block block[2];
  Event loaded[2]{Event(cudaEventDisableTiming), Event(cudaEventDisableTiming)};
  Event consumed[2]{Event(cudaEventDisableTiming), Event(cudaEventDisableTiming)};
  unsigned next = 0;
};

template <class C>
MsmParts<C> enqueue_msm(const Bases<C>& bases, const msm::gpu::Classified<typename C::Fr>& k, size_t begin,
                        size_t end, Worker& worker, Staging* staging) {
  using Msm = msm::gpu::Msm<C>;
  MsmParts<C> out;
  const cudaStream_t main = worker.stream(), copy = worker.copy_stream();
  if (!staging) {
    out.parts.push_back(Msm::enqueue(bases.device, k, begin, end, main, worker.arena()));
    return out;
  }
  const size_t chunk = staging->bytes / sizeof(ec::Affine<C>);
  size_t b = begin;
  do {  // once for no terms, whose MSM is the point at infinity
    const size_t m = std::min(chunk, end - b);
    const unsigned i = staging->next++ % 2;
    auto* dst = staging->block[i].as<ec::Affine<C>>();
    staging->consumed[i].wait_in(copy);  // the MSM that last read this block is done
    upload_async(dst, bases.host.subspan(b - begin, m), copy);
    staging->loaded[i].record(copy);
    staging->loaded[i].wait_in(main);
    out.parts.push_back(Msm::enqueue(dst, k, b, b + m, main, worker.arena()));
    staging->consumed[i].record(main);
    b += m;
  } while (b < end);
  return out;
}

}  // namespace

template <class E>
struct PendingGpuProof<E>::State {
  using G1 = typename E::G1;
  using G2 = typename E::G2;
  std::vector<typename E::Fr> publics;
  std::optional<DeviceInputs<E>> inputs;
  std::optional<Staging> staging;
  std::optional<MsmParts<G1>> a, b1, c, h;
  std::optional<MsmParts<G2>> b2;
  Arena::Block quotient[2];  // in_turn: the two vectors (h in the first)
  const char* checked[Worker::kCheckSlots] = {};  // what each of the proof's check slots holds the check of
  Worker* worker = nullptr;
  // Main stream, in order: the kernel stages (kGpuKernelStages) lie between
  // them; `work` ends with H.
  Event start, a_done, b1_done, b2_done, c_done, abc_ready, ntt_done;
  // Last: kernels read the inputs' and the staging blocks, which go back to
  // the arena with this state (the MSMs wait for their own results).
  cuda::InFlight work;

  explicit State(cudaStream_t main) : work(main, cudaEventDefault) {}
};

template <class E>
PendingGpuProof<E>::PendingGpuProof(std::unique_ptr<State> s) : state_(std::move(s)) {}
template <class E>
PendingGpuProof<E>::PendingGpuProof(PendingGpuProof&&) noexcept = default;
template <class E>
PendingGpuProof<E>& PendingGpuProof<E>::operator=(PendingGpuProof&&) noexcept = default;
template <class E>
PendingGpuProof<E>::~PendingGpuProof() = default;

template <class E>
double PendingGpuProof<E>::wait_uploaded() {
  return state_->inputs->wait_uploaded();
}

template <class E>
PendingProof<E> PendingGpuProof<E>::wait(StageTimes* times) {
  if (!state_ || state_->work.waited()) throw std::logic_error("prove_start's result was already waited for");
  State& s = *state_;
  PendingProof<E> p;
  p.a = s.a->wait();
  p.b1 = s.b1->wait();
  p.b2 = s.b2->wait();
  p.c = s.c->wait();
  p.h = s.h->wait();
  s.work.wait();
  const double upload = s.inputs->wait_uploaded();
  for (size_t slot = 0; slot < Worker::kCheckSlots; ++slot)
    if (const unsigned long long first = s.worker->first_bad_read()[slot]; s.checked[slot] && first != ~0ull)
      throw std::invalid_argument(not_below_modulus(s.checked[slot], (size_t)first));
  p.publics = std::move(s.publics);
  if (times) {
    const auto sec = [](const Event& to, const Event& from) { return 1e-3 * to.ms_since(from); };
    const Event& h_done = s.work.end();
    StageTimes& t = *times;
    t[Stage::upload] = upload;
    t[Stage::msm_a] = sec(s.a_done, s.start);  // with the witness's classification
    t[Stage::msm_b1] = sec(s.b1_done, s.a_done);
    t[Stage::msm_b2] = sec(s.b2_done, s.b1_done);
    t[Stage::msm_c] = sec(s.c_done, s.b2_done);
    t[Stage::abc] = sec(s.abc_ready, s.c_done);
    t[Stage::ntt] = sec(s.ntt_done, s.abc_ready);
    t[Stage::msm_h] = sec(h_done, s.ntt_done);
  }
  return p;
}

template <class E>
PendingGpuProof<E> prove_start(const DeviceKey<E>& key, Worker& worker, DeviceInputs<E> inputs) {
  using Fr = typename E::Fr;
  using G1 = typename E::G1;
  using G2 = typename E::G2;
  if (!inputs.state_ || inputs.state_->key != &key || inputs.state_->worker != &worker)
    throw std::invalid_argument("prove_start: the inputs were uploaded for another key or worker");
  const ProvingKey<E>& pk = key.prepared().key();
  const QapReduction qap = reduction(pk.convention);
  DeviceScope on(key.device());
  const auto& resident = key.resident();
  const WitnessLayout& layout = resident.witness;
  const size_t n = pk.domain_size(), n_vars = pk.n_vars();
  const cudaStream_t main = worker.stream();

  auto st = std::make_unique<typename PendingGpuProof<E>::State>(main);
  auto& in = *inputs.state_;
  Fr* d_scalars = in.scalars.template as<Fr>();
  Fr* d_w = d_scalars + layout.gathered;
  st->publics = std::move(in.publics);
  st->worker = &worker;
  st->start.record(main);
  auto* checks = in.checks.template as<unsigned long long>();
  CUZK_CUDA_CHECK(cudaMemsetAsync(checks, 0xff, Worker::kCheckSlots * sizeof(unsigned long long), main));
  in.w_ready.wait_in(main);
  for (size_t i = 0, at = 0; i < in.host.w.size(); at += in.host.w[i++].values.size()) {
    check_values<Fr>(d_w + at, in.host.w[i].values.size(), checks + i, worker.device(), main);
    st->checked[i] = in.host.w[i].name;
  }
  if (in.has_abc)
    for (size_t v = 0; const auto* piece : {&in.host.a, &in.host.b, &in.host.c})
      st->checked[kAbcSlot + v++] = piece->name;
  cuda::launch_map(main, d_scalars, layout.gathered, ValueOf<Fr>{d_w}, resident.dense_vars.data());

  Staging* staging = nullptr;
  // G2's chunks, whose bounds include G1's (twice as long).
  static_assert(sizeof(ec::Affine<G2>) == 2 * sizeof(ec::Affine<G1>));
  const size_t chunk = staging_points(pk, key.options());
  if (key.streamed()) {
    st->staging.emplace();
    st->staging->bytes = chunk * sizeof(ec::Affine<G2>);
    for (auto& b : st->staging->block) b = worker.arena().take(st->staging->bytes);
    // The blocks may have served earlier work on the main stream: the first
    // copies into them wait for it.
    for (auto& e : st->staging->consumed) e.record(main);
    staging = &*st->staging;
  }
  {
    // The witness scalars classified once for A, B1, B2 and C, at the bounds
    // of their ranges and of a streamed key's chunks: prove_start's one wait,
    // for w's upload and the work queued before it.
    std::vector<size_t> bounds;
    for (const auto& range : {layout.a, layout.b, layout.c}) {
      bounds.insert(bounds.end(), {range.begin, range.end});
      if (staging)
        for (size_t b = range.begin + chunk; b < range.end; b += chunk) bounds.push_back(b);
    }
    const msm::gpu::Classified<Fr> k(d_scalars, layout.size(), bounds, main, worker.arena());
    st->a.emplace(enqueue_msm<G1>(resident.a, k, layout.a.begin, layout.a.end, worker, staging));
    st->a_done.record(main);
    st->b1.emplace(enqueue_msm<G1>(resident.b1, k, layout.b.begin, layout.b.end, worker, staging));
    st->b1_done.record(main);
    st->b2.emplace(enqueue_msm<G2>(resident.b2, k, layout.b.begin, layout.b.end, worker, staging));
    st->b2_done.record(main);
    st->c.emplace(enqueue_msm<G1>(resident.c, k, layout.c.begin, layout.c.end, worker, staging));
    st->c_done.record(main);
  }

  Fr* d_h = nullptr;  // the quotient, H's scalars
  if (in.schedule == AbcSchedule::in_turn) {
    // w's block goes back to the arena: the witness MSMs, enqueued, run
    // before whatever takes it next on this stream.
    in.scalars = {};
    for (auto& v : st->quotient) v = worker.arena().take(n * sizeof(Fr));
    d_h = st->quotient[0].template as<Fr>();
    quotient_in_turn<Fr>(resident.domain, qap, in.host, d_h, st->quotient[1].template as<Fr>(), worker, checks,
                         st->abc_ready);
    st->ntt_done.record(main);
    st->quotient[1] = {};  // free for H's MSM chunks, after the quotient on this stream
  } else {
    Fr* d_a = in.abc.template as<Fr>();
    Fr* d_b = d_a + n;
    Fr* d_c = d_b + n;
    d_h = d_a;
    if (in.has_abc) {
      in.copies.end().wait_in(main);
      for (size_t v = 0; Fr* d : {d_a, d_b, d_c})
        check_values<Fr>(d, in.host.rows(), checks + kAbcSlot + v++, worker.device(), main);
    } else {
      compute_abc<E>(resident, key.device(), d_w, n, d_a, d_b, d_c, main);
    }
    st->abc_ready.record(main);
    quotient(resident.domain, qap, d_a, d_b, d_c, main);
    st->ntt_done.record(main);
  }
  // h is random: all of it through the buckets, with no classification to
  // wait for; as many terms as the key's H has points (reduction.hpp).
  const auto h = msm::gpu::Classified<Fr>::all(d_h, n);
  const size_t h_terms = qap.h_terms(n);
  st->h.emplace(enqueue_msm<G1>(resident.h, h, 0, h_terms, worker, staging));
  CUZK_CUDA_CHECK(cudaMemcpyAsync(worker.first_bad_read(), checks,
                                  Worker::kCheckSlots * sizeof(unsigned long long), cudaMemcpyDeviceToHost, main));
  st->work.finish();
  st->inputs.emplace(std::move(inputs));
  return PendingGpuProof<E>(std::move(st));
}

#define CUZK_GROTH16_CUDA_INSTANTIATE(E)                                                                        \
  template class DeviceInputs<E>;                                                                               \
  template class PendingGpuProof<E>;                                                                            \
  template DeviceInputs<E> upload_inputs(const DeviceKey<E>&, Worker&, const HostInputs<E::Fr>&,              \
                                         std::optional<AbcSchedule>);                                            \
  template PendingGpuProof<E> prove_start(const DeviceKey<E>&, Worker&, DeviceInputs<E>);
CUZK_GROTH16_CUDA_INSTANTIATE(ec::Bn254)
CUZK_GROTH16_CUDA_INSTANTIATE(ec::Bls12_381)

}  // namespace cuzk::groth16::gpu