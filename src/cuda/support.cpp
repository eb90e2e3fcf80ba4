#include "cuzk/cuda/support.hpp"

#include <algorithm>
#include <charconv>
#include <optional>
#include <vector>

namespace cuzk::cuda {

namespace {

// One image of a fat binary: sm_86 (SASS) or compute_75 (PTX), with an
// architecture-specific (a) or family-specific (f) suffix.
struct Image {
  std::string name;
  bool ptx = false;
  int major = 0, minor = 0;
  char suffix = 0;  // 0, 'a' or 'f'

  bool runs_on(int cc_major, int cc_minor) const {
    if (suffix == 'a') return cc_major == major && cc_minor == minor;
    if (ptx && suffix == 0) return cc_major > major || (cc_major == major && cc_minor >= minor);
    return cc_major == major && cc_minor >= minor;
  }
  int order() const { return major * 10 + minor; }
};

std::optional<Image> parse_image(std::string_view token) {
  Image im;
  im.name = std::string(token);
  if (token.starts_with("sm_")) token.remove_prefix(3);
  else if (token.starts_with("compute_")) token.remove_prefix(8), im.ptx = true;
  else return std::nullopt;
  if (!token.empty() && (token.back() == 'a' || token.back() == 'f')) {
    im.suffix = token.back();
    token.remove_suffix(1);
  }
  int number = 0;
  const auto [end, err] = std::from_chars(token.data(), token.data() + token.size(), number);
  if (err != std::errc() || end != token.data() + token.size() || token.size() < 2) return std::nullopt;
  im.major = number / 10, im.minor = number % 10;
  return im;
}

std::vector<Image> parse_images(std::string_view built) {
  std::vector<Image> out;
  constexpr std::string_view seps = " \t,;";
  while (!built.empty()) {
    const size_t start = built.find_first_not_of(seps);
    if (start == std::string_view::npos) break;
    built.remove_prefix(start);
    const size_t end = std::min(built.find_first_of(seps), built.size());
    if (auto im = parse_image(built.substr(0, end))) out.push_back(*im);
    built.remove_prefix(end);
  }
  return out;
}

std::string capability(int major, int minor) { return std::to_string(major) + "." + std::to_string(minor); }

}  // namespace

std::string unsupported_message(std::string_view gpu, int major, int minor, std::string_view built,
                                std::string_view why) {
  std::string images(built);
  if (images.empty()) images = "no image list";
  return std::string(gpu) + " (compute capability " + capability(major, minor) +
         ") cannot run this build of cuzk, which carries " + images + ": " + std::string(why);
}

ArchSupport arch_support(std::string_view gpu, int major, int minor, std::string_view built) {
  ArchSupport out;
  if (major < kMinComputeMajor || (major == kMinComputeMajor && minor < kMinComputeMinor)) {
    out.message = unsupported_message(gpu, major, minor, built,
                                      "cuzk needs compute capability " +
                                          capability(kMinComputeMajor, kMinComputeMinor) + " (Turing) or newer");
    return out;
  }
  const std::vector<Image> images = parse_images(built);
  if (images.empty()) {
    out.runs = true;
    return out;
  }
  const Image* best = nullptr;
  for (const Image& im : images) {
    if (!im.runs_on(major, minor)) continue;
    // SASS before PTX; of each, the newest.
    if (!best || (best->ptx && !im.ptx) || (best->ptx == im.ptx && im.order() > best->order())) best = &im;
  }
  if (!best) {
    out.message = unsupported_message(
        gpu, major, minor, built,
        "no image fits it (SASS sm_" + std::to_string(major * 10) + " to sm_" + std::to_string(major * 10 + minor) +
            ", or PTX up to compute_" + std::to_string(major * 10 + minor) +
            "); build with every architecture (the default) or add " + std::to_string(major * 10 + minor) +
            " to CUZK_CUDA_ARCHS");
    return out;
  }
  out.runs = true;
  out.image = best->ptx ? best->name + " (PTX, compiled by the driver)" : best->name;
  return out;
}

}  // namespace cuzk::cuda
