// The arithmetic self-check behind `cuzk selfcheck`, and what a daemon runs
// before it serves: identities that must hold for fields, curves and pairings
// of both curves, on fresh random inputs, and, with the CUDA backend, device
// results against the host bit for bit.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace cuzk::service {

// A fresh seed from the system's entropy, for a run that records it so that
// a failure can be replayed (cuzk selfcheck --seed).
uint64_t fresh_seed();

// Called once per check with its name and outcome.
using CheckReporter = std::function<void(const std::string& name, bool ok)>;

// Host checks; returns the number that failed.
int selfcheck_host(uint64_t seed, const CheckReporter& report);

#if defined(CUZK_HAVE_CUDA)
// Device-versus-host checks on `n` random inputs per operation; returns the
// number that failed. Requires a CUDA device.
int selfcheck_device(uint64_t seed, size_t n, const CheckReporter& report);
#endif

}  // namespace cuzk::service
