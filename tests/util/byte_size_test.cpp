// parse_byte_size: every unit, fractions, and the one-line refusals that
// --gpu-memory, cuzkd's sizes and CUZK_GPU_MEMORY give.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "cuzk/util/byte_size.hpp"

namespace cuzk {
namespace {

TEST(ByteSize, UnitsAndFractions) {
  EXPECT_EQ(parse_byte_size("0"), 0u);
  EXPECT_EQ(parse_byte_size("123"), 123u);
  EXPECT_EQ(parse_byte_size("123B"), 123u);
  EXPECT_EQ(parse_byte_size("64KiB"), 65536u);
  EXPECT_EQ(parse_byte_size("512MiB"), size_t(512) << 20);
  EXPECT_EQ(parse_byte_size("16GiB"), size_t(16) << 30);
  EXPECT_EQ(parse_byte_size("1.5GiB"), size_t(3) << 29);
  EXPECT_EQ(parse_byte_size("2TiB"), size_t(2) << 40);
  EXPECT_EQ(parse_byte_size("2GB"), size_t(2000000000));
  EXPECT_EQ(parse_byte_size("3 MB"), size_t(3000000));
  EXPECT_EQ(parse_byte_size("7KB"), size_t(7000));
  EXPECT_EQ(parse_byte_size("1TB"), size_t(1000000000000));
}

TEST(ByteSize, RefusesWhatIsNotASize) {
  for (const std::string bad : {"", "GiB", "-1", "12 parsecs", "16gib", "nan", "inf", "1e400", "0x10", "1e3", "+5", ".5GiB", "1.2.3", "5.GiB"}) {
    try {
      parse_byte_size(bad);
      ADD_FAILURE() << "'" << bad << "' was taken for a size";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("'" + bad + "'"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(parse_byte_size("20000000000TB"), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk
