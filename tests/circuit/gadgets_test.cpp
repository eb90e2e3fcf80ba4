// Gadgets against plain references: MiMC against tests/oracle/mimc.py (and
// the facts its definition rests on), bit decomposition and packing, and the
// boolean operations.
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "circuit_test_support.hpp"
#include "cuzk/circuit/gadgets/bits.hpp"
#include "cuzk/circuit/gadgets/mimc.hpp"
#include "cuzk/circuit/tamper.hpp"
#include "cuzk/ff/bigint.hpp"
#include "seed.hpp"

namespace cuzk::test {
namespace {

using circuit::Boolean;
using circuit::Variable;
using ff::BigUint;

template <class E>
struct Gadgets : ::testing::Test {
  using Fr = typename E::Fr;
  std::mt19937_64 rng = test_rng();
  Fr random() { return ff::random_element<Fr>(rng); }
};
TYPED_TEST_SUITE(Gadgets, Curves);

template <class Fr>
BigUint modulus() {
  uint64_t p[Fr::N];
  for (size_t i = 0; i < Fr::N; ++i) p[i] = Fr::params::modulus(i);
  return BigUint::from_limbs(p, Fr::N);
}

bool less(const BigUint& a, const BigUint& b) {
  const auto &x = a.limbs(), &y = b.limbs();
  if (x.size() != y.size()) return x.size() < y.size();
  return std::lexicographical_compare(x.rbegin(), x.rend(), y.rbegin(), y.rend());
}

BigUint power(uint64_t base, unsigned e) {
  BigUint r(1);
  for (unsigned i = 0; i < e; ++i) r = r * BigUint(base);
  return r;
}

// gcd(5, p − 1) = 1, shown by inverting x^5: with d = 5^-1 mod (p − 1),
// (x^5)^d = x for every x.
TYPED_TEST(Gadgets, Pow5IsAPermutation) {
  SEED_TRACE();
  using Fr = typename TestFixture::Fr;
  const BigUint pm1 = modulus<Fr>() - BigUint(1);
  BigUint rem = pm1;
  ASSERT_NE(rem.divmod_small(5), 0u) << "5 divides p - 1";
  std::vector<uint64_t> d;
  for (uint64_t k = 1; k < 5; ++k) {
    BigUint t = BigUint(k) * pm1 + BigUint(1);
    if (BigUint(t).divmod_small(5) == 0) {
      t.divmod_small(5);
      d = t.limbs();
      break;
    }
  }
  ASSERT_FALSE(d.empty());
  for (int i = 0; i < 20; ++i) {
    const Fr x = this->random();
    EXPECT_EQ(circuit::mimc::pow5(x).pow(d.data(), d.size()), x);
  }
}

TYPED_TEST(Gadgets, RoundsAreCeilLog5OfModulus) {
  const BigUint p = modulus<typename TestFixture::Fr>();
  EXPECT_TRUE(less(power(5, circuit::mimc::rounds - 1), p));
  EXPECT_TRUE(less(p, power(5, circuit::mimc::rounds)));
}

// c_i's canonical limbs are SplitMix64 outputs (seeded.hpp), top limb cut.
TYPED_TEST(Gadgets, ConstantsFollowTheDocumentedSeed) {
  using Fr = typename TestFixture::Fr;
  const auto& c = circuit::mimc::constants<Fr>();
  for (unsigned i : {0u, 1u, 57u, circuit::mimc::rounds - 1}) {
    uint64_t v[Fr::N];
    c[i].to_canonical(v);
    for (unsigned j = 0; j < Fr::N; ++j) {
      uint64_t want = circuit::splitmix64(0x6d696d6335 + (4 * i + j + 1) * 0x9e3779b97f4a7c15ull);
      if (j == Fr::N - 1) want &= ~0ull >> (64 * Fr::N - Fr::bits + 1);
      EXPECT_EQ(v[j], want) << "c_" << i << " limb " << j;
    }
  }
  EXPECT_NE(c[0], c[1]);
}

// The gadget and the C++ reference against tests/oracle/mimc.py, for random
// x and k, from no round to past the constants' wrap, and at x = k = 0 and
// x = k = −1.
TYPED_TEST(Gadgets, MimcMatchesTheOracle) {
  SEED_TRACE();
  using Fr = typename TestFixture::Fr;
  std::vector<std::tuple<Fr, Fr, uint64_t>> in;
  for (uint64_t n : {uint64_t(0), uint64_t(1), uint64_t(7), uint64_t(circuit::mimc::rounds), uint64_t(250)})
    in.emplace_back(this->random(), this->random(), n);
  in.emplace_back(Fr::zero(), Fr::zero(), circuit::mimc::rounds);
  in.emplace_back(-Fr::one(), -Fr::one(), 3);
  const std::vector<Fr> want = mimc_oracle<TypeParam>(in);
  for (size_t i = 0; i < in.size(); ++i) {
    const auto& [x, k, n] = in[i];
    SCOPED_TRACE("x = " + ff::to_decimal(x) + ", k = " + ff::to_decimal(k) + ", n = " + std::to_string(n));
    Variable out{};
    const auto c = circuit_of<TypeParam>([&](auto& cs) {
      const Variable vx = cs.alloc("x", [&](const auto&) { return x; });
      const Variable vk = cs.alloc_input("k", [&](const auto&) { return k; });
      out = circuit::mimc::iterate(cs, vx, vk, n);
    });
    const auto s = synthesize(c);
    EXPECT_EQ(s.shape.n_constraints, 3 * n);
    EXPECT_EQ(s.value(out), want[i]);
    EXPECT_EQ(circuit::mimc::iterate(x, k, n), want[i]);
  }
  const auto& [x, k, n] = in[3];  // n = rounds
  EXPECT_EQ(circuit::mimc::encrypt(x, k), want[3]);
  EXPECT_NE(circuit::mimc::encrypt(x, k), circuit::mimc::encrypt(x + Fr::one(), k));
}

// to_bits of x as a circuit: the bits (read from w) and whether it held.
template <class E>
std::vector<typename E::Fr> bits_of(const typename E::Fr& x, size_t n) {
  std::vector<Boolean> bits(n);
  const auto c = circuit_of<E>([&](auto& cs) {
    const Variable vx = cs.alloc_input("x", [&](const auto&) { return x; });
    circuit::to_bits(cs, vx, std::span(bits));
  });
  const auto s = synthesize(c);
  std::vector<typename E::Fr> out;
  for (const Boolean& b : bits) out.push_back(s.value(b.var));
  return out;
}

TYPED_TEST(Gadgets, BitsRecomposeAndAreBoolean) {
  SEED_TRACE();
  using Fr = typename TestFixture::Fr;
  for (size_t n : {size_t(1), size_t(8), size_t(64), size_t(200), size_t(Fr::bits - 1), size_t(Fr::bits)}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    Fr x = this->random();
    if (n < Fr::bits) {  // keep the low n bits
      uint64_t v[Fr::N];
      x.to_canonical(v);
      for (size_t i = n; i < 64 * Fr::N; ++i) v[i / 64] &= ~(uint64_t(1) << (i % 64));
      x = Fr::from_canonical_unchecked(v);
    }
    const auto bits = bits_of<TypeParam>(x, n);
    Fr sum = Fr::zero(), pow = Fr::one();
    for (const Fr& b : bits) {
      ASSERT_TRUE(b.is_zero() || b.is_one());
      sum += b * pow;
      pow = pow.dbl();
    }
    EXPECT_EQ(sum, x);
  }
}

TYPED_TEST(Gadgets, BitsRejectOutOfRange) {
  using Fr = typename TestFixture::Fr;
  EXPECT_THROW(bits_of<TypeParam>(Fr::from_uint(256), 8), circuit::Unsatisfied);
  EXPECT_NO_THROW(bits_of<TypeParam>(Fr::from_uint(255), 8));
  EXPECT_THROW(bits_of<TypeParam>(-Fr::one(), Fr::bits - 1), circuit::Unsatisfied);
  EXPECT_THROW(bits_of<TypeParam>(Fr::one(), 0), std::invalid_argument);
  EXPECT_THROW(bits_of<TypeParam>(Fr::one(), Fr::bits + 1), std::invalid_argument);
}

// Every operation on every combination of inputs, plain and negated, and a
// bit forced to 2 fails its boolean constraint.
TYPED_TEST(Gadgets, BooleanOperations) {
  using Fr = typename TestFixture::Fr;
  for (int x = 0; x < 2; ++x)
    for (int y = 0; y < 2; ++y)
      for (int neg = 0; neg < 4; ++neg) {
        Boolean r_and{}, r_xor{}, r_not{}, r_const{};
        std::pair<Variable, Variable> rev;
        Variable vp{}, vq{};
        const auto c = circuit_of<TypeParam>([&](auto& cs) {
          Boolean a = circuit::alloc_bit(cs, "a", [&](const auto&) { return x == 1; });
          Boolean b = circuit::alloc_bit(cs, "b", [&](const auto&) { return y == 1; });
          if (neg & 1) a = !a;
          if (neg & 2) b = !b;
          r_and = circuit::bit_and(cs, a, b);
          r_xor = circuit::bit_xor(cs, a, b);
          r_not = !a;
          r_const = circuit::bit_xor(cs, b, Boolean::constant(false));
          vp = cs.alloc("p", [&](const auto&) { return Fr::from_uint(11); });
          vq = cs.alloc("q", [&](const auto&) { return Fr::from_uint(22); });
          rev = circuit::conditionally_reverse(cs, vp, vq, a);
        });
        const auto s = synthesize(c);
        const bool a = (x == 1) != bool(neg & 1), b = (y == 1) != bool(neg & 2);
        const auto bit = [&](Boolean r) { return s.value(r.var) == (r.negated ? Fr::zero() : Fr::one()); };
        SCOPED_TRACE(std::to_string(a) + " " + std::to_string(b));
        EXPECT_EQ(bit(r_and), a && b);
        EXPECT_EQ(bit(r_xor), a != b);
        EXPECT_EQ(bit(r_not), !a);
        EXPECT_EQ(bit(r_const), b);
        EXPECT_EQ(s.value(rev.first), Fr::from_uint(a ? 22 : 11));
        EXPECT_EQ(s.value(rev.second), Fr::from_uint(a ? 11 : 22));
        const auto m = circuit::constraint_matrices(c);
        EXPECT_EQ(first_unsatisfied(m, std::span<const Fr>(s.w)), std::nullopt);
      }
  const auto one_bit = circuit_of<TypeParam>([](auto& cs) {
    circuit::alloc_bit(cs, "the bit", [](const auto&) { return true; });
  });
  EXPECT_THROW(synthesize(circuit::Tampered{one_bit, 0}), circuit::Unsatisfied);
}

TYPED_TEST(Gadgets, PackMatchesBits) {
  SEED_TRACE();
  using Fr = typename TestFixture::Fr;
  std::vector<bool> pattern(Fr::bits);
  for (size_t i = 0; i < pattern.size(); ++i) pattern[i] = this->rng() & 1;
  Variable packed{};
  const auto c = circuit_of<TypeParam>([&](auto& cs) {
    std::vector<Boolean> bits;
    for (size_t i = 0; i < pattern.size(); ++i)
      bits.push_back(circuit::alloc_bit(cs, "b", [&](const auto&) { return bool(pattern[i]); }));
    packed = circuit::pack(cs, std::span<const Boolean>(bits));
  });
  Fr want = Fr::zero();
  for (size_t i = pattern.size(); i-- > 0;) want = want.dbl() + (pattern[i] ? Fr::one() : Fr::zero());
  EXPECT_EQ(synthesize(c).value(packed), want);
}

}  // namespace
}  // namespace cuzk::test
