// The serialisations of curve points against @noble/curves: the ZCash form of
// BLS12-381 G1 and G2 (noble's bytes exactly, and a table of malformed
// inputs) and BN254's uncompressed form; and the twist constants.
//
// Replay a failure with CUZK_TEST_SEED=<the printed seed>.
#include <span>
#include <stdexcept>

#include "curve_fixture.hpp"

namespace cuzk {
namespace {

// ---------------------------------------------------------------------------
// BLS12-381: the ZCash serialisation.

std::string to_hex(std::span<const uint8_t> b) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (uint8_t c : b) s += d[c >> 4], s += d[c & 15];
  return s;
}
std::vector<uint8_t> from_hex(const std::string& s) {
  auto nib = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    throw std::runtime_error("bad hex from the oracle");
  };
  if (s.size() % 2) throw std::runtime_error("odd hex length from the oracle");
  std::vector<uint8_t> out(s.size() / 2);
  for (size_t i = 0; i < out.size(); ++i) out[i] = (uint8_t)(nib(s[2 * i]) << 4 | nib(s[2 * i + 1]));
  return out;
}

template <class T>
class ZcashTest : public CurveTest<T> {
 protected:
  using C = typename T::C;
  using F = typename C::F;
  using A = ec::Affine<C>;
  static constexpr size_t NC = ec::zcash::compressed_size<C>;
  static constexpr size_t NU = ec::zcash::uncompressed_size<C>;

  static std::vector<uint8_t> compressed(const A& p) {
    std::array<uint8_t, NC> b;
    ec::zcash::encode_compressed<C>(p, b);
    return {b.begin(), b.end()};
  }
  static std::vector<uint8_t> uncompressed(const A& p) {
    std::array<uint8_t, NU> b;
    ec::zcash::encode_uncompressed<C>(p, b);
    return {b.begin(), b.end()};
  }
  static ec::DecodeError decode(const std::vector<uint8_t>& in, A& out, bool check_subgroup = true) {
    return ec::zcash::decode<C>(std::span<const uint8_t>(in), out, check_subgroup);
  }
  // A coordinate as ZCash writes it (Fq2: c1 || c0), 48 or 96 bytes.
  static std::vector<uint8_t> coord(const F& f) {
    std::vector<uint8_t> out(NC);
    ec::zcash::detail::write(f, out.data());
    return out;
  }
  static std::vector<uint8_t> fq_modulus_be() {
    using Fq = ff::bls12_381::Fq;
    std::vector<uint8_t> out(Fq::bytes);
    for (size_t i = 0; i < Fq::bytes; ++i) out[Fq::bytes - 1 - i] = (uint8_t)(Fq::params::modulus(i / 8) >> (8 * (i % 8)));
    return out;
  }
};

template <class T>
class Bn254Test : public CurveTest<T> {};

using Bls12Groups = ::testing::Types<Bls12G1, Bls12G2>;
using Bn254Groups = ::testing::Types<Bn254G1, Bn254G2>;
TYPED_TEST_SUITE(ZcashTest, Bls12Groups, GroupNames);
TYPED_TEST_SUITE(Bn254Test, Bn254Groups, GroupNames);

std::string decode_result(ec::DecodeError e) { return ec::describe(e); }

#define EXPECT_DECODE(got, want) EXPECT_EQ(decode_result(got), decode_result(want))

TYPED_TEST(ZcashTest, EncodingMatchesNoble) {
  using A = typename TestFixture::A;
  SCOPED_TRACE(this->trace());
  EXPECT_EQ(TestFixture::NC, TestFixture::NU / 2);
  EXPECT_EQ(TestFixture::NC, std::string(TypeParam::group) == "g1" ? 48u : 96u);
  for (const bool is_compressed : {false, true}) {
    const json& vs = this->vectors().at(is_compressed ? "compressed" : "uncompressed");
    ASSERT_GE(vs.size(), 2u);
    EXPECT_TRUE(this->parse(vs.back().at("p")).is_inf()) << "the oracle's last encoding vector is infinity";
    for (size_t i = 0; i < vs.size(); ++i) {
      SCOPED_TRACE(std::string(is_compressed ? "compressed" : "uncompressed") + " vector " + std::to_string(i));
      const A p = this->parse(vs[i].at("p"));
      const std::string hex = vs[i].at("hex").template get<std::string>();
      const auto bytes = is_compressed ? this->compressed(p) : this->uncompressed(p);
      EXPECT_EQ(to_hex(bytes), hex);
      A back = TypeParam::generator();
      EXPECT_DECODE(this->decode(from_hex(hex), back), ec::DecodeError::ok);
      EXPECT_TRUE(same(back, p));
      A back2 = TypeParam::generator();
      EXPECT_DECODE(this->decode(from_hex(hex), back2, false), ec::DecodeError::ok);
      EXPECT_TRUE(same(back2, p));
      if (p.is_inf()) {
        std::vector<uint8_t> want(is_compressed ? TestFixture::NC : TestFixture::NU, 0);
        want[0] = is_compressed ? 0xc0 : 0x40;
        EXPECT_EQ(to_hex(bytes), to_hex(want));
      } else if (is_compressed) {
        // flipping the sort flag gives -p
        auto flipped = from_hex(hex);
        flipped[0] ^= 0x20;
        A neg;
        EXPECT_DECODE(this->decode(flipped, neg), ec::DecodeError::ok);
        EXPECT_TRUE(same(neg, -p));
        EXPECT_EQ(to_hex(this->compressed(-p)), to_hex(flipped));
      }
    }
  }
  // Round trips of random subgroup points, both forms.
  for (const A& p : this->points(8)) {
    A back;
    EXPECT_DECODE(this->decode(this->compressed(p), back), ec::DecodeError::ok);
    EXPECT_TRUE(same(back, p));
    EXPECT_DECODE(this->decode(this->uncompressed(p), back), ec::DecodeError::ok);
    EXPECT_TRUE(same(back, p));
  }
}

TYPED_TEST(ZcashTest, DecodeRejectsBadInput) {
  using C = typename TestFixture::C;
  using F = typename TestFixture::F;
  using A = typename TestFixture::A;
  using E = ec::DecodeError;
  SCOPED_TRACE(this->trace());
  constexpr size_t NC = TestFixture::NC, NU = TestFixture::NU;
  const A p = this->mul(TypeParam::generator(), this->scalar());
  ASSERT_FALSE(p.is_inf());
  const auto enc_c = this->compressed(p), enc_u = this->uncompressed(p);
  std::vector<uint8_t> inf_c(NC, 0), inf_u(NU, 0);
  inf_c[0] = 0xc0, inf_u[0] = 0x40;

  struct Case {
    std::string what;
    std::vector<uint8_t> bytes;
    E want;
  };
  std::vector<Case> cases;
  auto with = [](std::vector<uint8_t> b, size_t i, uint8_t v) {
    b[i] = v;
    return b;
  };
  auto cat = [](std::vector<uint8_t> a, const std::vector<uint8_t>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  };

  // lengths
  cases.push_back({"empty", {}, E::bad_length});
  cases.push_back({"compressed, one byte short", {enc_c.begin(), enc_c.end() - 1}, E::bad_length});
  cases.push_back({"compressed, one byte long", cat(enc_c, {0}), E::bad_length});
  cases.push_back({"uncompressed, one byte short", {enc_u.begin(), enc_u.end() - 1}, E::bad_length});
  cases.push_back({"uncompressed, one byte long", cat(enc_u, {0}), E::bad_length});
  cases.push_back({"infinity, one byte long", cat(inf_c, {0}), E::bad_length});
  // flags
  cases.push_back({"compressed flag on an uncompressed-length string", with(enc_u, 0, enc_u[0] | 0x80), E::bad_flags});
  cases.push_back({"compressed flag clear on a compressed-length string", with(enc_c, 0, enc_c[0] & 0x7f), E::bad_flags});
  cases.push_back({"compressed infinity with a non-zero last byte", with(inf_c, NC - 1, 1), E::bad_flags});
  cases.push_back({"compressed infinity with a non-zero low first byte", with(inf_c, 0, 0xc1), E::bad_flags});
  cases.push_back({"uncompressed infinity with a non-zero y byte", with(inf_u, NC, 1), E::bad_flags});
  cases.push_back({"uncompressed infinity with a non-zero last byte", with(inf_u, NU - 1, 0x80), E::bad_flags});
  cases.push_back({"infinity flag on a real compressed point", with(enc_c, 0, enc_c[0] | 0x40), E::bad_flags});
  cases.push_back({"infinity flag on a real uncompressed point", with(enc_u, 0, enc_u[0] | 0x40), E::bad_flags});
  cases.push_back({"compressed infinity with the sort flag", with(inf_c, 0, 0xe0), E::bad_flags});
  cases.push_back({"uncompressed infinity with the sort flag", with(inf_u, 0, 0x60), E::bad_flags});
  cases.push_back({"sort flag on an uncompressed point", with(enc_u, 0, enc_u[0] | 0x20), E::bad_flags});
  // non-canonical coordinates
  {
    std::vector<uint8_t> c(NC, 0xff);
    c[0] = 0x9f;  // compressed, no other flag, 0x1f after masking
    cases.push_back({"compressed x = 1fff..ff", c, E::not_canonical});
    cases.push_back({"compressed x = 1fff..ff with the sort flag", with(c, 0, 0xbf), E::not_canonical});
    std::vector<uint8_t> u = cat(with(std::vector<uint8_t>(NC, 0xff), 0, 0x1f), this->coord(p.y));
    cases.push_back({"uncompressed x = 1fff..ff", u, E::not_canonical});
  }
  const auto pbe = TestFixture::fq_modulus_be();  // p, 48 bytes big-endian
  {
    // x = p exactly (every Fq limb of x is p for G1; for G2 each half in turn)
    const auto x = this->coord(p.x);
    if constexpr (is_ext<F>) {
      auto hi = cat(pbe, std::vector<uint8_t>(x.begin() + 48, x.end()));  // x.c1 = p
      auto lo = cat(std::vector<uint8_t>(x.begin(), x.begin() + 48), pbe);  // x.c0 = p
      cases.push_back({"compressed x.c1 = p", with(hi, 0, hi[0] | 0x80), E::not_canonical});
      cases.push_back({"compressed x.c0 = p", with(lo, 0, lo[0] | 0x80), E::not_canonical});
      cases.push_back({"compressed x.c0 = ff..ff", with(cat(std::vector<uint8_t>(x.begin(), x.begin() + 48), std::vector<uint8_t>(48, 0xff)), 0, x[0] | 0x80), E::not_canonical});
      cases.push_back({"uncompressed x.c1 = p", cat(hi, this->coord(p.y)), E::not_canonical});
      cases.push_back({"uncompressed x.c0 = p", cat(lo, this->coord(p.y)), E::not_canonical});
      const auto y = this->coord(p.y);
      cases.push_back({"uncompressed y.c1 = p", cat(x, cat(pbe, std::vector<uint8_t>(y.begin() + 48, y.end()))), E::not_canonical});
      cases.push_back({"uncompressed y.c0 = p", cat(x, cat(std::vector<uint8_t>(y.begin(), y.begin() + 48), pbe)), E::not_canonical});
    } else {
      cases.push_back({"compressed x = p", with(pbe, 0, pbe[0] | 0x80), E::not_canonical});
      cases.push_back({"uncompressed x = p", cat(pbe, this->coord(p.y)), E::not_canonical});
      cases.push_back({"uncompressed y = p", cat(x, pbe), E::not_canonical});
      cases.push_back({"uncompressed y = ff..ff", cat(x, std::vector<uint8_t>(NC, 0xff)), E::not_canonical});
    }
  }
  // x with no point on the curve: the first x = 1, 2, ... with x^3 + b a non-square
  {
    uint64_t k = 1;
    F y;
    while ((small<F>(k).sqr() * small<F>(k) + C::b()).sqrt(y)) ++k;
    ASSERT_LT(k, 1000u);
    auto c = this->coord(small<F>(k));
    c[0] |= 0x80;
    cases.push_back({"compressed x = " + std::to_string(k) + " (x^3 + b a non-square)", c, E::not_on_curve});
    cases.push_back({"the same with the sort flag", with(c, 0, c[0] | 0x20), E::not_on_curve});
  }
  // uncompressed points off the curve
  cases.push_back({"uncompressed, y + 1", cat(this->coord(p.x), this->coord(p.y + F::one())), E::not_on_curve});
  cases.push_back({"uncompressed, x + 1", cat(this->coord(p.x + F::one()), this->coord(p.y)), E::not_on_curve});
  cases.push_back({"uncompressed, y = 0", cat(this->coord(p.x), this->coord(F::zero())), E::not_on_curve});
  cases.push_back({"uncompressed, x = 0 and y = 0 without the infinity flag", std::vector<uint8_t>(NU, 0), E::not_on_curve});

  for (const auto& c : cases) {
    SCOPED_TRACE(c.what + ": " + to_hex(c.bytes));
    for (const bool check : {true, false}) {
      A out = TypeParam::generator();
      EXPECT_DECODE(this->decode(c.bytes, out, check), c.want) << "check_subgroup=" << check;
      EXPECT_TRUE(same(out, TypeParam::generator())) << "a failed decode wrote its output";
    }
  }

  // x = 0 compressed: a curve point (0, +-sqrt(b)) exists for G1 (of order 3,
  // outside the subgroup), none for G2 (b = 4 + 4u is a non-square).
  {
    std::vector<uint8_t> c(NC, 0);
    c[0] = 0x80;
    A out;
    F y;
    if (C::b().sqrt(y)) {
      EXPECT_DECODE(this->decode(c, out), E::not_in_subgroup);
      EXPECT_DECODE(this->decode(c, out, false), E::ok);
      EXPECT_TRUE(out.on_curve());
      EXPECT_FALSE(out.is_inf());
      EXPECT_TRUE(out.x.is_zero());
    } else {
      EXPECT_DECODE(this->decode(c, out), E::not_on_curve);
    }
  }
}

// The oracle's points outside the subgroup, in both forms from our encoder.
TYPED_TEST(ZcashTest, NonSubgroupPoints) {
  using A = typename TestFixture::A;
  using E = ec::DecodeError;
  SCOPED_TRACE(this->trace());
  const json& ns = this->vectors().at("non_subgroup");
  ASSERT_GE(ns.size(), 1u);
  for (size_t i = 0; i < ns.size(); ++i) {
    SCOPED_TRACE("non-subgroup point " + std::to_string(i));
    const A p = this->parse(ns[i]);
    for (const auto& bytes : {this->compressed(p), this->uncompressed(p)}) {
      SCOPED_TRACE(to_hex(bytes));
      A out = TypeParam::generator();
      EXPECT_DECODE(this->decode(bytes, out), E::not_in_subgroup);
      EXPECT_TRUE(same(out, TypeParam::generator()));
      EXPECT_DECODE(this->decode(bytes, out, false), E::ok);
      EXPECT_TRUE(same(out, p));
    }
    auto flipped = this->compressed(p);
    flipped[0] ^= 0x20;
    A out;
    EXPECT_DECODE(this->decode(flipped, out, false), E::ok);
    EXPECT_TRUE(same(out, -p));
  }
}

// Random strings never crash; whatever decodes is a valid point that encodes
// back to exactly the input (every accepted encoding is canonical).
TYPED_TEST(ZcashTest, RandomBytes) {
  using A = typename TestFixture::A;
  using E = ec::DecodeError;
  SCOPED_TRACE(this->trace());
  constexpr size_t NC = TestFixture::NC, NU = TestFixture::NU;
  std::uniform_int_distribution<int> byte(0, 255);
  int decoded = 0, decoded_unchecked = 0;
  for (const size_t n : {NC, NU}) {
    for (int i = 0; i < 1200; ++i) {
      std::vector<uint8_t> b(n);
      for (auto& c : b) c = (uint8_t)byte(this->rng_);
      if (i >= 1000) {
        // 200 more with plausible flags and a top byte below p's, so that the
        // curve equation and the subgroup check are reached
        b[0] = (uint8_t)((n == NC ? 0x80 : 0) | (n == NC ? (b[0] & 0x20) : 0) | (b[0] % 0x1a));
        if constexpr (is_ext<typename TestFixture::F>) b[48] %= 0x1a;
      }
      SCOPED_TRACE(to_hex(b));
      A out, out_unchecked;
      const E e = this->decode(b, out), eu = this->decode(b, out_unchecked, false);
      if (eu != E::ok) {
        EXPECT_DECODE(e, eu);
        continue;
      }
      ++decoded_unchecked;
      EXPECT_TRUE(out_unchecked.on_curve());
      EXPECT_EQ(to_hex(n == NC ? this->compressed(out_unchecked) : this->uncompressed(out_unchecked)), to_hex(b));
      if (e == E::ok) {
        ++decoded;
        EXPECT_TRUE(same(out, out_unchecked));
        EXPECT_TRUE(ec::in_subgroup(out));
      } else {
        EXPECT_DECODE(e, E::not_in_subgroup);
      }
    }
  }
  // random compressed x has a curve point about half the time
  EXPECT_GE(decoded_unchecked, 20);
  this->RecordProperty("decoded", decoded);
}

// ---------------------------------------------------------------------------
// BN254: noble's SEC1-style uncompressed form 04 || x || y (Fq2 as c0 || c1).

template <class F>
std::string be_hex(const F& f) {
  if constexpr (is_ext<F>) {
    return be_hex(f.c0) + be_hex(f.c1);
  } else {
    std::array<uint8_t, F::bytes> b;
    ff::to_bytes_be(f, std::span<uint8_t, F::bytes>(b));
    return to_hex(b);
  }
}

TYPED_TEST(Bn254Test, UncompressedMatchesNoble) {
  using A = typename TestFixture::A;
  SCOPED_TRACE(this->trace());
  const json& vs = this->vectors().at("uncompressed");
  ASSERT_GE(vs.size(), 2u);
  int finite = 0;
  for (size_t i = 0; i < vs.size(); ++i) {
    SCOPED_TRACE("uncompressed vector " + std::to_string(i));
    const A p = this->parse(vs[i].at("p"));
    const std::string hex = vs[i].at("hex").template get<std::string>();
    if (p.is_inf()) {
      EXPECT_EQ(hex, "00");
      continue;
    }
    ++finite;
    EXPECT_EQ(hex, "04" + be_hex(p.x) + be_hex(p.y));
    EXPECT_EQ(hex.size(), 2 + 4 * sizeof(typename TestFixture::F));
  }
  EXPECT_GE(finite, 1);
  EXPECT_TRUE(this->parse(vs.back().at("p")).is_inf());
}

// The twist constants are literals in the headers; they must be b/xi (BN254,
// D-type) and b*xi (BLS12-381, M-type) for the tower's xi.
TEST(TwistConstant, MatchesXi) {
  using ff::bn254::Fq;
  EXPECT_EQ(ec::bn254::G2::b() * ff::bn254::Tower::xi(), (ff::bn254::Fq2{Fq::from_uint(3), Fq::zero()}));
  using Fq381 = ff::bls12_381::Fq;
  EXPECT_EQ(ec::bls12_381::G2::b(), (ff::bls12_381::Fq2{Fq381::from_uint(4), Fq381::zero()} * ff::bls12_381::Tower::xi()));
}

}  // namespace
}  // namespace cuzk
