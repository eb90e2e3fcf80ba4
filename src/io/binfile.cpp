#include "cuzk/io/binfile.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bit>
#include <cerrno>
#include <cstring>

#include "cuzk/ff/bigint.hpp"
#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/ff/bn254.hpp"

namespace cuzk::io {

// The files are little-endian and the readers load integers and field limbs
// by copying bytes.
static_assert(std::endian::native == std::endian::little, "cuzk's readers assume a little-endian host");

namespace {

template <class F>
bool is_modulus(std::span<const uint8_t> le) {
  if (le.size() != F::bytes) return false;
  for (size_t i = 0; i < F::N; ++i)
    if (SectionReader::load<uint64_t>(le.data() + 8 * i) != F::params::modulus(i)) return false;
  return true;
}

std::string byte_count(uint64_t n) { return std::to_string(n) + (n == 1 ? " byte" : " bytes"); }

}  // namespace

std::optional<Curve> curve_from_q(std::span<const uint8_t> q) {
  if (is_modulus<ff::bn254::Fq>(q)) return Curve::bn254;
  if (is_modulus<ff::bls12_381::Fq>(q)) return Curve::bls12_381;
  return std::nullopt;
}

std::optional<Curve> curve_from_r(std::span<const uint8_t> r) {
  if (is_modulus<ff::bn254::Fr>(r)) return Curve::bn254;
  if (is_modulus<ff::bls12_381::Fr>(r)) return Curve::bls12_381;
  return std::nullopt;
}

std::string prime_to_decimal(std::span<const uint8_t> le) {
  // Far longer than any supported prime (48 bytes) is not spelled out: the
  // conversion is quadratic (a zkey whose header claims a 1 MB q took a
  // minute) and the message must stay a readable line.
  if (le.size() > 64) return "(a " + std::to_string(le.size()) + "-byte number)";
  std::vector<uint64_t> limbs((le.size() + 7) / 8, 0);
  for (size_t i = 0; i < le.size(); ++i) limbs[i / 8] |= (uint64_t)le[i] << (8 * (i % 8));
  return ff::BigUint::from_limbs(limbs.data(), limbs.size()).to_decimal();
}

BinFile BinFile::open(const std::filesystem::path& path, std::string_view magic, uint32_t version) {
  BinFile f;
  f.name_ = path.string();
  const int fd = ::open(f.name_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) f.fail(std::string("cannot open: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    f.fail("not a regular file");
  }
  f.size_ = (size_t)st.st_size;
  constexpr size_t header = 12;  // magic, version, nSections
  if (f.size_ < header) {
    ::close(fd);
    f.fail("file is " + std::to_string(f.size_) + " bytes, too short for the 12-byte header");
  }
  void* p = ::mmap(nullptr, f.size_, PROT_READ, MAP_PRIVATE, fd, 0);
  const int map_errno = errno;
  ::close(fd);  // the mapping keeps the file open
  if (p == MAP_FAILED) {
    f.size_ = 0;
    f.fail(std::string("cannot map: ") + std::strerror(map_errno));
  }
  f.data_ = static_cast<const uint8_t*>(p);

  if (std::memcmp(f.data_, magic.data(), 4) != 0) {
    std::string got;
    for (int i = 0; i < 4; ++i) {
      const char c = (char)f.data_[i];
      got += (c >= 0x20 && c < 0x7f) ? c : '?';
    }
    f.fail("wrong magic \"" + got + "\", expected \"" + std::string(magic) + "\"");
  }
  const uint32_t v = SectionReader::load<uint32_t>(f.data_ + 4);
  if (v != version)
    f.fail("version " + std::to_string(v) + " is not supported (expected " + std::to_string(version) + ")");
  const uint32_t n = SectionReader::load<uint32_t>(f.data_ + 8);

  uint64_t pos = header;
  for (uint32_t i = 0; i < n; ++i) {
    if (f.size_ - pos < 12)
      f.fail("section table truncated: header of section " + std::to_string(i + 1) + " of " + std::to_string(n) +
             " at offset " + std::to_string(pos) + " runs past the end of the file (" + std::to_string(f.size_) +
             " bytes)");
    const uint32_t id = SectionReader::load<uint32_t>(f.data_ + pos);
    const uint64_t size = SectionReader::load<uint64_t>(f.data_ + pos + 4);
    pos += 12;
    if (size > f.size_ - pos)
      f.fail("section " + std::to_string(id) + " at offset " + std::to_string(pos) + " claims " +
             std::to_string(size) + " bytes but only " + std::to_string(f.size_ - pos) + " remain in the file");
    if (!f.sections_.emplace(id, Entry{pos, size}).second) f.fail("section " + std::to_string(id) + " appears twice");
    pos += size;
  }
  if (pos != f.size_)
    f.fail(byte_count(f.size_ - pos) + " of trailing data after the last of " + std::to_string(n) +
           " sections");
  return f;
}

BinFile::BinFile(BinFile&& o) noexcept
    : name_(std::move(o.name_)), data_(o.data_), size_(o.size_), sections_(std::move(o.sections_)) {
  o.data_ = nullptr;
  o.size_ = 0;
}

BinFile& BinFile::operator=(BinFile&& o) noexcept {
  if (this != &o) {
    release();
    name_ = std::move(o.name_);
    data_ = o.data_;
    size_ = o.size_;
    sections_ = std::move(o.sections_);
    o.data_ = nullptr;
    o.size_ = 0;
  }
  return *this;
}

BinFile::~BinFile() { release(); }

void BinFile::release() noexcept {
  if (data_) ::munmap(const_cast<uint8_t*>(data_), size_);
  data_ = nullptr;
}

std::span<const uint8_t> BinFile::section(uint32_t id) const {
  const auto it = sections_.find(id);
  if (it == sections_.end()) fail("section " + std::to_string(id) + " is missing");
  return {data_ + it->second.offset, (size_t)it->second.size};
}

uint64_t BinFile::offset(uint32_t id) const {
  const auto it = sections_.find(id);
  if (it == sections_.end()) fail("section " + std::to_string(id) + " is missing");
  return it->second.offset;
}

void BinFile::fail(const std::string& problem) const { throw FormatError(name_ + ": " + problem); }

const uint8_t* SectionReader::take(size_t n, const char* what) {
  if (n > remaining())
    fail(std::string("truncated: reading ") + what + " needs " + std::to_string(n) + " bytes at byte " +
         std::to_string(pos_) + " but the section is " + std::to_string(bytes_.size()) + " bytes");
  const uint8_t* p = bytes_.data() + pos_;
  pos_ += n;
  return p;
}

void SectionReader::expect_end(const char* what) const {
  if (remaining() != 0)
    fail(byte_count(remaining()) + " left over after " + what + " (the section is " +
         std::to_string(bytes_.size()) + " bytes)");
}

void SectionReader::fail(const std::string& problem) const {
  file_.fail("section " + std::to_string(id_) + ": " + problem);
}

}  // namespace cuzk::io
