// supraseal-c2's C ABI (include/cuzk/supraseal.h) over one process-wide
// proving service: an SRS is a bellperson parameter file read once, and for
// each set of densities its callers pass (one per circuit shape, in practice
// one per file) a key of the service that shares the file's points; a call
// is a job of the service with the caller's a, b, c, assignment, r and s as
// its partitions (service::Evaluations), lent, not copied (Lending). This
// file only converts: C arguments to service calls, outcomes and exceptions
// to the crate's proofs and errors (c_boundary.hpp). cuzk's witness-only
// extension is supraseal_circuit.cpp.
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <list>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <variant>
#include <vector>

#include <sys/stat.h>

#include "cuzk/ec/curves.hpp"
#include "cuzk/engine/buffer_pool.hpp"
#if defined(CUZK_HAVE_CUDA)
#include "cuzk/engine/cuda_backend.hpp"
#endif
#include "cuzk/groth16/density.hpp"
#include "cuzk/io/bellperson.hpp"
#include "cuzk/io/bellperson_key.hpp"
#include "cuzk/service/environment.hpp"
#include "cuzk/service/errors.hpp"
#include "cuzk/service/placement.hpp"
#include "cuzk/util/byte_size.hpp"
#include "cuzk/util/env_flag.hpp"
#include "cuzk/service/service.hpp"
#include "cuzk/supraseal.h"

#include "supraseal_memory.hpp"
#include "supraseal_shared.hpp"

namespace cuzk::capi::supraseal {

static_assert(sizeof(supraseal_fr) == sizeof(Fr) && sizeof(supraseal_g1_affine) == sizeof(ec::Affine<E::G1>) &&
                  sizeof(supraseal_g2_affine) == sizeof(ec::Affine<E::G2>),
              "cuzk's Montgomery limbs and affine points are blst's, byte for byte");
static_assert(sizeof(supraseal_proof) == 384 && sizeof(supraseal_assignment) == 136 && sizeof(supraseal_error) == 16,
              "the crate's #[repr(C)] layouts");

supraseal_error error_of(int code, std::string_view message) noexcept {
  // NULL when out of memory: the code still tells.
  return {code, code ? strndup(message.data(), message.size()) : nullptr};
}

namespace {

int code_of(service::ErrorKind kind) {
  switch (kind) {
    case service::ErrorKind::none: return 0;
    case service::ErrorKind::invalid_argument:
    case service::ErrorKind::unsatisfied: return EINVAL;
    case service::ErrorKind::not_found: return ENOENT;
    case service::ErrorKind::resource_exhausted: return ENOMEM;
    case service::ErrorKind::cancelled:
    case service::ErrorKind::deadline_exceeded:
    case service::ErrorKind::unavailable: return ECANCELED;
    case service::ErrorKind::internal: break;
  }
  return EIO;
}

}  // namespace

// A failure's errno: a system call's own where one failed (a file the
// parameters are read from: supraseal.h promises its errno), else its kind's.
int code_of_thrown(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const std::system_error& x) {
    return x.code().category() == std::generic_category() ? x.code().value() : EIO;
  } catch (...) {
    return code_of(service::classify(e));
  }
}

void require(const void* p, const char* what) {
  if (!p) throw Refusal{EINVAL, std::string("null ") + what};
}

void require_openable(const char* path) {
  if (struct stat st; ::stat(path, &st) != 0) {
    const int error = errno;
    throw Refusal{error, std::string(path) + ": cannot open: " + std::strerror(error)};
  }
}

namespace {

// CUZK_BACKEND (auto, cpu or cuda) picks the backend, auto by default,
// CUZK_GPU_MEMORY (e.g. 16GiB) the device memory the engine may use on each
// GPU, and CUZK_ABC (auto, host or gpu) where the circuits registered for
// witness-only proofs evaluate a, b and c: auto, on the GPU of the cuda
// backend (supraseal-c2's ABI has no options to carry them). A circuit known
// by its bitmaps alone has no rows, so its caller's a, b and c always come
// from the host (engine::abc_on_gpu_for).
service::ServiceOptions options_from_environment() {
  try {
    service::apply_environment_switches();
  } catch (const std::invalid_argument& e) {
    throw Refusal{EINVAL, e.what()};
  }
  service::ServiceOptions o;
  if (const char* name = std::getenv("CUZK_BACKEND")) {
    const auto backend = service::backend_named(name);
    if (!backend) throw Refusal{EINVAL, std::string("CUZK_BACKEND=") + name + ": not auto, cpu or cuda"};
    o.placement.backend = *backend;
  }
  if (const char* size = std::getenv("CUZK_GPU_MEMORY")) {
    try {
      o.placement.gpu_memory = parse_byte_size(size);
    } catch (const std::invalid_argument& e) {
      throw Refusal{EINVAL, std::string("CUZK_GPU_MEMORY: ") + e.what()};
    }
  }
  if (const char* place = std::getenv("CUZK_ABC")) {
    const auto abc = service::abc_place_named(place);
    if (!abc) throw Refusal{EINVAL, std::string("CUZK_ABC=") + place + ": not auto, host or gpu"};
    o.abc = *abc;
  }
  o.record_timing_lines = env_flag("CUZK_TIMING", false);  // CUZK_TIMING=1: every stage on stderr
  return o;
}

}  // namespace

// Made on first use and never destroyed: the crate's callers never tear the
// library down, and engines stopped by a static destructor after the CUDA
// runtime's own teardown would fail at exit. A failed first attempt (a bad
// CUZK_BACKEND) is retried by the next call. CUZK_BACKEND=cuda without a
// usable GPU is supraseal-c2's ENODEV.
service::Service& the_service() {
  static std::mutex mu;
  static service::Service* svc = nullptr;
  std::lock_guard lock(mu);
  if (svc) return *svc;
  const service::ServiceOptions options = options_from_environment();
  try {
    svc = new service::Service(options);
  } catch (const service::Error& e) {
    if (options.placement.backend == service::BackendKind::cuda) throw Refusal{ENODEV, e.what()};
    throw;
  }
  return *svc;
}

Srs::~Srs() {
  for (const Shape& s : shapes) the_service().evict(s.key_id);
}

std::span<const uint64_t> limbs(const supraseal_fr* p, size_t n, const char* what) {
  if (n) require(p, what);
  return {reinterpret_cast<const uint64_t*>(p), n * 4};
}

Srs& srs_of(const supraseal_srs* h) {
  require(h, "SRS handle");
  require(h->ptr, "SRS (the handle holds no parameters)");
  return *static_cast<Srs*>(h->ptr);
}

void Submitted::submit(const std::string& key, std::vector<size_t> job_circuits,
                       std::vector<service::PartitionInput> inputs, const std::string& label) {
  if (refused) return;
  try {
    const service::JobId id = the_service().submit(key, std::move(inputs), {.label = label});
    jobs.push_back({id, std::move(job_circuits)});
  } catch (...) {
    refused = std::current_exception();
  }
}

std::vector<supraseal_proof> collect(Submitted& submitted) {
  service::Service& svc = the_service();
  std::exception_ptr failure = submitted.refused;
  std::vector<supraseal_proof> proofs(submitted.circuits);
  for (const Submitted::JobCircuits& job : submitted.jobs) {
    const service::JobOutcome outcome = *svc.await(job.id);
    for (size_t k = 0; k < outcome.partitions.size(); ++k) {
      const service::PartitionOutcome& p = outcome.partitions[k];
      const size_t circuit = job.circuits[k];
      if (!p.ok()) {
        if (!failure)
          failure = std::make_exception_ptr(
              Refusal{code_of(p.error_kind), "circuit " + std::to_string(circuit) + ": " + p.error});
        continue;
      }
      const groth16::Proof<E>& proof = std::get<service::Proved<E>>(*p.proved).proof;
      std::memcpy(&proofs[circuit].a, &proof.a, sizeof proofs[circuit].a);
      std::memcpy(&proofs[circuit].b, &proof.b, sizeof proofs[circuit].b);
      std::memcpy(&proofs[circuit].c, &proof.c, sizeof proofs[circuit].c);
    }
  }
  submitted.jobs.clear();
  if (failure) std::rethrow_exception(failure);
  return proofs;
}

Pending::~Pending() {
  if (submitted.jobs.empty()) return;
  for (const Submitted::JobCircuits& job : submitted.jobs) the_service().cancel(job.id);
  try {
    (void)collect(submitted);
  } catch (...) {
    // Cancelled partitions fail; nobody asks for their proofs.
  }
}

void check_gpu_index(int gpu_index) {
  const size_t gpus = the_service().placement().gpus.size();
  if (gpu_index < -1 || (gpu_index >= 0 && (size_t)gpu_index >= gpus))
    throw Refusal{EINVAL, "gpu_index " + std::to_string(gpu_index) + ": this service has " + std::to_string(gpus) +
                              " GPU" + (gpus == 1 ? "" : "s") + " (-1 for any)"};
}

namespace {

Srs* acquire(Srs* s) {
  s->references.fetch_add(1, std::memory_order_relaxed);
  return s;
}

void release(Srs* s) {
  if (s && s->references.fetch_sub(1, std::memory_order_acq_rel) == 1) delete s;
}

Srs* load(const char* path) {
  require_openable(path);
  auto s = std::make_unique<Srs>();
  s->path = path;
  s->params = std::make_shared<const io::BellpersonParams<E>>(io::read_bellperson_params(path));
  return s.release();
}

// supraseal-c2's cache: the SRS of each path string, most recent first, at
// most four.
struct Cache {
  std::mutex mu;
  std::list<std::pair<std::string, Srs*>> entries;  // each holds a reference

  Srs* lookup(const char* path) {
    std::lock_guard lock(mu);
    for (auto it = entries.begin(); it != entries.end(); ++it)
      if (it->first == path) {
        entries.splice(entries.begin(), entries, it);
        return acquire(it->second);
      }
    Srs* s = load(path);
    entries.emplace_front(path, acquire(s));
    if (entries.size() > 4) {
      release(entries.back().second);
      entries.pop_back();
    }
    return s;
  }

  void evict(const std::string& path) {
    Srs* dropped = nullptr;
    {
      std::lock_guard lock(mu);
      for (auto it = entries.begin(); it != entries.end(); ++it)
        if (it->first == path) {
          dropped = it->second;
          entries.erase(it);
          break;
        }
    }
    release(dropped);
  }
};

Cache& cache() {
  static Cache* c = new Cache;  // never destroyed, as the service
  return *c;
}

void check_popcount(const char* what, size_t given, size_t counted) {
  if (given != counted)
    throw Refusal{EINVAL, std::string(what) + " says " + std::to_string(given) + " bits are set; its bitmap has " +
                              std::to_string(counted)};
}

// A circuit's densities over all its variables (inputs, then private ones),
// every input in A (bellman's input constraints), checked against the sizes
// the circuit gives.
std::pair<groth16::Density, groth16::Density> densities_of(const supraseal_assignment& p) {
  const size_t n_in = p.inp_assignment_size, n_aux = p.aux_assignment_size;
  if (p.a_aux_bit_len != n_aux || p.b_aux_bit_len != n_aux || p.b_inp_bit_len != n_in)
    throw Refusal{EINVAL, "the density bitmaps cover " + std::to_string(p.a_aux_bit_len) + " (A aux), " +
                              std::to_string(p.b_inp_bit_len) + " (B inputs) and " + std::to_string(p.b_aux_bit_len) +
                              " (B aux) variables; the assignment has " + std::to_string(n_in) + " inputs and " +
                              std::to_string(n_aux) + " private values"};
  if (n_aux) require(p.a_aux_density, "a_aux_density"), require(p.b_aux_density, "b_aux_density");
  if (n_in) require(p.b_inp_density, "b_inp_density");
  groth16::Density a(n_in + n_aux), b(n_in + n_aux);
  for (size_t i = 0; i < n_in; ++i) a.set(i);
  check_popcount("a_aux_popcount", p.a_aux_popcount, a.set_from_bitmap(p.a_aux_density, n_aux, n_in));
  check_popcount("b_inp_popcount", p.b_inp_popcount, b.set_from_bitmap(p.b_inp_density, n_in, 0));
  check_popcount("b_aux_popcount", p.b_aux_popcount, b.set_from_bitmap(p.b_aux_density, n_aux, n_in));
  return {std::move(a), std::move(b)};
}

// The service's key for these densities, made and loaded the first time
// they are met.
std::string key_for(Srs& srs, groth16::Density a, groth16::Density b) {
  std::lock_guard lock(srs.mu);
  for (const Srs::Shape& s : srs.shapes)
    if (s.a == a && s.b == b) return s.key_id;
  static std::atomic<uint64_t> serial{0};
  std::string id = "supraseal-" + std::to_string(serial.fetch_add(1));
  auto key = groth16::PreparedKey<E>::make(io::bellman_key(srs.params, a, b, srs.path));
  the_service().add_key(id, std::move(key), srs.path);
  srs.shapes.push_back({std::move(a), std::move(b), id});
  return id;
}

// Checks every circuit against the SRS and submits them, circuits of one
// shape as one job (each shape is a key), each lending its a, b, c and
// assignment through a share of `lending`.
Submitted submit(const supraseal_assignment provers[], size_t n, const supraseal_fr r_s[], const supraseal_fr s_s[],
                 const supraseal_srs* handle, Lending& lending) {
  Srs& srs = srs_of(handle);
  Submitted out;
  out.circuits = n;
  if (n == 0) return out;
  require(provers, "provers"), require(r_s, "r_s"), require(s_s, "s_s");
  struct ShapeGroup {
    std::string key;
    std::vector<size_t> circuits;
    std::vector<service::PartitionInput> inputs;
  };
  std::vector<ShapeGroup> groups;
  for (size_t i = 0; i < n; ++i) {
    const supraseal_assignment& p = provers[i];
    auto [a, b] = densities_of(p);
    std::string key = key_for(srs, std::move(a), std::move(b));
    auto group = std::find_if(groups.begin(), groups.end(), [&](const ShapeGroup& g) { return g.key == key; });
    if (group == groups.end()) group = groups.insert(groups.end(), ShapeGroup{std::move(key), {}, {}});
    group->circuits.push_back(i);
    group->inputs.push_back(service::Evaluations{
        limbs(p.a, p.abc_size, "a"), limbs(p.b, p.abc_size, "b"), limbs(p.c, p.abc_size, "c"),
        limbs(p.inp_assignment_data, p.inp_assignment_size, "inp_assignment_data"),
        limbs(p.aux_assignment_data, p.aux_assignment_size, "aux_assignment_data"), limbs(&r_s[i], 1, "r"),
        limbs(&s_s[i], 1, "s"), lending.share()});
  }
  for (ShapeGroup& g : groups)
    out.submit(g.key, std::move(g.circuits), std::move(g.inputs), "supraseal " + srs.path);
  return out;
}

// cuzk_supraseal_alloc_pinned's buffers: page-locked (mapped and registered
// with every GPU, and registered again after a GPU's reset) where the service
// proves on GPUs, else page-aligned mappings. Never destroyed, as the service.
capi::CallerBuffers& caller_buffers() {
  static capi::CallerBuffers* b = [] {
#if defined(CUZK_HAVE_CUDA)
    if (the_service().placement().backend == service::BackendKind::cuda)
      return new capi::CallerBuffers(engine::pinned_memory());
#endif
    return new capi::CallerBuffers(engine::pageable_memory());
  }();
  return *b;
}

}  // namespace

}  // namespace cuzk::capi::supraseal

using namespace cuzk::capi::supraseal;

extern "C" {

supraseal_error create_SRS(supraseal_srs* ret, const char* srs_path, bool cache_it) {
  return guarded([&] {
    require(ret, "ret"), require(srs_path, "srs_path");
    if (ret->ptr) throw Refusal{EINVAL, "ret already holds an SRS"};
    ret->ptr = cache_it ? cache().lookup(srs_path) : load(srs_path);
  });
}

void evict_SRS(const supraseal_srs* srs) {
  if (!srs || !srs->ptr) return;
  try {
    cache().evict(static_cast<Srs*>(srs->ptr)->path);
  } catch (...) {
    // Out of memory copying a path: the cache keeps its reference, which is safe.
  }
}

void drop_SRS(const supraseal_srs* srs) {
  if (srs) release(static_cast<Srs*>(srs->ptr));
}

supraseal_srs clone_SRS(const supraseal_srs* srs) {
  if (!srs || !srs->ptr) return {nullptr};
  return {acquire(static_cast<Srs*>(srs->ptr))};
}

supraseal_error generate_groth16_proofs_c(const supraseal_assignment provers[], size_t num_circuits,
                                          const supraseal_fr r_s[], const supraseal_fr s_s[],
                                          supraseal_proof proofs[], const supraseal_srs* srs) {
  return prove_now(num_circuits, proofs,
                   [&](Lending& lending) { return submit(provers, num_circuits, r_s, s_s, srs, lending); });
}

supraseal_error generate_groth16_proofs_start_c(const supraseal_assignment provers[], size_t num_circuits,
                                                const supraseal_fr r_s[], const supraseal_fr s_s[],
                                                const supraseal_srs* srs, void* gpu_mutex, int gpu_index,
                                                void** pending_out) {
  (void)gpu_mutex;  // any object create_gpu_mutex made, or NULL: see the header
  return start_pending(gpu_index, pending_out,
                       [&](Lending& lending) { return submit(provers, num_circuits, r_s, s_s, srs, lending); });
}

supraseal_error finalize_groth16_proof_c(void* handle, supraseal_proof proofs[]) {
  return guarded([&] {
    require(handle, "pending proof");
    const std::unique_ptr<Pending> pending(static_cast<Pending*>(handle));
    if (pending->submitted.circuits) require(proofs, "proofs");
    const std::vector<supraseal_proof> made = collect(pending->submitted);
    std::copy(made.begin(), made.end(), proofs);
  });
}

void destroy_pending_proof(void* handle) { delete static_cast<Pending*>(handle); }

supraseal_error cuzk_supraseal_alloc_pinned(size_t bytes, void** out) {
  return guarded([&] {
    require(out, "out");
    *out = nullptr;
    if (bytes == 0) throw Refusal{EINVAL, "cuzk_supraseal_alloc_pinned of 0 bytes"};
    cuzk::capi::CallerBuffers& buffers = caller_buffers();
    try {
      *out = buffers.allocate(bytes);
    } catch (const std::exception& e) {
      throw Refusal{ENOMEM, "cannot allocate " + std::to_string(bytes) + " bytes of " + buffers.kind() +
                                " memory: " + e.what()};
    }
  });
}

supraseal_error cuzk_supraseal_free_pinned(void* p) {
  return guarded([&] {
    if (p && !caller_buffers().release(p))
      throw Refusal{EINVAL, "cuzk_supraseal_free_pinned: not a buffer cuzk_supraseal_alloc_pinned gave"};
  });
}

void* create_gpu_mutex(void) { return new (std::nothrow) std::mutex; }

void destroy_gpu_mutex(void* gpu_mutex) { delete static_cast<std::mutex*>(gpu_mutex); }

}  // extern "C"
