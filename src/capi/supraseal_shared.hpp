// What the two halves of libcuzk_supraseal share: supraseal-c2's ABI
// (supraseal_api.cpp) and cuzk's witness-only extension of it
// (supraseal_circuit.cpp): the process-wide service, the SRS a handle points
// to, the C boundary's conversions, and a call's jobs, from their submission,
// lending the caller's memory, to their proofs.
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
#include "supraseal_memory.hpp"

namespace cuzk::capi::supraseal {

using E = ec::Bls12_381;
using Fr = E::Fr;
using Refusal = capi::Refusal<int>;
using capi::Lending;

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
// A file the library is asked to read that cannot be opened is answered with
// open()'s errno, as supraseal-c2 answers it (supraseal.h promises it).
void require_openable(const char* path);

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

// A call's circuits as jobs of the service, submitted in order until one is
// refused, each partition lending the caller's memory through a share of the
// call's Lending (supraseal_memory.hpp).
struct Submitted {
  struct JobCircuits {  // a service job and the circuits that are its partitions
    service::JobId id = 0;
    std::vector<size_t> circuits;  // the job's partitions, in order
  };
  std::vector<JobCircuits> jobs;
  size_t circuits = 0;
  std::exception_ptr refused;  // the submit that failed, after the jobs before it

  // Submits a job of `inputs` (the circuits `circuits`, in order) with `key`,
  // unless one before was refused; a refusal is kept in `refused`.
  void submit(const std::string& key, std::vector<size_t> circuits, std::vector<service::PartitionInput> inputs,
              const std::string& label);
};

// Awaits every job (whatever fails: their partitions may read the caller's
// memory until then); the proofs in circuit order, or the first failure, as
// "circuit i: ..." with its errno.
std::vector<supraseal_proof> collect(Submitted& submitted);

// Curio's gpu_index: -1 (any) or a GPU of the service; EINVAL otherwise.
void check_gpu_index(int gpu_index);

// Curio's pending proof of either half: the jobs a start submitted, whose
// inputs are all read. Destroyed unfinalized, its jobs are cancelled and
// collected, so that none is left unawaited in the service.
struct Pending {
  Submitted submitted;
  ~Pending();
};

// A batch call of either half: submit(lending)'s proofs written into
// proofs[] once all are made.
template <class Submit>
supraseal_error prove_now(size_t n, supraseal_proof proofs[], Submit&& submit) noexcept {
  return guarded([&] {
    if (n) require(proofs, "proofs");
    Lending lending;
    Submitted submitted = submit(lending);
    const std::vector<supraseal_proof> made = collect(submitted);
    std::copy(made.begin(), made.end(), proofs);
  });
}

// A split-phase start of either half: submit(lending)'s jobs kept in a new
// Pending, returning once every circuit's inputs have been read (uploaded, or
// copied for the host): the proofs go on without them. *pending_out is NULL
// on an error.
template <class Submit>
supraseal_error start_pending(int gpu_index, void** pending_out, Submit&& submit) noexcept {
  return guarded([&] {
    require(pending_out, "pending_out");
    *pending_out = nullptr;
    check_gpu_index(gpu_index);
    auto pending = std::make_unique<Pending>();
    {
      Lending lending;
      pending->submitted = submit(lending);
    }
    if (pending->submitted.refused) (void)collect(pending->submitted);  // throws the refusal
    *pending_out = pending.release();
  });
}

}  // namespace cuzk::capi::supraseal
