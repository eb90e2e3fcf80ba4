// A proving key on the GPU (prover_cuda.hpp's DeviceKey): its bases resident
// or streamed through staging blocks, its rows, and the device-memory plan
// (plan_residency, proof_device_bytes, choose_schedule) made from what the
// GPU has free.
#include <chrono>
#include <future>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cuzk/ec/bls12_381.hpp"
#include "cuzk/ec/bn254.hpp"
#include "cuzk/cuda/map.cuh"
#include "cuzk/ec/point_check_cuda.hpp"
#include "cuzk/groth16/detail/abc_row.hpp"
#include "cuzk/groth16/prover_cuda.hpp"
#include "cuzk/msm/pippenger_cuda.hpp"
#include "cuzk/poly/ntt_cuda.hpp"
#include "device_key_cuda.cuh"

namespace cuzk::groth16::gpu {

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
void upload_all(DeviceBuffer<T>& d, std::span<const T> h, cuda::StagedUpload& up) {
  d = DeviceBuffer<T>(h.size());
  up.copy(d.data(), h.data(), h.size_bytes());
}

// Resident: uploaded. Streamed: in page-locked memory, so that its chunks go
// by DMA at PCIe speed.
template <class C>
void set_up_bases(Bases<C>& b, std::span<const ec::Affine<C>> host, bool streamed, bool in_file_mapping,
                  cuda::StagedUpload& up) {
  b.host = host;
  if (!streamed) {
    upload_all(b.uploaded, host, up);
    b.device = b.uploaded.data();
  } else if (!in_file_mapping) {
    b.locked = HostRegistration(host.data(), host.size_bytes());
  } else {
    b.copy = cuda::PinnedBuffer<ec::Affine<C>>(host.size());
    std::copy(host.begin(), host.end(), b.copy.data());
    b.host = b.copy.span();
  }
}

// The GPU's check of the points of a key read with their checks deferred
// (PreparedKey::points_unchecked), enqueued behind their copies: the
// section's first bad point, if any, in a word of its own.
template <class E>
class UploadedPointsCheck {
 public:
  UploadedPointsCheck(const typename DeviceKey<E>::Resident& r, const ProvingKey<E>& k, cudaStream_t stream)
      : first_bad_(kSections) {
    CUZK_CUDA_CHECK(cudaMemsetAsync(first_bad_.data(), 0xff, kSections * sizeof(unsigned long long), stream));
    ec::gpu::find_first_bad_point(r.a.device, k.a.size(), &first_bad_.data()[0], stream);
    ec::gpu::find_first_bad_point(r.b1.device, k.b1.size(), &first_bad_.data()[1], stream);
    ec::gpu::find_first_bad_point(r.b2.device, k.b2.size(), &first_bad_.data()[2], stream);
    ec::gpu::find_first_bad_point(r.c.device, k.c.size(), &first_bad_.data()[3], stream);
    ec::gpu::find_first_bad_point(r.h.device, k.h.size(), &first_bad_.data()[4], stream);
  }

  // Once the stream has run the checks: the key's points are good, or the
  // host's check names the first bad one (the error the key's reader would
  // have thrown). Where the host finds none, this GPU's copy is not the
  // file's: a cuda::Error, on which DeviceKeyCache::acquire streams the key
  // instead, from the points the host has now checked.
  void conclude(const PreparedKey<E>& prepared, int device) const {
    unsigned long long first_bad[kSections];
    first_bad_.download(first_bad);
    static constexpr const char* kNames[kSections] = {"A", "B1", "B2", "C", "H"};
    for (size_t s = 0; s < kSections; ++s)
      if (first_bad[s] != ~0ull) {
        prepared.require_checked_points();
        throw cuda::Error("GPU " + std::to_string(device) + " found " + kNames[s] + " point " +
                          std::to_string(first_bad[s]) +
                          " of its copy of the key bad, where the host finds every point good");
      }
    prepared.points_checked_on_gpu();
  }

 private:
  static constexpr size_t kSections = 5;
  DeviceBuffer<unsigned long long> first_bad_;
};

template <class E>
size_t point_bytes(const ProvingKey<E>& k) {
  return (k.a.size() + k.b1.size() + k.c.size() + k.h.size()) * sizeof(k.a[0]) + k.b2.size() * sizeof(k.b2[0]);
}

}  // namespace

template <class E>
size_t DeviceKey<E>::bytes_needed(const PreparedKey<E>& prepared, const DeviceKeyOptions& options) {
  const ProvingKey<E>& k = prepared.key();
  size_t need = poly::gpu::DeviceDomain<typename E::Fr>::device_bytes(k.domain_size()) +
                witness_layout(k).gathered * sizeof(uint32_t);
  if (!options.streamed && !k.on_gpu) need += point_bytes(k);
  if (uploads_rows(k, options)) need += prepared.rows_bytes();
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
    throw cuda::Error("the proving key was made on GPU " + std::to_string(k.on_gpu->device) +
                              " and lives there only: it cannot be " +
                              (options_.streamed ? "streamed" : "used on GPU " + std::to_string(device)));
  // A key whose points failed their check already (a prefetch's upload)
  // fails again here, before it takes the device's memory and time.
  if (prepared.points_failed()) prepared.require_checked_points();
  const size_t need = bytes_needed(prepared, options_), free = cuda::free_device_memory();
  if (need > free)
    throw cuda::Error("the proving key needs " + std::to_string(need >> 20) + " MiB on GPU " +
                              std::to_string(device) + ", which has " + std::to_string(free >> 20) + " MiB free");
  using Clock = std::chrono::steady_clock;
  auto lap = Clock::now();
  const auto seconds = [&lap] {
    const auto now = Clock::now();
    return std::chrono::duration<double>(now - std::exchange(lap, now)).count();
  };
  // The rows, where they go up, are sorted on the host while the tables and
  // the points do (the first key's upload in a process, a one-shot proof's).
  std::future<void> sorting;
  if (options_.matrices) sorting = sort_rows_ahead(prepared_);
  resident_ = std::make_unique<Resident>(prepared);
  Resident& resident = *resident_;
  cuda::StagedUpload up;
  upload_times_.prepare = seconds();
  if (k.on_gpu) {
    const DevicePoints<E>& p = *k.on_gpu->points;
    resident.a.device = p.a.data(), resident.b1.device = p.b1.data(), resident.b2.device = p.b2.data();
    resident.c.device = p.c.data(), resident.h.device = p.h.data();
  } else {
    const bool streamed = options_.streamed, mapped = k.points_in_file_mapping;
    // Streamed points are read from the host, a chunk at a time, into every
    // proof: checked there first, where the key's reader left them unchecked.
    if (streamed) prepared.require_checked_points();
    set_up_bases(resident.a, k.a, streamed, mapped, up);
    set_up_bases(resident.b1, k.b1, streamed, mapped, up);
    set_up_bases(resident.b2, k.b2, streamed, mapped, up);
    set_up_bases(resident.c, k.c, streamed, mapped, up);
    set_up_bases(resident.h, k.h, streamed, mapped, up);
  }
  // Uploaded points left unchecked are checked on the GPU, on the copies'
  // stream behind them (the rows' copies queue behind the checks), in a
  // fraction of a millisecond; on the host they were about 60 % of a key's
  // read (docs/PERFORMANCE.md).
  std::optional<UploadedPointsCheck<E>> check;
  if (!k.on_gpu && !options_.streamed && prepared.points_unchecked()) check.emplace(resident, k, up.stream());
  upload_times_.points = seconds();
  upload_times_.points_ring_wait = up.ring_waited();
  if (sorting.valid()) sorting.get();
  upload_times_.sort_wait = seconds();
  if (options_.matrices)
    for (int m = 0; m < 2; ++m) {
      const auto rows = prepared.rows(m);
      upload_all(resident.rows[m].start, rows.start, up);
      upload_all(resident.rows[m].entries, rows.entries, up);
    }
  upload_all(resident.dense_vars, std::span<const uint32_t>(dense_variables(k)), up);
  upload_times_.rows = seconds();
  up.finish();
  CUZK_CUDA_CHECK(cudaDeviceSynchronize());
  if (check) check->conclude(prepared, device);
  upload_times_.wait = seconds();
}

template <class E>
DeviceKey<E>::~DeviceKey() {
  try {
    DeviceScope on(device_);
    resident_.reset();
  } catch (const cuda::Error&) {
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
                 poly::gpu::DeviceDomain<typename E::Fr>::device_bytes(resident.domain.size()) +
                 resident.dense_vars.size() * sizeof(uint32_t);
  for (const auto& m : resident.rows)
    total += m.start.size() * sizeof(uint32_t) + m.entries.size() * sizeof(typename PreparedKey<E>::Entry);
  return total;
}
template <class E>
size_t proof_device_bytes(const PreparedKey<E>& prepared, const DeviceKeyOptions& options, AbcSchedule schedule) {
  using Fr = typename E::Fr;
  const ProvingKey<E>& k = prepared.key();
  const size_t n = k.domain_size(), vector = n * sizeof(Fr);
  // w (with bellman's gathered scalars) and the significant and ones lists.
  const size_t witness = witness_layout(k).size() * (sizeof(Fr) + 2 * sizeof(uint32_t));
  const size_t staging = staging_bytes(k, options);
  const size_t msm = std::max(msm::gpu::Msm<typename E::G1>::scratch_bytes(std::min(n, size_t(1) << 21)),
                              msm::gpu::Msm<typename E::G2>::scratch_bytes(std::min(n, size_t(1) << 20)));
  // The arena rounds each of the proof's blocks (about 16, the values'
  // checks among them) up to its granule.
  const size_t rounding = 17 * cuda::DeviceAllocator::granule;
  if (schedule == AbcSchedule::together) return rounding + staging + witness + 3 * vector + msm;
  // w and the witness MSMs; then the two vectors of the quotient; then H's
  // MSM over the first.
  return rounding + staging + std::max({witness + msm, 2 * vector, vector + msm});
}

template <class E>
std::optional<DeviceKeyOptions> try_plan_residency(const PreparedKey<E>& prepared, DeviceKeyOptions options,
                                                   size_t free) {
  const auto fits = [&](const DeviceKeyOptions& o) {
    return DeviceKey<E>::bytes_needed(prepared, o) + proof_device_bytes(prepared, o, AbcSchedule::in_turn) <= free;
  };
  if (!options.streamed && fits(options)) return options;
  options.streamed = true;
  while (!fits(options) && options.stream_chunk > kSmallestStreamChunk) options.stream_chunk /= 2;
  if (!fits(options)) return std::nullopt;
  // Fewer, larger chunks where memory allows: each chunk is an MSM of its
  // own (its sort, bucket sums and window reduction, and its launches from
  // the host), and a 2^27 key's 160 chunks of 2^22 points made a streamed
  // proof 1.8 times the resident one's GPU time (docs/PERFORMANCE.md).
  const ProvingKey<E>& k = prepared.key();
  for (DeviceKeyOptions larger = options;
       larger.stream_chunk < kLargestStreamChunk && larger.stream_chunk < std::max(k.n_vars(), k.domain_size());) {
    larger.stream_chunk *= 2;
    if (staging_bytes(k, larger) > free / kStagingShareOfFree || !fits(larger)) break;
    options = larger;
  }
  return options;
}

template <class E>
DeviceKeyOptions plan_residency(const PreparedKey<E>& prepared, DeviceKeyOptions options, size_t free) {
  if (const auto planned = try_plan_residency(prepared, options, free)) return *planned;
  options.streamed = true;
  options.stream_chunk = std::min(options.stream_chunk, kSmallestStreamChunk);  // as small as the plan went
  const size_t key = DeviceKey<E>::bytes_needed(prepared, options);
  const size_t proof = proof_device_bytes(prepared, options, AbcSchedule::in_turn);
  throw cuda::Error("too little device memory for this key: even streamed it needs " + std::to_string(key >> 20) +
                    " MiB and a proof " + std::to_string(proof >> 20) + " MiB beside it, and the GPU has " +
                    std::to_string(free >> 20) + " MiB free" + (cuda::memory_limit() ? " under --gpu-memory" : "") +
                    ": " + std::to_string((key + proof - free) >> 20) + " MiB short");
}

template <class E>
AbcSchedule choose_schedule(const DeviceKey<E>& key, bool has_abc, size_t room) {
  if (!has_abc || proof_device_bytes(key, AbcSchedule::together) <= room) return AbcSchedule::together;
  return AbcSchedule::in_turn;
}

#define CUZK_DEVICE_KEY_INSTANTIATE(E)                                                       \
  template class DeviceKey<E>;                                                               \
  template size_t proof_device_bytes(const PreparedKey<E>&, const DeviceKeyOptions&, AbcSchedule); \
  template AbcSchedule choose_schedule(const DeviceKey<E>&, bool, size_t);                   \
  template std::optional<DeviceKeyOptions> try_plan_residency(const PreparedKey<E>&, DeviceKeyOptions, size_t); \
  template DeviceKeyOptions plan_residency(const PreparedKey<E>&, DeviceKeyOptions, size_t);
CUZK_DEVICE_KEY_INSTANTIATE(ec::Bn254)
CUZK_DEVICE_KEY_INSTANTIATE(ec::Bls12_381)

}  // namespace cuzk::groth16::gpu
