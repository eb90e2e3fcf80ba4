// bellperson parameter files: a round trip through the writer and the reader,
// and a table of broken files, each refused with the offset of the fault.
#include "cuzk/io/bellperson.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "cuzk/ec/encoding.hpp"
#include "cuzk/ec/ops.hpp"
#include "cuzk/ec/random_points.hpp"
#include "io_test_support.hpp"
#include "seed.hpp"

namespace cuzk::test {
namespace {

using E = ec::Bls12_381;
using Params = io::BellpersonParams<E>;
constexpr size_t kG1 = 96, kG2 = 192;

// Points into a parameter file's vector, whatever the two vectors' allocators.
template <class To, class From>
void put(To& to, const From& from) {
  to.assign(from.begin(), from.end());
}

Params random_params(uint64_t seed) {
  const auto g1 = [&](size_t n, uint64_t s) { return ec::random_points(n, ec::generator<E::G1>(), seed + s); };
  const auto g2 = ec::random_points(8, ec::generator<E::G2>(), seed + 100);
  const auto vk = g1(3, 200);
  Params p;
  p.alpha1 = vk[0], p.beta1 = vk[1], p.delta1 = vk[2];
  p.beta2 = g2[5], p.gamma2 = g2[6], p.delta2 = g2[7];
  p.ic = g1(3, 1);
  put(p.h, g1(8, 2));
  put(p.l, g1(4, 3));
  put(p.a, g1(5, 4));
  put(p.b_g1, g1(5, 5));
  p.b_g2.assign(g2.begin(), g2.begin() + 5);
  return p;
}

// Where each part of random_params' file starts: a vector's count, then its points.
struct Layout {
  size_t alpha1 = 0, beta1 = 96, beta2 = 192, gamma2 = 384, delta1 = 576, delta2 = 672;
  size_t ic = 864, h = ic + 4 + 3 * kG1, l = h + 4 + 8 * kG1, a = l + 4 + 4 * kG1, b_g1 = a + 4 + 5 * kG1,
         b_g2 = b_g1 + 4 + 5 * kG1, end = b_g2 + 4 + 5 * kG2;
};
constexpr Layout kAt;

void put_be32(Bytes& b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = uint8_t(v >> (24 - 8 * i));
}

// n points on curve C outside its prime-order subgroup: the curve has points
// of many orders (the cofactor is large), so most x with x^3 + b a square give
// one; in_subgroup confirms each.
template <class C>
std::vector<ec::Affine<C>> non_subgroup_points(size_t n) {
  using F = typename C::F;
  std::vector<ec::Affine<C>> out;
  for (uint64_t i = 1; out.size() < n; ++i) {
    ec::Affine<C> p;
    if constexpr (requires { typename F::Base; })
      p.x = F{F::Base::from_uint(i), F::Base::one()};
    else
      p.x = F::from_uint(i);
    if ((p.x.sqr() * p.x + C::b()).sqrt(p.y) && !ec::in_subgroup(p)) out.push_back(p);
  }
  return out;
}

class BellpersonTest : public ::testing::Test {
 protected:
  void SetUp() override {
    params_ = random_params(test_seed());
    good_ = dir_ / "good.params";
    io::write_bellperson_params(good_, params_);
    bytes_ = read_bytes(good_);
  }
  TempDir dir_;
  Params params_;
  fs::path good_;
  Bytes bytes_;
};

TEST_F(BellpersonTest, RoundTrip) {
  SEED_TRACE();
  ASSERT_EQ(bytes_.size(), kAt.end);
  EXPECT_TRUE(io::read_bellperson_params(good_) == params_);
  EXPECT_TRUE(io::read_bellperson_params_bytes("request", bytes_) == params_);
  const fs::path again = dir_ / "again.params";
  io::write_bellperson_params(again, io::read_bellperson_params(good_));
  EXPECT_EQ(read_bytes(again), bytes_);
}

TEST_F(BellpersonTest, LayoutAsBellpersonWritesIt) {
  SEED_TRACE();
  // Counts are big-endian u32s at the offsets bellperson's write gives them.
  const auto be32 = [&](size_t at) {
    return uint32_t(bytes_[at]) << 24 | uint32_t(bytes_[at + 1]) << 16 | uint32_t(bytes_[at + 2]) << 8 | bytes_[at + 3];
  };
  EXPECT_EQ(be32(kAt.ic), 3u);
  EXPECT_EQ(be32(kAt.h), 8u);
  EXPECT_EQ(be32(kAt.l), 4u);
  EXPECT_EQ(be32(kAt.a), 5u);
  EXPECT_EQ(be32(kAt.b_g1), 5u);
  EXPECT_EQ(be32(kAt.b_g2), 5u);
  // Points are ZCash-encoded: an encoding of delta2 sits at its offset.
  uint8_t d2[kG2];
  ec::zcash::encode_uncompressed<E::G2>(params_.delta2, d2);
  EXPECT_TRUE(std::equal(d2, d2 + kG2, bytes_.begin() + kAt.delta2));
}

TEST_F(BellpersonTest, EmptyVectorsAndInfinityInTheVerifyingKey) {
  SEED_TRACE();
  Params p = params_;
  p.ic[1] = p.ic[1].infinity();
  p.alpha1 = p.alpha1.infinity();
  p.h.clear(), p.l.clear(), p.a.clear(), p.b_g1.clear(), p.b_g2.clear();
  const fs::path f = dir_ / "small.params";
  io::write_bellperson_params(f, p);
  EXPECT_EQ(fs::file_size(f), kAt.h + 5 * 4);
  EXPECT_TRUE(io::read_bellperson_params(f) == p);
}

TEST_F(BellpersonTest, WriterRefusesWhatBellpersonCannotRead) {
  Params p = params_;
  p.b_g2[4] = p.b_g2[4].infinity();
  const fs::path f = dir_ / "inf.params";
  try {
    io::write_bellperson_params(f, p);
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("b_g2 point 4 is the point at infinity"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(f));
  for (const auto& entry : fs::directory_iterator(dir_.path())) EXPECT_EQ(entry.path().extension(), ".params");
}

// Beyond kBellpersonSubgroupSample points a vector's subgroup check is a
// sample; a vector of bad points is caught all the same, at a sampled point.
TEST_F(BellpersonTest, SubgroupSampleOfALargeVector) {
  Params p = params_;
  put(p.b_g1, non_subgroup_points<E::G1>(io::kBellpersonSubgroupSample + 1));
  const fs::path f = dir_ / "outside.params";
  io::write_bellperson_params(f, p);
  expect_format_error(f.string(), [&] { io::read_bellperson_params(f); }, "point is not in the prime-order subgroup");
  // ic belongs to the verifying key: checked whole, the first bad point named
  p = params_;
  put(p.ic, random_params(test_seed() + 1).h);
  p.ic.back() = non_subgroup_points<E::G1>(1)[0];
  io::write_bellperson_params(f, p);
  expect_format_error(f.string(), [&] { io::read_bellperson_params(f); },
                      "offset " + std::to_string(kAt.ic + 4 + 7 * kG1) + ": ic point 7: point is not in the prime-order subgroup");
}

TEST_F(BellpersonTest, BrokenFilesNameTheOffset) {
  SEED_TRACE();
  const auto edited = [&](std::function<void(Bytes&)> edit) {
    return [this, edit](const fs::path& p) {
      Bytes b = bytes_;
      edit(b);
      write_bytes(p, b);
    };
  };
  const auto prefix = [&](size_t n) { return edited([n](Bytes& b) { b.resize(n); }); };
  const auto off = [](size_t at) { return "offset " + std::to_string(at) + ": "; };

  Bytes q = modulus_bytes<E::Fq>();
  std::reverse(q.begin(), q.end());  // big-endian, as the file stores it
  const auto non_g1 = non_subgroup_points<E::G1>(1)[0];
  const auto non_g2 = non_subgroup_points<E::G2>(1)[0];
  Bytes g2_in_h = bytes_;  // h's 8 points replaced by 4 G2 points: the same bytes
  for (size_t i = 0; i < 4; ++i)
    ec::zcash::encode_uncompressed<E::G2>(params_.b_g2[i], std::span<uint8_t, kG2>(g2_in_h.data() + kAt.h + 4 + i * kG2, kG2));
  std::mt19937_64 rng = test_rng();
  Bytes noise(kAt.end);
  for (auto& x : noise) x = uint8_t(rng());

  const std::vector<BadCase> cases = {
      {"missing", [](const fs::path&) {}, "cannot open: No such file or directory"},
      {"empty", prefix(0), off(0) + "truncated: alpha_g1 needs 96 bytes but 0 remain"},
      {"cut_in_alpha", prefix(50), off(0) + "truncated: alpha_g1 needs 96 bytes but 50 remain"},
      {"cut_in_gamma2", prefix(kAt.gamma2 + 191), off(kAt.gamma2) + "truncated: gamma_g2 needs 192 bytes"},
      {"cut_in_ic_count", prefix(kAt.ic + 2), off(kAt.ic) + "truncated: ic count needs 4 bytes but 2 remain"},
      {"cut_before_l", prefix(kAt.l), off(kAt.l) + "truncated: l count needs 4 bytes but 0 remain"},
      {"cut_in_h", prefix(kAt.h + 4 + 100), off(kAt.h) + "h claims 8 points (8 x 96 bytes) but 100 bytes remain"},
      {"cut_at_last_byte", prefix(kAt.end - 1), off(kAt.b_g2) + "b_g2 claims 5 points (5 x 192 bytes) but 959 bytes remain"},
      {"h_count_2_31", edited([](Bytes& b) { put_be32(b, kAt.h, 0x80000000u); }),
       off(kAt.h) + "h claims 2147483648 points (2147483648 x 96 bytes) but"},
      {"b_g2_count_max", edited([](Bytes& b) { put_be32(b, kAt.b_g2, 0xffffffffu); }),
       off(kAt.b_g2) + "b_g2 claims 4294967295 points (4294967295 x 192 bytes) but 960 bytes remain"},
      {"b_g2_count_up", edited([](Bytes& b) { put_be32(b, kAt.b_g2, 6); }), off(kAt.b_g2) + "b_g2 claims 6 points"},
      {"b_g2_count_down", edited([](Bytes& b) { put_be32(b, kAt.b_g2, 4); }),
       off(kAt.end - kG2) + "192 bytes after the last point (b_g2)"},
      // h one short: l's count is then read from h's last point, a coordinate's top bytes
      {"h_count_down", edited([](Bytes& b) { put_be32(b, kAt.h, 7); }), off(kAt.l - kG1) + "l claims"},
      {"trailing_byte", edited([](Bytes& b) { b.push_back(0); }), off(kAt.end) + "1 bytes after the last point"},
      {"compressed_flag", edited([](Bytes& b) { b[kAt.h + 4 + 2 * kG1] |= 0x80; }),
       off(kAt.h + 4 + 2 * kG1) + "h point 2: invalid flag bits"},
      {"sign_flag", edited([](Bytes& b) { b[kAt.alpha1] |= 0x20; }), off(kAt.alpha1) + "alpha_g1: invalid flag bits"},
      {"infinity_flag_with_bits", edited([](Bytes& b) { b[kAt.l + 4 + kG1] |= 0x40; }),
       off(kAt.l + 4 + kG1) + "l point 1: invalid flag bits"},
      {"infinity_in_a", edited([](Bytes& b) {
         std::fill_n(b.begin() + kAt.a + 4, kG1, 0);
         b[kAt.a + 4] = 0x40;
       }),
       off(kAt.a + 4) + "a point 0: the point at infinity, which bellperson refuses"},
      {"x_is_q", edited([&](Bytes& b) { std::copy(q.begin(), q.end(), b.begin() + kAt.b_g1 + 4 + 3 * kG1); }),
       off(kAt.b_g1 + 4 + 3 * kG1) + "b_g1 point 3: coordinate is not below the field modulus"},
      {"g2_c0_is_q", edited([&](Bytes& b) { std::copy(q.begin(), q.end(), b.begin() + kAt.delta2 + 48); }),
       off(kAt.delta2) + "delta_g2: coordinate is not below the field modulus"},
      {"off_curve", edited([](Bytes& b) { b[kAt.delta1 + kG1 - 1] ^= 1; }), off(kAt.delta1) + "delta_g1: point is not on the curve"},
      {"off_curve_g2", edited([](Bytes& b) { b[kAt.b_g2 + 4 + 5 * kG2 - 1] ^= 1; }),
       off(kAt.b_g2 + 4 + 4 * kG2) + "b_g2 point 4: point is not on the curve"},
      {"non_subgroup_g1", edited([&](Bytes& b) {
         ec::zcash::encode_uncompressed<E::G1>(non_g1, std::span<uint8_t, kG1>(b.data() + kAt.l + 4 + 2 * kG1, kG1));
       }),
       off(kAt.l + 4 + 2 * kG1) + "l point 2: point is not in the prime-order subgroup"},
      {"non_subgroup_g2", edited([&](Bytes& b) {
         ec::zcash::encode_uncompressed<E::G2>(non_g2, std::span<uint8_t, kG2>(b.data() + kAt.beta2, kG2));
       }),
       off(kAt.beta2) + "beta_g2: point is not in the prime-order subgroup"},
      {"g2_points_in_h", [&](const fs::path& p) { write_bytes(p, g2_in_h); },
       off(kAt.h + 4) + "h point 0: point is not on the curve"},
      {"random_bytes", [&](const fs::path& p) { write_bytes(p, noise); }, off(0) + "alpha_g1: "},
  };
  ASSERT_TRUE(non_g1.on_curve() && non_g2.on_curve());
  run_bad_cases(dir_, cases, [](const fs::path& p) { io::read_bellperson_params(p); }, ".params");
  run_bad_byte_cases(dir_, cases, [](const std::string& n, std::span<const uint8_t> b) { io::read_bellperson_params_bytes(n, b); },
                     ".params");
}

}  // namespace
}  // namespace cuzk::test
