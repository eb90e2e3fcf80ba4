// What the device key (device_key_cuda.cu) and the proof (prover_cuda.cu)
// share: where a key's bases and rows live on the GPU, how the witness
// scalars are laid out for the four witness MSMs, and the staging blocks
// of a streamed key.
#pragma once

#include <algorithm>
#include <span>
#include <vector>

#include "cuzk/groth16/prover_cuda.hpp"
#include "cuzk/poly/ntt_cuda.hpp"

namespace cuzk::groth16::gpu {

using cuda::Arena;
using cuda::DeviceBuffer;
using cuda::DeviceScope;
using cuda::Event;
using cuda::HostRegistration;

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
  cuda::PinnedBuffer<ec::Affine<C>> copy;
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
  poly::gpu::DeviceDomain<typename E::Fr> domain;
  DeviceRows<E> rows[2];
  WitnessLayout witness;
  DeviceBuffer<uint32_t> dense_vars;  // bellman: the variables (indices in w) of A's points, then of B's

  explicit Resident(const PreparedKey<E>& p) : domain(p.domain()), witness(witness_layout(p.key())) {}
};

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

}  // namespace cuzk::groth16::gpu
