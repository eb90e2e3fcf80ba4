// Host-only unsigned integers of any size, for the few places that need
// arithmetic on numbers wider than a field element: decimal conversion and the
// exponents (p^k - 1)/6 behind the Frobenius coefficients. Not for hot paths.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cuzk::ff {

class BigUint {
 public:
  BigUint() = default;
  explicit BigUint(uint64_t v) {
    if (v) limbs_.push_back(v);
  }
  static BigUint from_limbs(const uint64_t* v, size_t n);
  // Decimal digits only; false on anything else (empty, sign, spaces).
  static bool from_decimal(std::string_view s, BigUint& out);

  const std::vector<uint64_t>& limbs() const { return limbs_; }
  bool is_zero() const { return limbs_.empty(); }
  size_t bit_length() const;
  // Writes the low n limbs; false if the value needs more.
  bool to_limbs(uint64_t* v, size_t n) const;
  std::string to_decimal() const;

  friend BigUint operator*(const BigUint& a, const BigUint& b);
  friend BigUint operator+(const BigUint& a, const BigUint& b);
  // a - b for a >= b.
  friend BigUint operator-(const BigUint& a, const BigUint& b);
  friend bool operator==(const BigUint& a, const BigUint& b) { return a.limbs_ == b.limbs_; }
  // Divides in place by a small divisor and returns the remainder.
  uint64_t divmod_small(uint64_t d);

 private:
  void trim();
  std::vector<uint64_t> limbs_;
};

}  // namespace cuzk::ff
