// The Groth16 prover on the GPU (prover_cuda.hpp). One proof's timeline on a
// Worker:
//   copy stream   w ──► a, b, c                     (key chunks, when streamed)
//   stream            └► (bellman: A's and B's dense scalars gathered) w
//                        classified, MSM A, B1, B2 (G2), C ──► (a, b, c ready,
//                        or computed from the rows) NTTs, h ──► MSM H
// The uploads of a, b and c hide behind the four witness MSMs. The host waits
// once, for the classification of the witness scalars, which all four share.
#include <optional>
#include <string>
#include <vector>

#include "cuzk/ec/bls12_381.hpp"
#include "cuzk/ec/bn254.hpp"
#include "cuzk/cuda/map.cuh"
#include "cuzk/groth16/detail/abc_row.hpp"
#include "cuzk/groth16/prover_cuda.hpp"
#include "cuzk/msm/pippenger_cuda.hpp"
#include "cuzk/poly/ntt_cuda.hpp"

namespace cuzk::groth16::cuda {

using ::cuzk::cuda::Arena;
using ::cuzk::cuda::DeviceBuffer;
using ::cuzk::cuda::DeviceScope;
using ::cuzk::cuda::Event;
using ::cuzk::cuda::HostRegistration;

// One group's bases: on the device (uploaded, or made there by a GPU setup),
// or (streamed) in page-locked host memory: the key's own, locked in place, or
// a pinned copy of points that view a file mapping (keys.hpp says why those
// are not locked in place).
template <class C>
struct Bases {
  const ec::Affine<C>* device = nullptr;
  DeviceBuffer<ec::Affine<C>> uploaded;
  std::span<const ec::Affine<C>> host;
  HostRegistration locked;
  ::cuzk::cuda::PinnedBuffer<ec::Affine<C>> copy;
};

// One of the A and B matrices' compressed rows on the device.
template <class E>
struct DeviceRows {
  DeviceBuffer<uint32_t> start;
  DeviceBuffer<typename PreparedKey<E>::Entry> entries;
};

// Where the witness MSMs (A, B1, B2 and C) find their scalars: in one device
// vector, classified once for all four. Under snarkjs's convention that is w
// itself, which A and B take whole and C past the publics. Under bellman's,
// A and B have points for their dense variables only (keys.hpp), whose values
// a kernel gathers from w into the front of the vector: [A's | B's | w].
struct WitnessLayout {
  struct Range {
    size_t begin, end;
  };
  size_t gathered;  // values in front of w
  size_t n_vars;
  Range a, b, c;  // the scalars of A, of B1 and B2, of C
  size_t size() const { return gathered + n_vars; }
};

template <class E>
WitnessLayout witness_layout(const ProvingKey<E>& k) {
  const size_t n_vars = k.n_vars(), c_begin = k.n_public() + 1;
  if (!reduction(k.convention).dense_ab) return {0, n_vars, {0, n_vars}, {0, n_vars}, {c_begin, n_vars}};
  const size_t in_a = k.a_density.count(), gathered = in_a + k.b_density.count();
  return {gathered, n_vars, {0, in_a}, {in_a, gathered}, {gathered + c_begin, gathered + n_vars}};
}

template <class E>
struct DeviceKey<E>::Resident {
  using G1 = typename E::G1;
  using G2 = typename E::G2;
  Bases<G1> a, b1, c, h;
  Bases<G2> b2;
  poly::cuda::DeviceDomain<typename E::Fr> domain;
  DeviceRows<E> rows[2];
  WitnessLayout witness;
  DeviceBuffer<uint32_t> dense_vars;  // bellman: the variables (indices in w) of A's points, then of B's

  explicit Resident(const PreparedKey<E>& p) : domain(p.domain()), witness(witness_layout(p.key())) {}
};

namespace {

// The rows go up when asked for and the key has coefficients: a key read
// from a bellperson parameter file alone has none, and proves from a, b, c
// that the host computes (its circuit's synthesis).
template <class E>
bool uploads_rows(const ProvingKey<E>& k, const DeviceKeyOptions& options) {
  return options.matrices && !k.coefs.empty();
}

// What Resident::dense_vars holds: empty for a key whose A and B cover every signal.
template <class E>
std::vector<uint32_t> dense_variables(const ProvingKey<E>& k) {
  std::vector<uint32_t> vars;
  if (reduction(k.convention).dense_ab)
    for (const Density* d : {&k.a_density, &k.b_density}) d->for_each([&](size_t i) { vars.push_back((uint32_t)i); });
  return vars;
}

template <class T>
void upload_all(DeviceBuffer<T>& d, std::span<const T> h, ::cuzk::cuda::StagedUpload& up) {
  d = DeviceBuffer<T>(h.size());
  up.copy(d.data(), h.data(), h.size_bytes());
}

// Resident: uploaded. Streamed: in page-locked memory, so that its chunks go
// by DMA at PCIe speed.
template <class C>
void set_up_bases(Bases<C>& b, std::span<const ec::Affine<C>> host, bool streamed, bool in_file_mapping,
                  ::cuzk::cuda::StagedUpload& up) {
  b.host = host;
  if (!streamed) {
    upload_all(b.uploaded, host, up);
    b.device = b.uploaded.data();
  } else if (!in_file_mapping) {
    b.locked = HostRegistration(host.data(), host.size_bytes());
  } else {
    b.copy = ::cuzk::cuda::PinnedBuffer<ec::Affine<C>>(host.size());
    std::copy(host.begin(), host.end(), b.copy.data());
    b.host = b.copy.span();
  }
}

template <class E>
size_t point_bytes(const ProvingKey<E>& k) {
  return (k.a.size() + k.b1.size() + k.c.size() + k.h.size()) * sizeof(k.a[0]) + k.b2.size() * sizeof(k.b2[0]);
}

}  // namespace

template <class E>
size_t DeviceKey<E>::bytes_needed(const PreparedKey<E>& prepared, const DeviceKeyOptions& options) {
  const ProvingKey<E>& k = prepared.key();
  size_t need = poly::cuda::DeviceDomain<typename E::Fr>::device_bytes(k.domain_size()) +
                witness_layout(k).gathered * sizeof(uint32_t);
  if (!options.streamed && !k.on_gpu) need += point_bytes(k);
  if (uploads_rows(k, options))
    for (int m = 0; m < 2; ++m) {
      const auto r = prepared.rows(m);
      need += r.start.size_bytes() + r.entries.size_bytes();
    }
  return need;
}

template <class E>
DeviceKey<E>::DeviceKey(SharedKey<E> handle, int device, DeviceKeyOptions options)
    : prepared_(std::move(handle)), device_(device), options_(options) {
  if (!prepared_) throw std::invalid_argument("DeviceKey: no prepared key");
  if (options_.streamed && options_.stream_chunk == 0) throw std::invalid_argument("stream_chunk must be at least 1");
  DeviceScope on(device);
  const PreparedKey<E>& prepared = *prepared_;
  const ProvingKey<E>& k = prepared.key();
  options_.matrices = uploads_rows(k, options_);
  if (k.on_gpu && (k.on_gpu->device != device || options_.streamed))
    throw ::cuzk::cuda::Error("the proving key was made on GPU " + std::to_string(k.on_gpu->device) +
                              " and lives there only: it cannot be " +
                              (options_.streamed ? "streamed" : "used on GPU " + std::to_string(device)));
  const size_t need = bytes_needed(prepared, options_), free = ::cuzk::cuda::free_device_memory();
  if (need > free)
    throw ::cuzk::cuda::Error("the proving key needs " + std::to_string(need >> 20) + " MiB on GPU " +
                              std::to_string(device) + ", which has " + std::to_string(free >> 20) + " MiB free");
  resident_ = std::make_unique<Resident>(prepared);
  Resident& resident = *resident_;
  ::cuzk::cuda::StagedUpload up;
  if (k.on_gpu) {
    const DevicePoints<E>& p = *k.on_gpu->points;
    resident.a.device = p.a.data(), resident.b1.device = p.b1.data(), resident.b2.device = p.b2.data();
    resident.c.device = p.c.data(), resident.h.device = p.h.data();
  } else {
    const bool streamed = options_.streamed, mapped = k.points_in_file_mapping;
    set_up_bases(resident.a, k.a, streamed, mapped, up);
    set_up_bases(resident.b1, k.b1, streamed, mapped, up);
    set_up_bases(resident.b2, k.b2, streamed, mapped, up);
    set_up_bases(resident.c, k.c, streamed, mapped, up);
    set_up_bases(resident.h, k.h, streamed, mapped, up);
  }
  if (options_.matrices)
    for (int m = 0; m < 2; ++m) {
      const auto rows = prepared.rows(m);
      upload_all(resident.rows[m].start, rows.start, up);
      upload_all(resident.rows[m].entries, rows.entries, up);
    }
  upload_all(resident.dense_vars, std::span<const uint32_t>(dense_variables(k)), up);
  up.finish();
  CUZK_CUDA_CHECK(cudaDeviceSynchronize());
}

template <class E>
DeviceKey<E>::~DeviceKey() {
  try {
    DeviceScope on(device_);
    resident_.reset();
  } catch (const ::cuzk::cuda::Error&) {
    resident_.reset();  // on whichever device is current: the best left to do
  }
}

template <class E>
size_t DeviceKey<E>::bytes() const {
  const Resident& resident = *resident_;
  const size_t g1_points = resident.a.uploaded.size() + resident.b1.uploaded.size() + resident.c.uploaded.size() +
                           resident.h.uploaded.size();
  size_t total = g1_points * sizeof(ec::Affine<typename E::G1>) +
                 resident.b2.uploaded.size() * sizeof(ec::Affine<typename E::G2>) +
                 poly::cuda::DeviceDomain<typename E::Fr>::device_bytes(resident.domain.size()) +
                 resident.dense_vars.size() * sizeof(uint32_t);
  for (const auto& m : resident.rows)
    total += m.start.size() * sizeof(uint32_t) + m.entries.size() * sizeof(typename PreparedKey<E>::Entry);
  return total;
}

namespace {

// G2 points a streamed key's staging block holds (each block takes a chunk
// of the widest points, G2's; a G1 chunk is as many bytes, twice the points).
template <class E>
size_t staging_points(const ProvingKey<E>& k, const DeviceKeyOptions& options) {
  return std::min(options.stream_chunk, std::max(k.n_vars(), k.domain_size()));
}

template <class E>
size_t staging_bytes(const ProvingKey<E>& k, const DeviceKeyOptions& options) {
  return options.streamed ? 2 * staging_points(k, options) * sizeof(ec::Affine<typename E::G2>) : 0;
}

}  // namespace

template <class E>
size_t proof_device_bytes(const PreparedKey<E>& prepared, const DeviceKeyOptions& options, AbcSchedule schedule) {
  using Fr = typename E::Fr;
  const ProvingKey<E>& k = prepared.key();
  const size_t n = k.domain_size(), vector = n * sizeof(Fr);
  // w (with bellman's gathered scalars) and the significant and ones lists.
  const size_t witness = witness_layout(k).size() * (sizeof(Fr) + 2 * sizeof(uint32_t));
  const size_t staging = staging_bytes(k, options);
  const size_t msm = std::max(msm::cuda::Msm<typename E::G1>::scratch_bytes(std::min(n, size_t(1) << 21)),
                              msm::cuda::Msm<typename E::G2>::scratch_bytes(std::min(n, size_t(1) << 20)));
  // The arena rounds each of the proof's blocks (about 16) up to its granule.
  const size_t rounding = 16 * ::cuzk::cuda::DeviceAllocator::granule;
  if (schedule == AbcSchedule::together) return rounding + staging + witness + 3 * vector + msm;
  // w and the witness MSMs; then the two vectors of the quotient; then H's
  // MSM over the first.
  return rounding + staging + std::max({witness + msm, 2 * vector, vector + msm});
}

template <class E>
DeviceKeyOptions plan_residency(const PreparedKey<E>& prepared, DeviceKeyOptions options, size_t free) {
  const auto fits = [&](const DeviceKeyOptions& o) {
    return DeviceKey<E>::bytes_needed(prepared, o) + proof_device_bytes(prepared, o, AbcSchedule::in_turn) <= free;
  };
  if (!options.streamed && fits(options)) return options;
  options.streamed = true;
  while (!fits(options) && options.stream_chunk > kSmallestStreamChunk) options.stream_chunk /= 2;
  if (fits(options)) {
    // Fewer, larger chunks where memory allows: each chunk is an MSM of its
    // own (its sort, bucket sums and window reduction, and its launches from
    // the host), and a 2^27 key's 160 chunks of 2^22 points made a streamed
    // proof 1.8 times the resident one's GPU time (docs/PERFORMANCE.md).
    const ProvingKey<E>& k = prepared.key();
    for (DeviceKeyOptions larger = options; larger.stream_chunk < kLargestStreamChunk &&
                                            larger.stream_chunk < std::max(k.n_vars(), k.domain_size());) {
      larger.stream_chunk *= 2;
      if (staging_bytes(k, larger) > free / kStagingShareOfFree || !fits(larger)) break;
      options = larger;
    }
    return options;
  }
  const size_t key = DeviceKey<E>::bytes_needed(prepared, options);
  const size_t proof = proof_device_bytes(prepared, options, AbcSchedule::in_turn);
  throw ::cuzk::cuda::Error("too little device memory for this key: even streamed it needs " +
                            std::to_string(key >> 20) + " MiB and a proof " + std::to_string(proof >> 20) +
                            " MiB beside it, and the GPU has " + std::to_string(free >> 20) + " MiB free" +
                            (::cuzk::cuda::memory_limit() ? " under --gpu-memory" : "") + ": " +
                            std::to_string((key + proof - free) >> 20) + " MiB short");
}

template <class E>
AbcSchedule choose_schedule(const DeviceKey<E>& key, bool has_abc, size_t room) {
  if (!has_abc || proof_device_bytes(key, AbcSchedule::together) <= room) return AbcSchedule::together;
  return AbcSchedule::in_turn;
}

template <class E>
struct DeviceInputs<E>::State {
  const DeviceKey<E>* key = nullptr;
  const Worker* worker = nullptr;
  // scalars: the witness MSMs' (WitnessLayout), w uploaded at `gathered`;
  // abc: a, b, c of domain_size each.
  Arena::Block scalars, abc;
  std::vector<typename E::Fr> publics;  // w[1 .. n_public], read while w is at hand
  size_t bytes = 0;
  bool has_abc = false;
  AbcSchedule schedule = AbcSchedule::together;
  std::span<const typename E::Fr> host_abc[3];  // in_turn: what prove_start uploads
  // Copy stream: start, w done; the copies' end is that of `copies`.
  Event start, w_ready{cudaEventDisableTiming};
  // Last: the copies read the caller's host buffers and write blocks that go
  // back to the arena, neither of which may be let go of while they run.
  ::cuzk::cuda::InFlight copies;

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

}  // namespace

template <class E>
DeviceInputs<E> upload_inputs(const DeviceKey<E>& key, Worker& worker, std::span<const typename E::Fr> w,
                              std::span<const typename E::Fr> a, std::span<const typename E::Fr> b,
                              std::span<const typename E::Fr> c, std::optional<AbcSchedule> schedule) {
  using Fr = typename E::Fr;
  const ProvingKey<E>& pk = key.prepared().key();
  const size_t n = pk.domain_size();
  check_length("the witness", w.size(), pk.n_vars());
  const bool has_abc = !(a.empty() && b.empty() && c.empty());
  if (has_abc)
    for (auto* v : {&a, &b, &c}) check_length("an a/b/c buffer", v->size(), n);
  else if (!key.has_matrices())
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
  st->schedule = has_abc ? schedule.value_or(choose_schedule(
                               key, has_abc, ::cuzk::cuda::free_device_memory() + worker.arena().free_bytes()))
                         : AbcSchedule::together;
  st->publics.assign(w.begin() + 1, w.begin() + 1 + pk.n_public());
  const WitnessLayout& layout = key.resident().witness;
  st->scalars = worker.arena().take(layout.size() * sizeof(Fr));
  if (st->schedule == AbcSchedule::together) st->abc = worker.arena().take(3 * n * sizeof(Fr));
  // The blocks may have served the previous proof on this worker, whose
  // kernels on the main stream may still read them: copy after those.
  Event main_so_far(cudaEventDisableTiming);
  main_so_far.record(worker.stream());
  main_so_far.wait_in(copy);
  st->start.record(copy);
  upload_async(st->scalars.template as<Fr>() + layout.gathered, w, copy);
  st->w_ready.record(copy);
  st->bytes = w.size_bytes();
  if (st->schedule == AbcSchedule::in_turn) {
    st->host_abc[0] = a, st->host_abc[1] = b, st->host_abc[2] = c;
  } else if (has_abc) {
    Fr* d = st->abc.template as<Fr>();
    for (const auto& v : {a, b, c}) upload_async(d, v, copy), d += n;
    st->bytes += 3 * n * sizeof(Fr);
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
  int sms = 0;
  CUZK_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, ::cuzk::cuda::physical_device(device)));
  const unsigned blocks = (unsigned)std::min<size_t>((n + 255) / 256, (size_t)sms * 8);
  abc_kernel<<<blocks, 256, 0, stream>>>(resident.rows[0].start.data(), resident.rows[0].entries.data(),
                                           resident.rows[1].start.data(), resident.rows[1].entries.data(), w, n, a, b,
                                           c);
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
void quotient_finish(const poly::cuda::DeviceDomain<Fr>& domain, QapReduction qap, Fr* h, cudaStream_t stream) {
  if (qap.h_as_coefficients) poly::cuda::coset_intt(domain, h, stream);
}

// The together schedule: h in a, from a, b, c in three vectors.
template <class Fr>
void quotient(const poly::cuda::DeviceDomain<Fr>& domain, QapReduction qap, Fr* a, Fr* b, Fr* c,
              cudaStream_t stream) {
  for (Fr* v : {a, b, c}) poly::cuda::coset_evaluations(domain, v, stream);
  poly::cuda::quotient_pointwise(a, b, c, domain.size(), stream, qap.quotient_factor(domain.host()));
  quotient_finish(domain, qap, a, stream);
}

// The in_turn schedule (AbcSchedule): h in x, from the host's a, b, c copied
// on the worker's copy stream into two vectors x and y: a and b, their
// product into x, then c into y. Each copy into a vector waits for the
// kernels queued before it on the main stream (the witness MSMs still read
// w's block, which x may be), and the kernels wait for the copy. `ab_ready`
// is recorded on the main stream once a and b are there.
template <class Fr>
void quotient_in_turn(const poly::cuda::DeviceDomain<Fr>& domain, QapReduction qap,
                      const std::span<const Fr> (&host)[3], Fr* x, Fr* y, Worker& worker, Event& ab_ready) {
  const cudaStream_t main = worker.stream(), copy = worker.copy_stream();
  const size_t n = domain.size();
  Event main_so_far(cudaEventDisableTiming), arrived(cudaEventDisableTiming);
  const auto upload_after_main = [&](std::initializer_list<std::pair<Fr*, std::span<const Fr>>> copies) {
    main_so_far.record(main);
    main_so_far.wait_in(copy);
    for (const auto& [to, from] : copies) upload_async(to, from, copy);
    arrived.record(copy);
    arrived.wait_in(main);
  };
  upload_after_main({{x, host[0]}, {y, host[1]}});
  ab_ready.record(main);
  poly::cuda::coset_evaluations(domain, x, main);
  poly::cuda::coset_evaluations(domain, y, main);
  poly::cuda::pointwise_product(x, static_cast<const Fr*>(y), n, main);
  upload_after_main({{y, host[2]}});
  poly::cuda::coset_evaluations(domain, y, main);
  poly::cuda::pointwise_difference(x, static_cast<const Fr*>(y), n, main, qap.quotient_factor(domain.host()));
  quotient_finish(domain, qap, x, main);
}

// One MSM of the proof, over scalars [begin, end) of k: a single device MSM
// over resident bases, or for a streamed key one per chunk of bases (starting
// at begin, begin + chunk, ...: bounds of k), each chunk copied into one of
// two staging blocks while the MSM of the other runs. The sum of the parts.
template <class C>
struct MsmParts {
  std::vector<msm::cuda::Msm<C>> parts;
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
MsmParts<C> enqueue_msm(const Bases<C>& bases, const msm::cuda::Classified<typename C::Fr>& k, size_t begin,
                        size_t end, Worker& worker, Staging* staging) {
  using Msm = msm::cuda::Msm<C>;
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
  // Main stream, in order: GpuTimes' stages lie between them; `work` ends
  // with H.
  Event start, a_done, b1_done, b2_done, c_done, abc_ready, ntt_done;
  // Last: kernels read the inputs' and the staging blocks, which go back to
  // the arena with this state (the MSMs wait for their own results).
  ::cuzk::cuda::InFlight work;

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
PendingProof<E> PendingGpuProof<E>::wait(GpuTimes* times) {
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
  p.publics = std::move(s.publics);
  if (times) {
    const auto sec = [](const Event& to, const Event& from) { return 1e-3 * to.ms_since(from); };
    const Event& h_done = s.work.end();
    times->upload = upload;
    times->msm_a = sec(s.a_done, s.start);  // with the witness's classification
    times->msm_b1 = sec(s.b1_done, s.a_done);
    times->msm_b2 = sec(s.b2_done, s.b1_done);
    times->msm_c = sec(s.c_done, s.b2_done);
    times->abc = sec(s.abc_ready, s.c_done);
    times->ntt = sec(s.ntt_done, s.abc_ready);
    times->msm_h = sec(h_done, s.ntt_done);
    times->total = sec(h_done, s.start);
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
  const Fr* d_w = d_scalars + layout.gathered;
  st->publics = std::move(in.publics);
  st->start.record(main);
  in.w_ready.wait_in(main);
  ::cuzk::cuda::launch_map(main, d_scalars, layout.gathered, ValueOf<Fr>{d_w}, resident.dense_vars.data());

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
    const msm::cuda::Classified<Fr> k(d_scalars, layout.size(), bounds, main, worker.arena());
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
    quotient_in_turn<Fr>(resident.domain, qap, in.host_abc, d_h, st->quotient[1].template as<Fr>(), worker,
                         st->abc_ready);
    st->ntt_done.record(main);
    st->quotient[1] = {};  // free for H's MSM chunks, after the quotient on this stream
  } else {
    Fr* d_a = in.abc.template as<Fr>();
    Fr* d_b = d_a + n;
    Fr* d_c = d_b + n;
    d_h = d_a;
    if (in.has_abc)
      in.copies.end().wait_in(main);
    else
      compute_abc<E>(resident, key.device(), d_w, n, d_a, d_b, d_c, main);
    st->abc_ready.record(main);
    quotient(resident.domain, qap, d_a, d_b, d_c, main);
    st->ntt_done.record(main);
  }
  // h is random: all of it through the buckets, with no classification to
  // wait for; as many terms as the key's H has points (reduction.hpp).
  const auto h = msm::cuda::Classified<Fr>::all(d_h, n);
  const size_t h_terms = qap.h_terms(n);
  st->h.emplace(enqueue_msm<G1>(resident.h, h, 0, h_terms, worker, staging));
  st->work.finish();
  st->inputs.emplace(std::move(inputs));
  return PendingGpuProof<E>(std::move(st));
}

#define CUZK_GROTH16_CUDA_INSTANTIATE(E)                                                                        \
  template class DeviceKey<E>;                                                                                  \
  template class DeviceInputs<E>;                                                                               \
  template class PendingGpuProof<E>;                                                                            \
  template DeviceInputs<E> upload_inputs(const DeviceKey<E>&, Worker&, std::span<const E::Fr>,                  \
                                         std::span<const E::Fr>, std::span<const E::Fr>, std::span<const E::Fr>,  \
                                         std::optional<AbcSchedule>);                                            \
  template size_t proof_device_bytes(const PreparedKey<E>&, const DeviceKeyOptions&, AbcSchedule);                                         \
  template AbcSchedule choose_schedule(const DeviceKey<E>&, bool, size_t);                                      \
  template DeviceKeyOptions plan_residency(const PreparedKey<E>&, DeviceKeyOptions, size_t);                    \
  template PendingGpuProof<E> prove_start(const DeviceKey<E>&, Worker&, DeviceInputs<E>);
CUZK_GROTH16_CUDA_INSTANTIATE(ec::Bn254)
CUZK_GROTH16_CUDA_INSTANTIATE(ec::Bls12_381)

}  // namespace cuzk::groth16::cuda
