// Groth16 parameter files of bellperson (and bellman, supraseal-c2, Filecoin's
// published .params), BLS12-381 only: the points are in the ZCash encoding
// (ec/encoding.hpp), which exists for that curve alone. Layout, from
// bellperson src/groth16/verifying_key.rs VerifyingKey::write and
// src/groth16/params.rs Parameters::write, every point uncompressed:
//   alpha_g1 G1, beta_g1 G1, beta_g2 G2, gamma_g2 G2, delta_g1 G1, delta_g2 G2,
//   u32 n, n x G1 (ic),
//   then h, l, a, b_g1 as u32 n, n x G1 each, and b_g2 as u32 n, n x G2,
// counts big-endian, nothing after the last point.
//
// bellperson's reader (Parameters::read) refuses the point at infinity in the
// five vectors (its generator leaves such points out of A and B and tracks
// which variables remain), but accepts it in the verifying key; so do these.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "cuzk/ec/point.hpp"
#include "cuzk/io/binfile.hpp"
#include "cuzk/util/bulk_vector.hpp"

namespace cuzk::io {

// A verifying key as bellperson writes it (VerifyingKey::write): what a .vk
// file holds, and what a parameter file starts with.
template <class E>
struct BellpersonVk {
  using G1 = ec::Affine<typename E::G1>;
  using G2 = ec::Affine<typename E::G2>;

  G1 alpha1, beta1;
  G2 beta2, gamma2;
  G1 delta1;
  G2 delta2;
  std::vector<G1> ic;  // public inputs + 1

  bool operator==(const BellpersonVk&) const = default;
};

template <class E>
struct BellpersonParams : BellpersonVk<E> {
  using typename BellpersonVk<E>::G1;
  using typename BellpersonVk<E>::G2;

  // The proving key's queries: up to 10^8 points each (util/bulk_vector.hpp).
  BulkVector<G1> h, l, a, b_g1;
  BulkVector<G2> b_g2;

  bool operator==(const BellpersonParams&) const = default;
};

// How many points of each vector have their subgroup membership checked.
// A check is a scalar multiplication by r: about 0.2 ms per G1 and 0.6 ms per
// G2 point on one core of the development VM (-O3), against about 1 us to
// decode a point and check its curve equation. Filecoin's 32 GiB-sector
// parameters hold some 10^8 points per vector, which would take a day of
// subgroup checks on two cores; so the verifying key's points (ic included)
// are all checked, and each vector's up to this many, about 0.4 core-seconds
// per file. What a missed point costs is bounded: a point outside the subgroup
// cannot make a false proof verify, it only makes the proofs that use it fail
// verification; and random corruption fails the curve check, which covers
// every point.
inline constexpr size_t kBellpersonSubgroupSample = 256;

// Reads and validates a whole file: every count against the bytes left, the
// flag bits, coordinates < q, every point on its curve, the vectors free of
// infinity, and subgroup membership (the verifying key's points all, each
// vector's as said above). The file is read into memory first. Throws
// FormatError, one line "<file>: offset N: <problem>".
BellpersonParams<Bls12_381> read_bellperson_params(const std::filesystem::path& path);
// The same from a file's bytes in memory; `name` stands for the file in messages.
BellpersonParams<Bls12_381> read_bellperson_params_bytes(const std::string& name, std::span<const uint8_t> bytes);

// The verifying key at the start of a parameter file, or a whole .vk file,
// validated as above; only its bytes are read, so a file of tens of GB
// answers at once. `is_params` (when given) says whether bytes follow it.
BellpersonVk<Bls12_381> read_bellperson_vk(const std::filesystem::path& path, bool* is_params = nullptr);

// How many points each vector of a parameter file holds, found by seeking from
// count to count: a few bytes of a file of any size, so that a circuit that
// does not fit is refused before the file is read. The points are not
// checked; a count that points past the end, or bytes left after the last
// vector, are a FormatError as in the reader, which says the same of them.
struct BellpersonCounts {
  uint64_t ic = 0, h = 0, l = 0, a = 0, b_g1 = 0, b_g2 = 0;
};
BellpersonCounts read_bellperson_counts(const std::filesystem::path& path);

// Writes the file atomically (io/atomic_file.hpp), a block of points at a
// time. Refuses (std::invalid_argument) what bellperson could not read back: a
// vector longer than 2^32 - 1 points or holding the point at infinity.
void write_bellperson_params(const std::filesystem::path& path, const BellpersonParams<Bls12_381>& params);

}  // namespace cuzk::io
