// Evaluation domains: the subgroup of the 2^k-th roots of unity in Fr, with the
// roots of the prover a key was made for, and the coset on which the prover
// evaluates a, b and c.
//
// The roots must be the key's, not merely some primitive roots: a proving key's
// points are Lagrange bases of one particular domain, and a proof computed over
// another does not verify. Two families exist (Roots):
//   snarkjs  ffjavascript and ffiasm take the smallest quadratic non-residue, 5
//            for both curves' Fr, raise it to (r-1)/2^s (s the 2-adicity) to get
//            a generator of the 2^s subgroup, and square down from there:
//            ω_k = 5^((r-1)/2^k); the coset is the odd one, ω_{2n}·⟨ω⟩.
//   bellman  zkcrypto's ff (bellman, bellperson, blstrs) takes ROOT_OF_UNITY =
//            g^((r-1)/2^s) for the field's MULTIPLICATIVE_GENERATOR g, 7 for
//            BLS12-381's Fr, squared down the same way: ω_k = 7^((r-1)/2^k);
//            the coset is g·⟨ω⟩. Defined for BLS12-381 only, the one curve
//            bellperson proves on.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/ff/fp.hpp"

namespace cuzk::poly {

namespace detail {

// The low `bits` bits of x in reverse order (bits <= 64).
inline uint64_t reverse_bits(uint64_t x, unsigned bits) {
  if (bits == 0) return 0;
  x = ((x >> 1) & 0x5555555555555555ull) | ((x & 0x5555555555555555ull) << 1);
  x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
  x = ((x >> 4) & 0x0f0f0f0f0f0f0f0full) | ((x & 0x0f0f0f0f0f0f0f0full) << 4);
  return __builtin_bswap64(x) >> (64 - bits);
}

}  // namespace detail

enum class Roots { snarkjs, bellman };

template <class Fr>
class Domain {
 public:
  // The largest k: Fr has no root of unity of order 2^(s+1).
  static constexpr unsigned max_log_size = Fr::params::two_adicity;
  // The smallest quadratic non-residue, snarkjs's base for every root of unity.
  static constexpr uint64_t nqr = 5;
  // Domains up to this size are transformed in one piece (they fit in L2); larger
  // ones are split in two (the four-step transform in ntt.hpp).
  static constexpr unsigned max_direct_log_size = 12;

  // Tables for the transforms in ntt.hpp. They live here, built once, because a
  // proof runs six transforms over one domain and a prover many proofs. Index 0
  // of each pair is for the forward transform (powers of ω), 1 for the inverse
  // (powers of ω⁻¹). The transform views the n values as rows × cols, row-major,
  // with rows = 1 up to max_direct_log_size; rows <= cols.
  struct NttTables {
    unsigned log_rows = 0, log_cols = 0;
    // stage[d][h + j] = ω_{2h}^{±j} for h = 1, 2, 4, …, cols/2 and j < h: each
    // butterfly stage reads its twiddles contiguously, and one table serves the
    // row and column transforms, which are at most cols long. Entry 0 is unused.
    std::vector<Fr> stage[2];
    // row_step[d][p] = ω_n^{±rev(p)} for p < rows, rev over log_rows bits: the
    // ratio between consecutive twiddles ω_n^{±b·c} that join the column and row
    // transforms on row p (which holds frequency c = rev(p) after the column pass).
    std::vector<Fr> row_step[2];
  };

  // The domain of size 2^log_size; 0 <= log_size <= max_log_size. Throws
  // std::invalid_argument for bellman's roots on a field that has none.
  explicit Domain(unsigned log_size, Roots roots = Roots::snarkjs) : log_size_(log_size) {
    if (log_size > max_log_size)
      throw std::invalid_argument("domain of size 2^" + std::to_string(log_size) +
                                  " is beyond the field's 2-adicity: the limit is 2^" +
                                  std::to_string(max_log_size));
    // ω_{2^j} for j = log_size + 1 (when it exists) down to log_size, by squaring.
    Fr w = two_adic_root(roots);
    for (unsigned j = max_log_size; j > log_size + 1; --j) w = w.sqr();
    if (roots == Roots::bellman) {
      shift_ = Fr::from_uint(multiplicative_generator());
      if (log_size < max_log_size) w = w.sqr();
    } else if (log_size < max_log_size) {
      shift_ = w;  // ω_{2n}: the odd coset {ω_{2n}^(2j+1)} = ω_{2n}·⟨ω⟩
      w = w.sqr();
    } else {
      // No ω_{2n} exists; snarkjs shifts by nqr² instead (a square, so not in the
      // 2^s subgroup, and the coset is disjoint from the domain).
      shift_ = Fr::from_uint(nqr * nqr);
    }
    omega_ = w;
    omega_inv_ = w.inverse();
    size_inv_ = Fr::from_uint(uint64_t{1} << log_size).inverse();
    shift_inv_ = shift_.inverse();
    tables_ = std::make_shared<const NttTables>(build_tables());
  }

  // The domain of size n; n must be a power of two no larger than 2^max_log_size.
  static Domain of_size(size_t n, Roots roots = Roots::snarkjs) {
    if (n == 0 || (n & (n - 1)) != 0)
      throw std::invalid_argument("domain size " + std::to_string(n) + " is not a power of two");
    return Domain((unsigned)__builtin_ctzll(n), roots);
  }

  // The base of bellman's roots: zkcrypto ff's MULTIPLICATIVE_GENERATOR, which
  // the field's parameters carry where a bellman prover exists for it.
  static uint64_t multiplicative_generator() {
    if constexpr (requires { Fr::params::multiplicative_generator; }) {
      return Fr::params::multiplicative_generator;
    } else {
      throw std::invalid_argument("bellman's roots of unity are defined for BLS12-381's scalar field only");
    }
  }

  // base^((r-1)/2^s), a generator of the subgroup of order 2^s, for base 5
  // (snarkjs) or the multiplicative generator (bellman).
  static Fr two_adic_root(Roots roots = Roots::snarkjs) {
    using P = typename Fr::params;
    uint64_t e[Fr::N];
    for (size_t i = 0; i < Fr::N; ++i) e[i] = P::modulus(i);
    e[0] -= 1;  // r is odd: no borrow
    constexpr unsigned s = max_log_size;
    static_assert(s > 0 && s < 64);
    for (size_t i = 0; i < Fr::N; ++i) e[i] = (e[i] >> s) | (i + 1 < Fr::N ? e[i + 1] << (64 - s) : 0);
    return Fr::from_uint(roots == Roots::bellman ? multiplicative_generator() : nqr).pow(e, Fr::N);
  }

  unsigned log_size() const { return log_size_; }
  size_t size() const { return size_t{1} << log_size_; }
  // ω: a primitive n-th root of unity, 5^((r-1)/n) (snarkjs) or g^((r-1)/n) (bellman).
  const Fr& omega() const { return omega_; }
  const Fr& omega_inv() const { return omega_inv_; }
  // 1/n, the scale of the inverse transform.
  const Fr& size_inv() const { return size_inv_; }
  // The shift g of the coset g·⟨ω⟩ on which the prover evaluates a, b, c to form
  // h. snarkjs: ω_{2n} while log_size < max_log_size (on that coset Z(x) = xⁿ - 1
  // = -2), and nqr² = 25 for the largest domain (Z(x) = 25ⁿ - 1 there). bellman:
  // the multiplicative generator (Z(x) = gⁿ - 1). Either way Z is a non-zero
  // constant on the coset.
  const Fr& coset_shift() const { return shift_; }
  const Fr& coset_shift_inv() const { return shift_inv_; }

  const NttTables& ntt_tables() const { return *tables_; }

 private:
  NttTables build_tables() const {
    NttTables t;
    if (log_size_ > max_direct_log_size) {
      t.log_rows = log_size_ / 2;
      t.log_cols = log_size_ - t.log_rows;
    } else {
      t.log_cols = log_size_;
    }
    const size_t cols = size_t{1} << t.log_cols, rows = size_t{1} << t.log_rows;
    for (int d = 0; d < 2; ++d) {
      // ω_cols (or its inverse): ω raised to n/cols = rows.
      Fr w = d ? omega_inv_ : omega_;
      for (unsigned i = 0; i < t.log_rows; ++i) w = w.sqr();
      auto& st = t.stage[d];
      st.assign(std::max<size_t>(cols, 1), Fr::zero());
      if (cols >= 2) {
        // Top stage h = cols/2 by a running product, the others as its even powers.
        Fr p = Fr::one();
        for (size_t j = 0; j < cols / 2; ++j, p *= w) st[cols / 2 + j] = p;
        for (size_t h = cols / 4; h >= 1; h /= 2)
          for (size_t j = 0; j < h; ++j) st[h + j] = st[2 * h + 2 * j];
      }
      if (rows > 1) {
        auto& rs = t.row_step[d];
        rs.resize(rows);
        Fr p = Fr::one();
        const Fr& wn = d ? omega_inv_ : omega_;
        for (size_t c = 0; c < rows; ++c, p *= wn) rs[detail::reverse_bits(c, t.log_rows)] = p;
      }
    }
    return t;
  }

  unsigned log_size_;
  Fr omega_, omega_inv_, size_inv_, shift_, shift_inv_;
  // Shared so that copies of a domain share one set of tables.
  std::shared_ptr<const NttTables> tables_;
};

}  // namespace cuzk::poly
