// First: it asks for the multiplication as a called function before any
// field header is read (CUZK_DEVICE_MUL_NOINLINE).
#include "curve_device_test.cuh"
#include "cuzk/ec/bls12_381.hpp"

namespace cuzk::test {
namespace {

TEST(DeviceCurveBls12381, G1MatchesHost) { expect_curve_ops_match_host(ec::bls12_381::g1_generator()); }
TEST(DeviceCurveBls12381, G2MatchesHost) { expect_curve_ops_match_host(ec::bls12_381::g2_generator()); }

}  // namespace
}  // namespace cuzk::test
