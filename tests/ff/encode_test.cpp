// External encodings of field elements (encode.hpp) and BigUint (bigint.hpp).
//
//  * little/big-endian bytes and decimal strings round-trip on random values
//    and match the published encodings of 0, 1 and p - 1;
//  * every decoder rejects values >= p and malformed decimal;
//  * BigUint's decimal conversion and arithmetic against GMP (when available).
//
// The seed comes from cuzk::test::test_seed() (CUZK_TEST_SEED replays a run).
#include <gtest/gtest.h>

#include "seed.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "cuzk/ff/bigint.hpp"
#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/ff/bn254.hpp"
#include "cuzk/ff/encode.hpp"

#if CUZK_TEST_HAVE_GMP
#include <gmp.h>
#include <gmpxx.h>
#endif


namespace {

using namespace cuzk::ff;
using cuzk::test::test_rng;


// The published moduli: decimal p and p - 1, and p as big-endian hex.
template <class F>
struct Spec;
template <>
struct Spec<bn254::Fq> {
  static constexpr const char* name = "bn254_fq";
  static constexpr const char* p_dec = "21888242871839275222246405745257275088696311157297823662689037894645226208583";
  static constexpr const char* pm1_dec = "21888242871839275222246405745257275088696311157297823662689037894645226208582";
  static constexpr const char* p_hex = "30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47";
};
template <>
struct Spec<bn254::Fr> {
  static constexpr const char* name = "bn254_fr";
  static constexpr const char* p_dec = "21888242871839275222246405745257275088548364400416034343698204186575808495617";
  static constexpr const char* pm1_dec = "21888242871839275222246405745257275088548364400416034343698204186575808495616";
  static constexpr const char* p_hex = "30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001";
};
template <>
struct Spec<bls12_381::Fq> {
  static constexpr const char* name = "bls12_381_fq";
  static constexpr const char* p_dec =
      "4002409555221667393417789825735904156556882819939007885332058136124031650490837864442687629129015664037894272559787";
  static constexpr const char* pm1_dec =
      "4002409555221667393417789825735904156556882819939007885332058136124031650490837864442687629129015664037894272559786";
  static constexpr const char* p_hex =
      "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab";
};
template <>
struct Spec<bls12_381::Fr> {
  static constexpr const char* name = "bls12_381_fr";
  static constexpr const char* p_dec = "52435875175126190479447740508185965837690552500527637822603658699938581184513";
  static constexpr const char* pm1_dec = "52435875175126190479447740508185965837690552500527637822603658699938581184512";
  static constexpr const char* p_hex = "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001";
};

struct FieldName {
  template <class F>
  static std::string GetName(int) {
    return Spec<F>::name;
  }
};

// Big-endian bytes from a hex string (even length, no prefix).
std::vector<uint8_t> hex_bytes(std::string_view h) {
  std::vector<uint8_t> out;
  auto nib = [](char c) { return (uint8_t)(c <= '9' ? c - '0' : c - 'a' + 10); };
  for (size_t i = 0; i + 1 < h.size(); i += 2) out.push_back((uint8_t)(nib(h[i]) << 4 | nib(h[i + 1])));
  return out;
}

// Adds k (|k| < 256) to a little-endian byte string, wrapping.
void add_le(std::vector<uint8_t>& v, int k) {
  int carry = k;
  for (auto& b : v) {
    const int s = b + carry;
    b = (uint8_t)(s & 0xff);
    carry = (s - (s & 0xff)) / 256;  // floor(s / 256): -1, 0 or 1
    if (carry == 0) break;
  }
}

template <class F>
class Encode : public ::testing::Test {
 protected:
  static constexpr size_t B = F::bytes;
  using Bytes = std::array<uint8_t, F::bytes>;

  static Bytes le(const F& x) {
    Bytes b;
    to_bytes_le(x, std::span<uint8_t, F::bytes>(b));
    return b;
  }
  static Bytes be(const F& x) {
    Bytes b;
    to_bytes_be(x, std::span<uint8_t, F::bytes>(b));
    return b;
  }
  static bool dec_le(const Bytes& b, F& x) { return from_bytes_le<F>(std::span<const uint8_t, F::bytes>(b), x); }
  static bool dec_be(const Bytes& b, F& x) { return from_bytes_be<F>(std::span<const uint8_t, F::bytes>(b), x); }
  // p as little-endian bytes, from the published hex.
  static std::vector<uint8_t> p_le() {
    auto v = hex_bytes(Spec<F>::p_hex);
    std::reverse(v.begin(), v.end());
    v.resize(B, 0);
    return v;
  }
  static Bytes to_array(const std::vector<uint8_t>& v) {
    Bytes b{};
    std::copy_n(v.begin(), B, b.begin());
    return b;
  }
  static Bytes reversed(Bytes b) {
    std::reverse(b.begin(), b.end());
    return b;
  }
};

using Fields = ::testing::Types<bn254::Fq, bn254::Fr, bls12_381::Fq, bls12_381::Fr>;
TYPED_TEST_SUITE(Encode, Fields, FieldName);

TYPED_TEST(Encode, KnownEncodings) {
  using F = TypeParam;
  using Bytes = typename TestFixture::Bytes;
  constexpr size_t B = F::bytes;
  Bytes zero{}, one{};
  one[0] = 1;
  EXPECT_EQ(this->le(F::zero()), zero);
  EXPECT_EQ(this->be(F::zero()), zero);
  EXPECT_EQ(this->le(F::one()), one);
  Bytes one_be{};
  one_be[B - 1] = 1;
  EXPECT_EQ(this->be(F::one()), one_be);
  EXPECT_EQ(to_decimal(F::zero()), "0");
  EXPECT_EQ(to_decimal(F::one()), "1");
  EXPECT_EQ(to_decimal(-F::one()), Spec<F>::pm1_dec);

  // p - 1 in bytes, from the published p.
  auto pm1 = this->p_le();
  add_le(pm1, -1);
  EXPECT_EQ(this->le(-F::one()), this->to_array(pm1));
  EXPECT_EQ(this->be(-F::one()), this->reversed(this->to_array(pm1)));

  // Decoding the known encodings.
  F x;
  ASSERT_TRUE(this->dec_le(one, x));
  EXPECT_EQ(x, F::one());
  ASSERT_TRUE(this->dec_be(one_be, x));
  EXPECT_EQ(x, F::one());
  ASSERT_TRUE(this->dec_le(zero, x));
  EXPECT_TRUE(x.is_zero());
  ASSERT_TRUE(this->dec_le(this->to_array(pm1), x));
  EXPECT_EQ(x, -F::one());
  ASSERT_TRUE(this->dec_be(this->reversed(this->to_array(pm1)), x));
  EXPECT_EQ(x, -F::one());
  ASSERT_TRUE(from_decimal(Spec<F>::pm1_dec, x));
  EXPECT_EQ(x, -F::one());
  ASSERT_TRUE(from_decimal("0", x));
  EXPECT_TRUE(x.is_zero());
  ASSERT_TRUE(from_decimal("1", x));
  EXPECT_EQ(x, F::one());
  ASSERT_TRUE(from_decimal("2", x));
  EXPECT_EQ(x, F::one() + F::one());

  // Small integers.
  for (uint64_t v : {0ull, 1ull, 2ull, 255ull, 256ull, 65535ull, 0xffffffffffffffffull, 10000000000000000000ull}) {
    const F f = F::from_uint(v);
    EXPECT_EQ(to_decimal(f), std::to_string(v));
    const auto b = this->le(f);
    for (size_t i = 0; i < B; ++i) EXPECT_EQ(b[i], i < 8 ? (uint8_t)(v >> (8 * i)) : 0) << v << " byte " << i;
    ASSERT_TRUE(from_decimal(std::to_string(v), x));
    EXPECT_EQ(x, f);
  }
}

TYPED_TEST(Encode, RoundTrips) {
  SEED_TRACE();
  using F = TypeParam;
  auto rng = test_rng();
  for (int i = 0; i < 3000; ++i) {
    F a = random_element<F>(rng);
    if (i == 0) a = F::zero();
    if (i == 1) a = -F::one();
    const auto l = this->le(a), b = this->be(a);
    ASSERT_EQ(b, this->reversed(l));
    F x = F::zero();
    ASSERT_TRUE(this->dec_le(l, x));
    ASSERT_EQ(x, a);
    x = F::zero();
    ASSERT_TRUE(this->dec_be(b, x));
    ASSERT_EQ(x, a);
    // Bytes are the canonical value, not the Montgomery form.
    uint64_t v[F::N];
    a.to_canonical(v);
    for (size_t j = 0; j < F::bytes; ++j) ASSERT_EQ(l[j], (uint8_t)(v[j / 8] >> (8 * (j % 8))));
    const std::string d = to_decimal(a);
    ASSERT_FALSE(d.empty());
    ASSERT_TRUE(d == "0" || d[0] != '0') << d;
    x = F::zero();
    ASSERT_TRUE(from_decimal(d, x)) << d;
    ASSERT_EQ(x, a) << d;
#if CUZK_TEST_HAVE_GMP
    mpz_class z;
    mpz_import(z.get_mpz_t(), F::bytes, -1, 1, 0, 0, l.data());
    ASSERT_EQ(d, z.get_str(10));
#endif
  }
}

TYPED_TEST(Encode, RejectsUnreducedBytes) {
  SEED_TRACE();
  using F = TypeParam;
  using Bytes = typename TestFixture::Bytes;
  constexpr size_t B = F::bytes;
  auto rng = test_rng();
  std::vector<Bytes> bad;
  auto p = this->p_le();
  bad.push_back(this->to_array(p));  // p
  auto p1 = p;
  add_le(p1, 1);
  bad.push_back(this->to_array(p1));  // p + 1
  Bytes ff;
  ff.fill(0xff);
  bad.push_back(ff);  // 2^(8B) - 1
  for (size_t i = 0; i < B; ++i) {  // p with one byte raised
    auto q = p;
    if (q[i] == 0xff) continue;
    ++q[i];
    bad.push_back(this->to_array(q));
  }
  for (int i = 0; i < 1000; ++i) {  // random values >= p
    Bytes r;
    for (auto& c : r) c = (uint8_t)rng();
    if (i % 2 == 0) {
      r[B - 1] = (uint8_t)(p[B - 1] + 1 + rng() % (255 - p[B - 1]));  // top byte above p's
    } else {
      // p's top bytes, then one byte above p's (where p's byte is not 0xff).
      const size_t j = B - 2 - rng() % (B - 1);
      for (size_t t = j + 1; t < B; ++t) r[t] = p[t];
      if (p[j] == 0xff) continue;
      r[j] = (uint8_t)(p[j] + 1 + rng() % (255 - p[j]));
    }
    bad.push_back(r);
  }
  for (const auto& b : bad) {
    F x;
    EXPECT_FALSE(this->dec_le(b, x));
    EXPECT_FALSE(this->dec_be(this->reversed(b), x));
  }
  // And p - 1, p - 2 are accepted.
  auto q = p;
  for (int k = 1; k <= 2; ++k) {
    add_le(q, -1);
    F x;
    EXPECT_TRUE(this->dec_le(this->to_array(q), x));
    EXPECT_TRUE(this->dec_be(this->reversed(this->to_array(q)), x));
    EXPECT_EQ(x, -F::from_uint(k));
  }
}

TYPED_TEST(Encode, RejectsUnreducedDecimal) {
  using F = TypeParam;
  const std::string p = Spec<F>::p_dec;
  F x = F::one();
  EXPECT_FALSE(from_decimal(p, x)) << "p";
  std::string p1 = p;
  ++p1.back();  // p + 1 (p's last digit is not 9 for these primes)
  ASSERT_NE(p.back(), '9');
  EXPECT_FALSE(from_decimal(p1, x)) << "p + 1";
  EXPECT_FALSE(from_decimal(p + "0", x)) << "10 p";
  // 2^(64N) - 1 and 2^(64N): no longer fit the limbs.
  BigUint top(1);
  for (size_t i = 0; i < F::N; ++i) top = top * BigUint(1ull << 32) * BigUint(1ull << 32);
  EXPECT_FALSE(from_decimal((top - BigUint(1)).to_decimal(), x)) << "2^(64N) - 1";
  EXPECT_FALSE(from_decimal(top.to_decimal(), x)) << "2^(64N)";
  EXPECT_FALSE(from_decimal(std::string(200, '9'), x));
  EXPECT_TRUE(from_decimal(Spec<F>::pm1_dec, x));
}

TYPED_TEST(Encode, RejectsMalformedDecimal) {
  using F = TypeParam;
  const std::string pm1 = Spec<F>::pm1_dec;
  for (std::string s :
       {std::string(""), std::string("-1"), std::string("-0"), std::string(" 1"), std::string("1 "),
        std::string("1a"), std::string("a1"), std::string("+1"), std::string("0x1"), std::string("1.0"),
        std::string("1e3"), std::string("1,000"), std::string("\t1"), std::string("1\n"), std::string("1\0", 2),
        std::string("\0" "1", 2), std::string("\xd9\xa1"), std::string("-") + pm1, std::string(" ") + pm1,
        pm1 + "x", std::string("+") + pm1, std::string("/"), std::string(":")}) {
    F x = F::one();
    EXPECT_FALSE(from_decimal(s, x)) << "accepted \"" << s << "\"";
    BigUint b;
    EXPECT_FALSE(BigUint::from_decimal(s, b)) << "BigUint accepted \"" << s << "\"";
  }
}

// ---------------------------------------------------------------------------
// BigUint.

std::vector<uint64_t> random_limbs(std::mt19937_64& rng, size_t n) {
  std::vector<uint64_t> v(n);
  for (auto& l : v) {
    switch (rng() % 6) {
      case 0: l = 0; break;
      case 1: l = ~0ull; break;
      case 2: l = rng() % 16; break;
      default: l = rng();
    }
  }
  return v;
}

TEST(BigUint, Basics) {
  EXPECT_TRUE(BigUint().is_zero());
  EXPECT_TRUE(BigUint(0).is_zero());
  EXPECT_EQ(BigUint().to_decimal(), "0");
  EXPECT_EQ(BigUint(0).bit_length(), 0u);
  EXPECT_EQ(BigUint(1).bit_length(), 1u);
  EXPECT_EQ(BigUint(~0ull).to_decimal(), "18446744073709551615");
  EXPECT_EQ((BigUint(~0ull) + BigUint(1)).to_decimal(), "18446744073709551616");
  EXPECT_EQ((BigUint(~0ull) + BigUint(1)).bit_length(), 65u);
  EXPECT_EQ(BigUint(~0ull) * BigUint(~0ull), BigUint(~0ull) * BigUint(~0ull - 1) + BigUint(~0ull));
  const uint64_t padded[3] = {5, 0, 0};
  EXPECT_EQ(BigUint::from_limbs(padded, 3), BigUint(5));
  EXPECT_EQ(BigUint::from_limbs(padded, 3).limbs().size(), 1u);
  BigUint b;
  ASSERT_TRUE(BigUint::from_decimal("000123", b));
  EXPECT_EQ(b, BigUint(123));
  ASSERT_TRUE(BigUint::from_decimal("0", b));
  EXPECT_TRUE(b.is_zero());
  uint64_t out[2] = {7, 7};
  EXPECT_TRUE(BigUint().to_limbs(out, 2));
  EXPECT_EQ(out[0], 0u);
  EXPECT_EQ(out[1], 0u);
  EXPECT_FALSE((BigUint(~0ull) + BigUint(1)).to_limbs(out, 1));
  BigUint t(100);
  EXPECT_EQ(t.divmod_small(7), 2u);
  EXPECT_EQ(t, BigUint(14));
  EXPECT_EQ((BigUint(5) - BigUint(5)), BigUint());
}

#if CUZK_TEST_HAVE_GMP

mpz_class to_mpz(const BigUint& b) {
  mpz_class z;
  const auto& l = b.limbs();
  if (!l.empty()) mpz_import(z.get_mpz_t(), l.size(), -1, 8, 0, 0, l.data());
  return z;
}
std::vector<uint64_t> mpz_limbs(const mpz_class& z) {
  std::vector<uint64_t> v((mpz_sizeinbase(z.get_mpz_t(), 2) + 63) / 64 + 1);
  size_t count = 0;
  if (sgn(z) != 0) mpz_export(v.data(), &count, -1, 8, 0, 0, z.get_mpz_t());
  v.resize(count);
  return v;
}

TEST(BigUint, AgainstGmp) {
  SEED_TRACE();
  auto rng = test_rng();
  for (int i = 0; i < 10000; ++i) {
    const auto la = random_limbs(rng, rng() % 10), lb = random_limbs(rng, rng() % 10);
    const BigUint a = BigUint::from_limbs(la.data(), la.size()), b = BigUint::from_limbs(lb.data(), lb.size());
    mpz_class za, zb;
    if (!la.empty()) mpz_import(za.get_mpz_t(), la.size(), -1, 8, 0, 0, la.data());
    if (!lb.empty()) mpz_import(zb.get_mpz_t(), lb.size(), -1, 8, 0, 0, lb.data());
    ASSERT_EQ(a.limbs(), mpz_limbs(za)) << "from_limbs does not trim";
    ASSERT_EQ(a.is_zero(), za == 0);
    ASSERT_EQ(a.bit_length(), za == 0 ? 0 : mpz_sizeinbase(za.get_mpz_t(), 2));
    ASSERT_EQ(a == b, za == zb);

    // Decimal both ways.
    const std::string d = za.get_str(10);
    ASSERT_EQ(a.to_decimal(), d);
    BigUint back;
    ASSERT_TRUE(BigUint::from_decimal(d, back));
    ASSERT_EQ(back, a) << d;
    ASSERT_TRUE(BigUint::from_decimal("00" + d, back));
    ASSERT_EQ(back, a) << "00" << d;

    // Arithmetic.
    ASSERT_EQ(to_mpz(a + b), za + zb);
    ASSERT_EQ(to_mpz(a * b), za * zb);
    if (za >= zb) {
      ASSERT_EQ(to_mpz(a - b), za - zb);
    } else {
      ASSERT_EQ(to_mpz(b - a), zb - za);
    }
    ASSERT_TRUE((a - a).is_zero());
    static const uint64_t divisors[] = {1, 2, 3, 6, 10, 10000000000000000000ull, ~0ull, 1ull << 63};
    const uint64_t dv = rng() % 2 ? divisors[rng() % 8] : (rng() >> (rng() % 64)) | 1;
    BigUint q = a;
    const uint64_t r = q.divmod_small(dv);
    const mpz_class zd(std::to_string(dv), 10);
    ASSERT_EQ(to_mpz(q), mpz_class(za / zd)) << d << " / " << dv;
    ASSERT_EQ(mpz_class(std::to_string(r), 10), mpz_class(za % zd)) << d << " % " << dv;

    // to_limbs: fits exactly in limbs().size() limbs and not fewer.
    const size_t n = a.limbs().size();
    std::vector<uint64_t> out(n + 2, 0xdeadbeef);
    ASSERT_TRUE(a.to_limbs(out.data(), n + 2));
    std::vector<uint64_t> want = mpz_limbs(za);
    want.resize(n + 2, 0);
    ASSERT_EQ(out, want);
    if (n > 0) {
      ASSERT_FALSE(a.to_limbs(out.data(), n - 1));
    }
  }
}

TEST(BigUint, LongDecimalAgainstGmp) {
  SEED_TRACE();
  auto rng = test_rng();
  for (int i = 0; i < 200; ++i) {
    std::string s(1 + rng() % 400, '0');
    for (auto& c : s) c = (char)('0' + rng() % 10);
    BigUint b;
    ASSERT_TRUE(BigUint::from_decimal(s, b)) << s;
    const mpz_class z(s, 10);
    ASSERT_EQ(to_mpz(b), z) << s;
    ASSERT_EQ(b.to_decimal(), z.get_str(10));
  }
}

#endif  // CUZK_TEST_HAVE_GMP

}  // namespace
