// First: it asks for the multiplication as a called function before any
// field header is read (CUZK_DEVICE_MUL_NOINLINE).
#include "curve_device_test.cuh"
#include "cuzk/ec/bn254.hpp"

CUZK_CURVE_DEVICE_TESTS(DeviceCurveBn254, bn254)
