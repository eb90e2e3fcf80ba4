// The points of a bellperson parameter file written by cuzk are what an
// independent implementation makes of them: @noble/curves' ZCash encodings of
// its own random points (tests/oracle/noble_vectors.mjs, "uncompressed") are
// the bytes cuzk writes for the same points, and cuzk reads them back as those
// points.
#include <gtest/gtest.h>

#include "cuzk/io/bellperson.hpp"
#include "io_test_support.hpp"
#include "noble.hpp"
#include "seed.hpp"

namespace cuzk::test {
namespace {

using E = ec::Bls12_381;

Bytes from_hex(const std::string& hex) {
  Bytes out(hex.size() / 2);
  for (size_t i = 0; i < out.size(); ++i) out[i] = uint8_t(std::stoi(hex.substr(2 * i, 2), nullptr, 16));
  return out;
}

// noble's uncompressed encodings of one group: finite points first, then infinity.
template <class C>
std::vector<std::pair<ec::Affine<C>, Bytes>> noble_encodings(const char* group) {
  std::vector<std::pair<ec::Affine<C>, Bytes>> out;
  for (const auto& v : noble_vectors(test_seed()).at("bls12_381").at(group).at("uncompressed"))
    out.emplace_back(parse_point<C>(v.at("p")), from_hex(v.at("hex").get<std::string>()));
  return out;
}

TEST(BellpersonNoble, FileHoldsNoblesEncodings) {
  SEED_TRACE();
  const auto g1 = noble_encodings<E::G1>("g1");
  const auto g2 = noble_encodings<E::G2>("g2");
  ASSERT_GE(g1.size(), 3u);
  ASSERT_GE(g2.size(), 4u);
  ASSERT_TRUE(g1.back().first.is_inf() && g2.back().first.is_inf());

  io::BellpersonParams<E> p;
  p.alpha1 = g1[0].first, p.beta1 = g1[1].first, p.delta1 = g1[2].first;
  p.beta2 = g2[0].first, p.gamma2 = g2[1].first, p.delta2 = g2[2].first;
  for (const auto& [pt, hex] : g1) p.ic.push_back(pt);  // infinity included: the vk allows it
  for (size_t i = 0; i + 1 < g1.size(); ++i) p.h.push_back(g1[i].first);
  for (size_t i = 0; i + 1 < g2.size(); ++i) p.b_g2.push_back(g2[i].first);

  TempDir dir;
  const fs::path f = dir / "noble.params";
  io::write_bellperson_params(f, p);
  const Bytes b = read_bytes(f);
  const auto at = [&](size_t off, const Bytes& want) {
    return off + want.size() <= b.size() && std::equal(want.begin(), want.end(), b.begin() + off);
  };
  EXPECT_TRUE(at(0, g1[0].second));
  EXPECT_TRUE(at(96, g1[1].second));
  EXPECT_TRUE(at(192, g2[0].second));
  EXPECT_TRUE(at(384, g2[1].second));
  EXPECT_TRUE(at(576, g1[2].second));
  EXPECT_TRUE(at(672, g2[2].second));
  size_t off = 864 + 4;
  for (size_t i = 0; i < g1.size(); ++i, off += 96) EXPECT_TRUE(at(off, g1[i].second)) << "ic " << i;
  off += 4;
  for (size_t i = 0; i + 1 < g1.size(); ++i, off += 96) EXPECT_TRUE(at(off, g1[i].second)) << "h " << i;
  off += 4 * 4;  // l, a, b_g1: empty
  for (size_t i = 0; i + 1 < g2.size(); ++i, off += 192) EXPECT_TRUE(at(off, g2[i].second)) << "b_g2 " << i;
  EXPECT_EQ(off, b.size());
  EXPECT_TRUE(io::read_bellperson_params(f) == p);
}

}  // namespace
}  // namespace cuzk::test
