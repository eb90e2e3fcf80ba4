// Number-theoretic transforms on the GPU: the same four transforms as ntt.hpp,
// bit for bit, on values already in device memory, enqueued on a stream.
//
// A transform of 2^k points runs as ceil(k / 10) passes (ntt_cuda.cu: 4 points a
// thread in registers, two stages between shared-memory exchanges; 2 points are
// one radix-2 pass); each pass loads 2^10 (or fewer) points into shared memory
// and does its stages there, so a 2^24 transform reads and writes device memory
// three times instead of 24 and is bound by its multiplies. Passes above the
// lowest take up to 8 adjacent columns a block, so that device memory is read
// and written in runs of up to 8 points. The forward transform is decimation in time
// (bit-reversed in, natural out) and the inverse decimation in frequency
// (natural in, bit-reversed out): the Groth16 quotient chains inverse then
// forward with no bit-reversal between them, and the coset powers and 1/n are
// applied inside the last inverse pass (coset_evaluations below). The natural-
// order functions add one bit-reversal pass (tiles of 16 x 16 points swapped
// through shared memory, so device memory is read and written in runs).
#pragma once

#include <cuda_runtime.h>

#include <memory>

#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/ff/bn254.hpp"
#include "cuzk/poly/domain.hpp"
#include "cuzk/poly/ntt_block.hpp"

namespace cuzk::poly::gpu {

// A domain's tables resident on the current device, of the host domain's ω
// and coset shift g (so of either convention's roots): every twiddle ω^j and
// ω^-j for j < n/2, and the coset powers g^i/n in two levels. About 32·n bytes
// (512 MiB at 2^24, device_bytes). Made once per domain and reused by every
// proof.
template <class Fr>
class DeviceDomain {
 public:
  // block_bits: log2 of the most points a pass block holds (ntt_block.hpp);
  // 0 chooses it from the current device's SM, as a proof does. Tests give
  // other devices' choices to run their code on this one.
  explicit DeviceDomain(const Domain<Fr>& domain, unsigned block_bits = 0);
  ~DeviceDomain();
  DeviceDomain(const DeviceDomain&) = delete;
  DeviceDomain& operator=(const DeviceDomain&) = delete;

  // Device bytes the tables of a domain of n points take.
  static size_t device_bytes(size_t n);

  const Domain<Fr>& host() const { return domain_; }
  unsigned log_size() const { return domain_.log_size(); }
  size_t size() const { return domain_.size(); }
  unsigned block_bits() const { return block_bits_; }

  struct Tables;  // device pointers, defined in the .cu
  const Tables& tables() const { return *tables_; }

 private:
  Domain<Fr> domain_;
  unsigned block_bits_;
  std::unique_ptr<Tables> tables_;
};

// In place on d_values (domain.size() elements in device memory), natural order
// in and out, as the host functions in ntt.hpp. The coset functions use the
// domain's coset shift (Domain::coset_shift: snarkjs's or bellman's, as the
// domain's roots), which is the only coset the prover needs.
//
// ntt() given a scratch of domain.size() elements in device memory (not
// touched after it returns) does its bit reversal inside its first pass,
// which reads the values and writes the scratch, instead of as a pass of its
// own: one read and write of every point fewer (2^24 BN254: 4.46 -> 4.13 ms
// on the H200).
template <class Fr>
void ntt(const DeviceDomain<Fr>& domain, Fr* d_values, cudaStream_t stream, Fr* d_scratch = nullptr);
template <class Fr>
void intt(const DeviceDomain<Fr>& domain, Fr* d_values, cudaStream_t stream);
template <class Fr>
void coset_ntt(const DeviceDomain<Fr>& domain, Fr* d_values, cudaStream_t stream);
template <class Fr>
void coset_intt(const DeviceDomain<Fr>& domain, Fr* d_values, cudaStream_t stream);

// Evaluations on the domain -> evaluations on the coset, both in natural order:
// coset_ntt(intt(values)) with no bit-reversal pass (the Groth16 quotient's step
// for each of a, b and c).
template <class Fr>
void coset_evaluations(const DeviceDomain<Fr>& domain, Fr* d_values, cudaStream_t stream);

// The quotient in two steps, for a GPU that holds two vectors of the domain
// but not three: a[i] = a[i]·b[i], then a[i] = (a[i] − c[i])·factor; the
// same values as quotient_pointwise.
template <class Fr>
void pointwise_product(Fr* d_a, const Fr* d_b, size_t n, cudaStream_t stream);
template <class Fr>
void pointwise_difference(Fr* d_a, const Fr* d_c, size_t n, cudaStream_t stream, const Fr& factor = Fr::one());

// h[i] = (a[i]·b[i] − c[i])·factor in place in a: bellman's prover divides
// by Z on the coset here (factor 1/Z(g)), snarkjs's H points absorb it
// (factor 1, no multiplication).
template <class Fr>
void quotient_pointwise(Fr* d_a, const Fr* d_b, const Fr* d_c, size_t n, cudaStream_t stream,
                        const Fr& factor = Fr::one());

}  // namespace cuzk::poly::gpu
