// First: it asks for the multiplication as a called function before any
// field header is read (CUZK_DEVICE_MUL_NOINLINE).
#include "curve_device_test.cuh"
#include "cuzk/ec/bn254.hpp"

namespace cuzk::test {
namespace {

TEST(DeviceCurveBn254, G1MatchesHost) { expect_curve_ops_match_host(ec::bn254::g1_generator()); }
TEST(DeviceCurveBn254, G2MatchesHost) { expect_curve_ops_match_host(ec::bn254::g2_generator()); }

}  // namespace
}  // namespace cuzk::test
