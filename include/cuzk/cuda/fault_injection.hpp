// Test-only: a real device fault, for tests of what a service does when a GPU
// fails (issue: a GPU that faults leaves rotation and comes back only after a
// reset and a passing self-check).
#pragma once

namespace cuzk::cuda {

// Faults `device` as failing hardware would: a kernel writes through an
// invalid address, which leaves the device's context unusable (every later
// call on it answers cudaErrorIllegalAddress) until reset_device(). Waits
// until the fault has happened; never throws. A logical GPU that shares its
// CUDA device with others (runtime.hpp, CUZK_LOGICAL_GPUS) is failed alone
// instead, as a real fault would end their shared context: its proofs then
// fail as after a sticky error (cuda::logical_fault) until reset_device().
void inject_sticky_fault(int device);

}  // namespace cuzk::cuda
