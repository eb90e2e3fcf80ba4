// One proof's inputs in host memory, as pieces that lie where their owner
// put them: w as consecutive pieces (a witness buffer in one piece; a C ABI
// caller's inputs and private values in two), and a, b, c of `rows` values
// each, rows ≤ the domain, the rows past them zero. The GPU prover uploads
// each piece where it belongs (prover_cuda.hpp: upload_inputs), straight from
// page-locked memory and through a small pinned ring from pageable memory,
// and checks on the device that every value is below the modulus; the CPU
// prover, which works on a, b, c in place, takes them as one buffer
// (copy_checked).
#pragma once

#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/util/parallel.hpp"

namespace cuzk::groth16 {

// The most pieces w may come in: the device's checks keep one slot a piece.
inline constexpr size_t kMaxWitnessPieces = 4;

template <class Fr>
struct HostInputs {
  // A run of values and what messages call them ("a", "private").
  struct Piece {
    std::span<const Fr> values;
    const char* name = "";
  };
  std::vector<Piece> w;  // in order, at most kMaxWitnessPieces
  Piece a{{}, "a"}, b{{}, "b"}, c{{}, "c"};  // empty where a, b, c are computed from the key's rows

  // Whole vectors: w in one piece, a, b, c of the domain.
  static HostInputs whole(std::span<const Fr> w, std::span<const Fr> a, std::span<const Fr> b,
                          std::span<const Fr> c) {
    HostInputs in;
    in.w.push_back({w, "witness"});
    in.a.values = a, in.b.values = b, in.c.values = c;
    return in;
  }

  size_t w_size() const {
    size_t n = 0;
    for (const Piece& p : w) n += p.values.size();
    return n;
  }
  size_t rows() const { return a.values.size(); }
  bool has_abc() const { return !(a.values.empty() && b.values.empty() && c.values.empty()); }

  // Throws std::invalid_argument unless w has n_vars values in at most
  // kMaxWitnessPieces pieces and a, b, c (when given) the same number of
  // rows, at most `domain`.
  void check_shape(size_t n_vars, size_t domain) const {
    if (w.size() > kMaxWitnessPieces)
      throw std::invalid_argument("the witness comes in " + std::to_string(w.size()) + " pieces; at most " +
                                  std::to_string(kMaxWitnessPieces) + " are taken");
    if (w_size() != n_vars)
      throw std::invalid_argument("the witness has " + std::to_string(w_size()) + " values; the key needs " +
                                  std::to_string(n_vars));
    if (!has_abc()) return;
    if (b.values.size() != rows() || c.values.size() != rows() || rows() > domain)
      throw std::invalid_argument("a, b and c have " + std::to_string(rows()) + ", " +
                                  std::to_string(b.values.size()) + " and " + std::to_string(c.values.size()) +
                                  " rows: they need as many each, at most the domain's " + std::to_string(domain));
  }
};

// "NAME value I is not below the modulus": the one line every reader of
// given values fails with, host or device.
inline std::string not_below_modulus(const char* name, size_t index) {
  return std::string(name) + " value " + std::to_string(index) + " is not below the modulus";
}

// Copies a piece into `out` on `threads` threads, each value checked below
// the modulus (std::invalid_argument, not_below_modulus, otherwise).
template <class Fr>
void copy_checked(const typename HostInputs<Fr>::Piece& piece, std::span<Fr> out, unsigned threads) {
  parallel_blocks(piece.values.size(), 1 << 16, threads, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      if (!Fr::less_than_modulus(piece.values[i].limb)) throw std::invalid_argument(not_below_modulus(piece.name, i));
      std::memcpy(&out[i], &piece.values[i], sizeof(Fr));
    }
  });
}

// The CPU prover's buffers from the pieces: w (n_vars) and a, b, c (domain
// each, the rows past the given ones zero; left as they are where in gives
// none, for the caller to evaluate), every value checked. in must have passed
// check_shape.
template <class Fr>
void copy_checked(const HostInputs<Fr>& in, std::span<Fr> w, std::span<Fr> a, std::span<Fr> b, std::span<Fr> c,
                  unsigned threads) {
  size_t at = 0;
  for (const auto& piece : in.w) {
    copy_checked<Fr>(piece, w.subspan(at, piece.values.size()), threads);
    at += piece.values.size();
  }
  if (!in.has_abc()) return;
  const size_t rows = in.rows();
  for (auto [piece, out] : {std::pair{&in.a, a}, std::pair{&in.b, b}, std::pair{&in.c, c}}) {
    copy_checked<Fr>(*piece, out.first(rows), threads);
    std::fill(out.begin() + (ptrdiff_t)rows, out.end(), Fr::zero());
  }
}

}  // namespace cuzk::groth16
