// A key read with its point checks deferred (a one-shot proof's) is checked
// on the GPU once uploaded: a good key is vouched for there (the host never
// checks it), a bad one fails with the message the key's reader gives, on
// both curves, resident and streamed (streamed points are checked on the
// host first); and the device's search finds the lowest bad index of many
// points, each fault check_point names.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "../io/io_test_support.hpp"
#include "cuzk/circuit/examples/partition.hpp"
#include "cuzk/circuit/matrices.hpp"
#include "cuzk/cuda/runtime.hpp"
#include "cuzk/ec/point_check_cuda.hpp"
#include "cuzk/groth16/prover_cuda.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/io/zkey.hpp"
#include "cuzk/io/zkey_writer.hpp"

namespace cuzk::test {
namespace {

namespace gpu = groth16::gpu;

template <class E>
struct Deferred {
  io::Zkey zkey;
  groth16::SharedKey<E> prepared;
  explicit Deferred(const fs::path& p)
      : zkey(io::Zkey::open(p, io::Residency::map, io::PointChecks::deferred)),
        prepared(groth16::PreparedKey<E>::make(zkey.share<E>())) {}
};

const gpu::DeviceKeyOptions kResident{}, kStreamed{true, 1000, false};

// A FormatError containing `expect` from a device key of the deferred key at `p`.
template <class E>
void expect_upload_fails(const fs::path& p, const gpu::DeviceKeyOptions& o, const std::string& expect) {
  const Deferred<E> key(p);
  try {
    gpu::DeviceKey<E> dk(key.prepared, 0, o);
    ADD_FAILURE() << "no error";
  } catch (const io::FormatError& e) {
    EXPECT_NE(std::string(e.what()).find(expect), std::string::npos) << e.what();
  }
  EXPECT_TRUE(key.prepared->points_unchecked());
}

template <class E>
void check_deferred_keys() {
  TempDir dir;
  const auto circuit = circuit::Partition<E>::for_constraints(3000, 11);
  const auto dev = groth16::dev_setup(circuit::constraint_matrices(circuit), groth16::ToxicWaste<E>::draw());
  io::write_zkey(dir / "good.zkey", dev.key);
  const size_t n8q = E::Fq::bytes, g1 = 2 * n8q, g2 = 4 * n8q, last_a = dev.key.a.size() - 1;
  for (const auto& o : {kResident, kStreamed}) {
    SCOPED_TRACE(o.streamed ? "streamed" : "resident");
    const Deferred<E> good(dir / "good.zkey");
    ASSERT_TRUE(good.prepared->points_unchecked());
    const gpu::DeviceKey<E> dk(good.prepared, 0, o);
    EXPECT_FALSE(good.prepared->points_unchecked()) << "the upload should have checked the points";
  }
  // Bytes written into a section at `at`; none: the byte there flipped.
  struct Edit {
    uint32_t section;
    size_t at;
    std::vector<uint8_t> bytes;
  };
  struct Fault {
    const char* name;
    std::vector<Edit> edits;
    std::string expect;
  };
  const std::vector<Fault> faults{
      {"b2_off_curve", {{7, 3 * g2 + 2 * n8q, {}}}, "section 7: B2 point 3 is not on the curve"},
      {"h_x_is_q", {{9, 5 * g1, modulus_bytes<typename E::Fq>()}}, "section 9: H point 5 has a coordinate ≥ q"},
      {"last_a_off_curve", {{5, last_a * g1 + n8q, {}}}, "section 5: A point " + std::to_string(last_a) + " is not on the curve"},
      // The first bad point in the sections' order (A, B1, B2, C, H) is named.
      {"c_then_b1", {{8, 0, {}}, {6, g1 + n8q, {}}}, "section 6: B1 point 1 is not on the curve"},
  };
  for (const Fault& f : faults) {
    SCOPED_TRACE(f.name);
    Container c = Container::load(dir / "good.zkey");
    for (const Edit& e : f.edits) {
      auto& data = c.section(e.section).data;
      if (e.bytes.empty())
        data[e.at] ^= 1;
      else
        std::copy(e.bytes.begin(), e.bytes.end(), data.begin() + e.at);
    }
    const fs::path p = dir / (std::string(f.name) + ".zkey");
    c.save(p);
    expect_upload_fails<E>(p, kResident, f.expect);
    expect_upload_fails<E>(p, kStreamed, f.expect);
  }
}

TEST(DeferredPointChecks, GpuUploadChecksTheKeyBn254) { check_deferred_keys<ec::Bn254>(); }
TEST(DeferredPointChecks, GpuUploadChecksTheKeyBls12381) { check_deferred_keys<ec::Bls12_381>(); }

// find_first_bad_point over 2^20 points (several strides of its grid): none
// bad leaves the word as it was; with faults at three places, of both kinds,
// the lowest index is the answer.
template <class C>
void check_search(const std::vector<ec::Affine<C>>& key_points) {
  std::vector<ec::Affine<C>> finite;  // so that (0, y) below is off the curve
  for (const auto& p : key_points)
    if (!p.is_inf()) finite.push_back(p);
  ASSERT_FALSE(finite.empty());
  std::vector<ec::Affine<C>> points(size_t(1) << 20);
  for (size_t i = 0; i < points.size(); ++i) points[i] = finite[i % finite.size()];
  cuda::DeviceBuffer<ec::Affine<C>> d(points.size());
  cuda::DeviceBuffer<unsigned long long> first(1);
  const auto search = [&] {
    d.upload(points);
    std::vector<unsigned long long> word{~0ull};
    first.upload(word);
    ec::gpu::find_first_bad_point(d.data(), points.size(), first.data(), nullptr);
    first.download(word);
    return word[0];
  };
  EXPECT_EQ(search(), ~0ull);
  const size_t late = points.size() - 1, middle = 700001, early = 300007;
  // The points' words, as a file holds them (a G2 coordinate is c0 then c1).
  const auto words = [](typename C::F& f) { return reinterpret_cast<uint64_t*>(&f); };
  words(points[late].y)[0] ^= 1;
  EXPECT_EQ(search(), late);
  std::fill(words(points[middle].x), words(points[middle].x) + sizeof(typename C::F) / 8, ~0ull);  // ≥ q
  EXPECT_EQ(search(), middle);
  points[early].x = C::F::zero();  // (0, y) with y != 0: off the curve
  EXPECT_EQ(search(), early);
}

TEST(DeferredPointChecks, DeviceSearchFindsTheLowestBadIndex) {
  const auto bn = groth16::dev_setup(circuit::constraint_matrices(circuit::Partition<ec::Bn254>::for_constraints(5000, 3)),
                                     groth16::ToxicWaste<ec::Bn254>::draw());
  check_search<ec::bn254::G1>(bn.h);
  check_search<ec::bn254::G2>(bn.b2);
  const auto bls = groth16::dev_setup(
      circuit::constraint_matrices(circuit::Partition<ec::Bls12_381>::for_constraints(5000, 3)),
      groth16::ToxicWaste<ec::Bls12_381>::draw());
  check_search<ec::bls12_381::G1>(bls.h);
  check_search<ec::bls12_381::G2>(bls.b2);
}

}  // namespace
}  // namespace cuzk::test
