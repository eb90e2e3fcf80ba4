#include "cuzk/ff/bigint.hpp"

#include <algorithm>

namespace cuzk::ff {

using u128 = unsigned __int128;

BigUint BigUint::from_limbs(const uint64_t* v, size_t n) {
  BigUint r;
  r.limbs_.assign(v, v + n);
  r.trim();
  return r;
}

bool BigUint::from_decimal(std::string_view s, BigUint& out) {
  if (s.empty()) return false;
  BigUint r;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    uint64_t carry = (uint64_t)(c - '0');
    for (auto& l : r.limbs_) {
      u128 x = (u128)l * 10 + carry;
      l = (uint64_t)x;
      carry = (uint64_t)(x >> 64);
    }
    if (carry) r.limbs_.push_back(carry);
  }
  r.trim();
  out = std::move(r);
  return true;
}

size_t BigUint::bit_length() const {
  if (limbs_.empty()) return 0;
  return 64 * (limbs_.size() - 1) + (64 - (size_t)__builtin_clzll(limbs_.back()));
}

bool BigUint::to_limbs(uint64_t* v, size_t n) const {
  if (limbs_.size() > n) return false;
  std::fill(v, v + n, 0);
  std::copy(limbs_.begin(), limbs_.end(), v);
  return true;
}

std::string BigUint::to_decimal() const {
  if (is_zero()) return "0";
  BigUint t = *this;
  std::string digits;
  while (!t.is_zero()) {
    // Peel 19 digits at a time: 10^19 is the largest power of ten in 64 bits.
    uint64_t chunk = t.divmod_small(10000000000000000000ull);
    for (int i = 0; i < 19; ++i) {
      digits.push_back(char('0' + chunk % 10));
      chunk /= 10;
      if (t.is_zero() && chunk == 0) break;
    }
  }
  std::reverse(digits.begin(), digits.end());
  return digits;
}

uint64_t BigUint::divmod_small(uint64_t d) {
  u128 rem = 0;
  for (size_t i = limbs_.size(); i-- > 0;) {
    u128 cur = (rem << 64) | limbs_[i];
    limbs_[i] = (uint64_t)(cur / d);
    rem = cur % d;
  }
  trim();
  return (uint64_t)rem;
}

BigUint operator*(const BigUint& a, const BigUint& b) {
  BigUint r;
  if (a.is_zero() || b.is_zero()) return r;
  r.limbs_.assign(a.limbs_.size() + b.limbs_.size(), 0);
  for (size_t i = 0; i < a.limbs_.size(); ++i) {
    uint64_t carry = 0;
    for (size_t j = 0; j < b.limbs_.size(); ++j) {
      u128 x = (u128)a.limbs_[i] * b.limbs_[j] + r.limbs_[i + j] + carry;
      r.limbs_[i + j] = (uint64_t)x;
      carry = (uint64_t)(x >> 64);
    }
    r.limbs_[i + b.limbs_.size()] = carry;
  }
  r.trim();
  return r;
}

BigUint operator+(const BigUint& a, const BigUint& b) {
  BigUint r;
  const size_t n = std::max(a.limbs_.size(), b.limbs_.size());
  r.limbs_.resize(n + 1, 0);
  uint64_t carry = 0;
  for (size_t i = 0; i < n; ++i) {
    u128 x = (u128)(i < a.limbs_.size() ? a.limbs_[i] : 0) + (i < b.limbs_.size() ? b.limbs_[i] : 0) + carry;
    r.limbs_[i] = (uint64_t)x;
    carry = (uint64_t)(x >> 64);
  }
  r.limbs_[n] = carry;
  r.trim();
  return r;
}

BigUint operator-(const BigUint& a, const BigUint& b) {
  BigUint r = a;
  uint64_t borrow = 0;
  for (size_t i = 0; i < r.limbs_.size(); ++i) {
    u128 d = (u128)r.limbs_[i] - (i < b.limbs_.size() ? b.limbs_[i] : 0) - borrow;
    r.limbs_[i] = (uint64_t)d;
    borrow = (uint64_t)(d >> 64) & 1;
  }
  r.trim();
  return r;
}

void BigUint::trim() {
  while (!limbs_.empty() && limbs_.back() == 0) limbs_.pop_back();
}

}  // namespace cuzk::ff
