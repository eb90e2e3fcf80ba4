// What the two halves of libcuzk_supraseal share: supraseal-c2's ABI
// (supraseal_api.cpp) and cuzk's witness-only extension of it
// (supraseal_circuit.cpp): the process-wide service, the SRS a handle points
// to, the C boundary's conversions, and the proofs of a finished job.
#pragma once

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/ec/curves.hpp"
#include "cuzk/groth16/density.hpp"
#include "cuzk/io/bellperson.hpp"
#include "cuzk/service/service.hpp"
#include "cuzk/supraseal.h"

#include "c_boundary.hpp"

namespace cuzk::capi::supraseal {

using E = ec::Bls12_381;
using Fr = E::Fr;
using Refusal = capi::Refusal<int>;

// The crate's error: NULL message on success (and when out of memory).
supraseal_error error_of(int code, std::string_view message) noexcept;
// A failure's errno: a system call's own where one failed, else its kind's.
int code_of_thrown(const std::exception_ptr& e);

// f(); whatever it throws becomes the crate's error, with its message.
template <class F>
supraseal_error guarded(F&& f) noexcept {
  const auto done = [&] {
    f();
    return supraseal_error{0, nullptr};
  };
  return capi::guarded(done, code_of_thrown, ENOMEM, error_of);
}

void require(const void* p, const char* what);

// Made on first use and never destroyed (supraseal_api.cpp says why).
service::Service& the_service();

// n values of Fr as limbs; p may be NULL only when n is 0.
std::span<const uint64_t> limbs(const supraseal_fr* p, size_t n, const char* what);

// What an SRS handle points to.
struct Srs {
  std::string path;
  std::atomic<size_t> references{1};
  std::shared_ptr<const io::BellpersonParams<E>> params;
  // The service's keys made of these points, one per densities met.
  struct Shape {
    groth16::Density a, b;
    std::string key_id;
  };
  std::mutex mu;
  std::vector<Shape> shapes;

  ~Srs();
};

Srs& srs_of(const supraseal_srs* h);

// The proofs of a finished job whose partition k is circuit circuits[k],
// written into proofs; the first failure kept in *failure (when none is yet),
// as "circuit i: ..." with its errno.
void collect(const service::JobOutcome& outcome, std::span<const size_t> circuits,
             std::vector<supraseal_proof>& proofs, std::exception_ptr& failure);

// Curio's gpu_index: -1 (any) or a GPU of the service; EINVAL otherwise.
void check_gpu_index(int gpu_index);

// Curio's pending proof: the proofs start made (finalize_groth16_proof_c
// takes those of either half).
struct Pending {
  std::vector<supraseal_proof> proofs;
};

// A batch call of either half: prove()'s n proofs written into proofs[] once
// all are made.
template <class Prove>
supraseal_error write_proofs(size_t n, supraseal_proof proofs[], Prove&& prove) noexcept {
  return guarded([&] {
    if (n) require(proofs, "proofs");
    const std::vector<supraseal_proof> made = prove();
    std::copy(made.begin(), made.end(), proofs);
  });
}

// A split-phase start of either half: prove()'s proofs kept in a new
// Pending, *pending_out NULL on an error.
template <class Prove>
supraseal_error start_pending(int gpu_index, void** pending_out, Prove&& prove) noexcept {
  return guarded([&] {
    require(pending_out, "pending_out");
    *pending_out = nullptr;
    check_gpu_index(gpu_index);
    auto pending = std::make_unique<Pending>();
    pending->proofs = prove();
    *pending_out = pending.release();
  });
}

}  // namespace cuzk::capi::supraseal
