#include <algorithm>
#include <map>
#include <mutex>
#include <sstream>

#include "cuzk/cuda/runtime.hpp"

namespace cuzk::cuda {

void throw_error(cudaError_t err, const char* what, const char* file, int line) {
  throw Error(std::string("CUDA error ") + cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ") in " + what +
              " at " + file + ":" + std::to_string(line));
}

int device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no device" error
    return 0;
  }
  return n;
}

std::vector<int> parse_gpus(const std::string& spec) {
  const int count = device_count();
  if (count == 0) throw std::invalid_argument("--gpus: this machine has no CUDA device");
  std::vector<int> out;
  if (spec.empty() || spec == "all") {
    for (int d = 0; d < count; ++d) out.push_back(d);
    return out;
  }
  std::stringstream in(spec);
  for (std::string item; std::getline(in, item, ',');) {
    size_t used = 0;
    int d = -1;
    try {
      d = std::stoi(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != item.size() || item.empty() || d < 0)
      throw std::invalid_argument("--gpus: '" + item + "' is not a device number");
    if (d >= count)
      throw std::invalid_argument("--gpus: device " + item + " does not exist (this machine has " +
                                  std::to_string(count) + ")");
    if (std::find(out.begin(), out.end(), d) != out.end())
      throw std::invalid_argument("--gpus: device " + item + " is listed twice");
    out.push_back(d);
  }
  return out;
}

DeviceScope::DeviceScope(int device) {
  CUZK_CUDA_CHECK(cudaGetDevice(&previous_));
  CUZK_CUDA_CHECK(cudaSetDevice(device));
}

DeviceScope::~DeviceScope() { cudaSetDevice(previous_); }

size_t free_device_memory() {
  size_t free = 0, total = 0;
  CUZK_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  return free;
}

namespace {

// Ranges this process has page-locked, by start: how many HostRegistrations
// hold each.
std::mutex registrations_mu;
std::map<const void*, size_t> registrations;

}  // namespace

HostRegistration::HostRegistration(const void* p, size_t bytes) {
  if (!p || !bytes) return;
  std::lock_guard lock(registrations_mu);
  if (auto it = registrations.find(p); it != registrations.end()) {
    ++it->second;
    p_ = p;
    return;
  }
  // Read-only: nothing writes a key's points.
  const cudaError_t err =
      cudaHostRegister(const_cast<void*>(p), bytes, cudaHostRegisterPortable | cudaHostRegisterReadOnly);
  if (err == cudaErrorHostMemoryAlreadyRegistered) {
    cudaGetLastError();
    return;
  }
  if (err != cudaSuccess) {
    cudaGetLastError();
    throw Error("cannot page-lock " + std::to_string(bytes >> 20) + " MiB of host memory for streaming (" +
                cudaGetErrorString(err) + ")");
  }
  registrations.emplace(p, 1);
  p_ = p;
}

HostRegistration::~HostRegistration() {
  if (!p_) return;
  std::lock_guard lock(registrations_mu);
  auto it = registrations.find(p_);
  if (--it->second == 0) {
    cudaHostUnregister(const_cast<void*>(p_));
    registrations.erase(it);
  }
}

}  // namespace cuzk::cuda
