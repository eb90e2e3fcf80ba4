// CUDA's rules for which GPUs a fat binary runs on (cuzk/cuda/support.hpp),
// without a GPU: run in every build.
#include "cuzk/cuda/support.hpp"

#include <gtest/gtest.h>

namespace {

using cuzk::cuda::arch_support;

constexpr const char* kEvery = "sm_75 sm_80 sm_86 sm_89 sm_90 sm_100 sm_120 compute_120";

TEST(CudaSupport, EveryArchitectureRunsFromTuringToBlackwell) {
  struct Gpu {
    const char* name;
    int major, minor;
    const char* image;
  };
  for (const Gpu& g : {Gpu{"Tesla T4", 7, 5, "sm_75"}, Gpu{"NVIDIA A100-SXM4-80GB", 8, 0, "sm_80"},
                       Gpu{"NVIDIA A10G", 8, 6, "sm_86"}, Gpu{"Jetson AGX Orin", 8, 7, "sm_86"},
                       Gpu{"NVIDIA L4", 8, 9, "sm_89"}, Gpu{"NVIDIA H200", 9, 0, "sm_90"},
                       Gpu{"NVIDIA B200", 10, 0, "sm_100"}, Gpu{"NVIDIA GB300", 10, 3, "sm_100"},
                       Gpu{"NVIDIA GeForce RTX 5090", 12, 0, "sm_120"}, Gpu{"NVIDIA GB10", 12, 1, "sm_120"}}) {
    const auto s = arch_support(g.name, g.major, g.minor, kEvery);
    EXPECT_TRUE(s.runs) << g.name << ": " << s.message;
    EXPECT_EQ(s.image, g.image) << g.name;
    EXPECT_TRUE(s.message.empty()) << g.name;
  }
  // A GPU newer than the toolkit: the newest PTX, compiled by the driver.
  const auto next = arch_support("a future GPU", 13, 0, kEvery);
  EXPECT_TRUE(next.runs);
  EXPECT_EQ(next.image, "compute_120 (PTX, compiled by the driver)");
}

TEST(CudaSupport, PascalIsRefusedWithNameCapabilityAndImages) {
  const auto s = arch_support("NVIDIA GeForce GTX 1080", 6, 1, kEvery);
  EXPECT_FALSE(s.runs);
  EXPECT_TRUE(s.image.empty());
  EXPECT_NE(s.message.find("NVIDIA GeForce GTX 1080"), std::string::npos) << s.message;
  EXPECT_NE(s.message.find("6.1"), std::string::npos) << s.message;
  EXPECT_NE(s.message.find(kEvery), std::string::npos) << s.message;
  EXPECT_NE(s.message.find("7.5"), std::string::npos) << s.message;
  EXPECT_EQ(s.message.find('\n'), std::string::npos) << s.message;
  // Below 7.5 whatever the build carries: PTX of 7.5 cannot go down to 7.0,
  // and a list naming older images does not make them supported.
  EXPECT_FALSE(arch_support("Tesla V100", 7, 0, "compute_75").runs);
  EXPECT_FALSE(arch_support("Tesla V100", 7, 0, "sm_70 compute_70").runs);
}

TEST(CudaSupport, Sm90OnlyBuildRefusesAmpereAndRunsOnHopper) {
  for (const char* built : {"sm_90", "sm_90 compute_90"}) {
    const auto ampere = arch_support("NVIDIA GeForce RTX 3090", 8, 6, built);
    EXPECT_FALSE(ampere.runs) << built;
    EXPECT_NE(ampere.message.find("NVIDIA GeForce RTX 3090"), std::string::npos) << ampere.message;
    EXPECT_NE(ampere.message.find("8.6"), std::string::npos) << ampere.message;
    EXPECT_NE(ampere.message.find(built), std::string::npos) << ampere.message;
    EXPECT_NE(ampere.message.find("CUZK_CUDA_ARCHS"), std::string::npos) << ampere.message;
    const auto hopper = arch_support("NVIDIA H200", 9, 0, built);
    EXPECT_TRUE(hopper.runs) << built;
    EXPECT_EQ(hopper.image, "sm_90");
  }
  // SASS of 9.0 does not run on 10.0; its PTX does.
  EXPECT_FALSE(arch_support("NVIDIA B200", 10, 0, "sm_90").runs);
  EXPECT_EQ(arch_support("NVIDIA B200", 10, 0, "sm_90 compute_90").image, "compute_90 (PTX, compiled by the driver)");
}

TEST(CudaSupport, PtxOnlyBuildRunsOnEveryNewerGpu) {
  for (const auto& [major, minor] : {std::pair{7, 5}, {8, 6}, {9, 0}, {12, 0}}) {
    const auto s = arch_support("GPU", major, minor, "compute_75");
    EXPECT_TRUE(s.runs) << major << "." << minor;
    EXPECT_EQ(s.image, "compute_75 (PTX, compiled by the driver)");
  }
}

TEST(CudaSupport, SassRunsOnLaterMinorsOfItsMajorOnly) {
  // sm_86 on 8.7 (Orin) and 8.9 (Ada), not on 8.0 nor 9.0.
  EXPECT_EQ(arch_support("Jetson AGX Orin", 8, 7, "sm_86").image, "sm_86");
  EXPECT_EQ(arch_support("NVIDIA L4", 8, 9, "sm_86").image, "sm_86");
  EXPECT_FALSE(arch_support("NVIDIA A100", 8, 0, "sm_86").runs);
  EXPECT_FALSE(arch_support("NVIDIA H100", 9, 0, "sm_86").runs);
  // sm_89 not on 8.6, unless PTX covers it: then the driver compiles it.
  EXPECT_FALSE(arch_support("NVIDIA A10G", 8, 6, "sm_89").runs);
  EXPECT_FALSE(arch_support("NVIDIA A10G", 8, 6, "sm_89 compute_89").runs);
  const auto ptx = arch_support("NVIDIA A10G", 8, 6, "sm_89 compute_80");
  EXPECT_TRUE(ptx.runs);
  EXPECT_EQ(ptx.image, "compute_80 (PTX, compiled by the driver)");
  // SASS is preferred to PTX, and of each the newest that fits.
  EXPECT_EQ(arch_support("NVIDIA L4", 8, 9, "compute_89 sm_80 sm_86").image, "sm_86");
  EXPECT_EQ(arch_support("NVIDIA L4", 8, 9, "compute_75 compute_86").image, "compute_86 (PTX, compiled by the driver)");
}

TEST(CudaSupport, ArchitectureSpecificImagesRunOnTheirOwnCapabilityOnly) {
  EXPECT_TRUE(arch_support("NVIDIA H100", 9, 0, "sm_90a").runs);
  EXPECT_FALSE(arch_support("NVIDIA B200", 10, 0, "compute_90a").runs);
  EXPECT_TRUE(arch_support("NVIDIA GB300", 10, 3, "compute_100f").runs);
  EXPECT_FALSE(arch_support("NVIDIA GeForce RTX 5090", 12, 0, "compute_100f").runs);
}

TEST(CudaSupport, ListsInCMakeSeparatorsAndUnknownListsAreRead) {
  EXPECT_TRUE(arch_support("NVIDIA A10G", 8, 6, "sm_75;sm_86,compute_86").runs);
  EXPECT_EQ(arch_support("NVIDIA A10G", 8, 6, "sm_75;sm_86,compute_86").image, "sm_86");
  // No list (a build that did not say): only a launch can tell.
  const auto unknown = arch_support("NVIDIA A10G", 8, 6, "");
  EXPECT_TRUE(unknown.runs);
  EXPECT_TRUE(unknown.image.empty());
}

TEST(CudaSupport, UnsupportedMessageIsOneLine) {
  const std::string m =
      cuzk::cuda::unsupported_message("NVIDIA L4", 8, 9, "sm_90", "the driver found no kernel image for it");
  EXPECT_EQ(m, "NVIDIA L4 (compute capability 8.9) cannot run this build of cuzk, which carries sm_90: the driver "
               "found no kernel image for it");
}

}  // namespace
