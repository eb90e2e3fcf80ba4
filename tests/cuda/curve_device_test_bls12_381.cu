// First: it asks for the multiplication as a called function before any
// field header is read (CUZK_DEVICE_MUL_NOINLINE).
#include "curve_device_test.cuh"
#include "cuzk/ec/bls12_381.hpp"

CUZK_CURVE_DEVICE_TESTS(DeviceCurveBls12381, bls12_381)
