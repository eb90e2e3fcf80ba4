#include "cuzk/io/binfile.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bit>
#include <cerrno>
#include <cstring>
#include <utility>

#include "cuzk/ff/bigint.hpp"
#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/ff/bn254.hpp"
#include "cuzk/util/bulk_vector.hpp"

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

constexpr size_t kHeader = 12;  // magic, version, nSections

// Owned bytes are read in pieces of this size on up to kCopyThreads
// threads: large enough that each read(2) moves far more than it costs, and a
// few streams already keep a drive or the page cache busy. Copies from memory
// (or a mapping) take smaller pieces on every core, which fault their pages in
// beside each other.
constexpr size_t kReadChunk = size_t{64} << 20, kCopyChunk = size_t{4} << 20;
constexpr unsigned kCopyThreads = 8;

// fill(begin, length) over [0, size) in chunks of `chunk`, in parallel on up
// to `threads` threads (0: every core).
template <class Fill>
void fill_chunks(size_t size, size_t chunk, unsigned threads, Fill fill) {
  parallel_tasks((size + chunk - 1) / chunk, threads, [&](size_t t) {
    const size_t begin = t * chunk;
    fill(begin, std::min(chunk, size - begin));
  });
}

// to[0, n) = from[0, n), in pieces on every core.
void copy_on_every_core(uint8_t* to, const uint8_t* from, size_t n) {
  fill_chunks(n, kCopyChunk, 0, [&](size_t begin, size_t length) { std::memcpy(to + begin, from + begin, length); });
}

// Closes the file on every way out of open.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

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

BinFile BinFile::open(const std::filesystem::path& path, std::string_view magic, uint32_t version,
                      Residency residency) {
  const std::string name = path.string();
  // A FIFO, a device or a socket is refused before it is opened: opening a
  // FIFO for reading blocks until a writer comes, and a device may never end.
  // O_NONBLOCK covers a file swapped for one between the stat and the open,
  // and the descriptor must be the file that was checked.
  struct stat named {};
  if (::stat(name.c_str(), &named) != 0) BinFile(name).fail(std::string("cannot open: ") + std::strerror(errno));
  if (!S_ISREG(named.st_mode)) BinFile(name).fail("not a regular file");
  const Fd fd{::open(name.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)};
  if (fd.fd < 0) BinFile(name).fail(std::string("cannot open: ") + std::strerror(errno));
  struct stat opened {};
  if (::fstat(fd.fd, &opened) != 0 || opened.st_dev != named.st_dev || opened.st_ino != named.st_ino)
    BinFile(name).fail("the file changed while it was opened");
  return open_fd(fd.fd, name, magic, version, residency);
}

BinFile BinFile::open_fd(int fd, std::string name, std::string_view magic, uint32_t version, Residency residency) {
  BinFile f(std::move(name));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) f.fail("not a regular file");
  f.size_ = (size_t)st.st_size;
  f.check_size();
  f.residency_ = residency;
  if (residency == Residency::map) {
    void* p = ::mmap(nullptr, f.size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) f.fail(std::string("cannot map: ") + std::strerror(errno));
    f.data_ = static_cast<const uint8_t*>(p);
  } else {
    // The header first: a file that is not what was asked for costs no
    // memory, however large it claims to be.
    uint8_t header[kHeader];
    for (size_t done = 0; done < kHeader;) {
      const ssize_t n = ::pread(fd, header + done, kHeader - done, (off_t)done);
      if (n > 0)
        done += (size_t)n;
      else if (n == 0)
        f.fail("the file ended at byte " + std::to_string(done) + " while its header was read");
      else if (errno != EINTR)
        f.fail(std::string("cannot read: ") + std::strerror(errno));
    }
    f.check_header(header, magic, version);
    uint8_t* const to = f.allocate();
    fill_chunks(f.size_, kReadChunk, kCopyThreads, [&](size_t begin, size_t length) {
      for (size_t done = 0; done < length;) {
        const ssize_t n = ::pread(fd, to + begin + done, length - done, (off_t)(begin + done));
        if (n > 0)
          done += (size_t)n;
        else if (n == 0)
          f.fail("the file ended at byte " + std::to_string(begin + done) + " while being read (it was " +
                 byte_count(f.size_) + ")");
        else if (errno != EINTR)
          f.fail(std::string("cannot read: ") + std::strerror(errno));
      }
    });
    f.seal();
  }
  f.index(magic, version);
  return f;
}

BinFile BinFile::from_bytes(std::string name, std::span<const uint8_t> bytes, std::string_view magic,
                            uint32_t version) {
  BinFile f(std::move(name));
  f.size_ = bytes.size();
  f.check_size();
  uint8_t* const to = f.allocate();
  copy_on_every_core(to, bytes.data(), f.size_);
  f.seal();
  f.index(magic, version);
  return f;
}

BinFile BinFile::borrow(std::string name, std::span<const uint8_t> bytes, std::string_view magic, uint32_t version) {
  BinFile f(std::move(name));
  f.residency_ = Residency::borrowed;
  f.data_ = bytes.data();
  f.size_ = bytes.size();
  f.check_size();
  f.index(magic, version);
  return f;
}

// Before any memory is taken for the bytes (and mmap refuses a length of 0).
void BinFile::check_size() const {
  if (size_ < kHeader)
    fail("file is " + byte_count(size_) + ", too short for the " + std::to_string(kHeader) + "-byte header");
}

// A key is tens of gigabytes read once and then scanned by MSMs.
uint8_t* BinFile::allocate() {
  void* p = huge_pages(size_);  // as aligned as a file mapping
  if (!p) fail("cannot allocate " + byte_count(size_) + ": " + std::strerror(errno));
  data_ = static_cast<const uint8_t*>(p);
  return static_cast<uint8_t*>(p);
}

std::span<const uint8_t> BinFile::aligned_section(uint32_t id) {
  const auto bytes = section(id);
  if (bytes.empty() || reinterpret_cast<uintptr_t>(bytes.data()) % 8 == 0) return bytes;
  auto* to = static_cast<uint8_t*>(huge_pages(bytes.size()));
  if (!to)
    fail("cannot allocate " + byte_count(bytes.size()) + " for an aligned copy of section " + std::to_string(id) +
         ": " + std::strerror(errno));
  aligned_copies_.push_back({to, bytes.size()});
  copy_on_every_core(to, bytes.data(), bytes.size());
  if (::mprotect(to, bytes.size(), PROT_READ) != 0)
    fail(std::string("cannot protect an aligned copy: ") + std::strerror(errno));
  return {to, bytes.size()};
}

// Owned bytes are read-only once filled, as a mapping's are.
void BinFile::seal() {
  if (::mprotect(const_cast<uint8_t*>(data_), size_, PROT_READ) != 0)
    fail(std::string("cannot protect the bytes read: ") + std::strerror(errno));
}

void BinFile::check_header(const uint8_t* header, std::string_view magic, uint32_t version) const {
  // The bytes found are not quoted: a service reads files its caller may not
  // read, and a message must not hand their first bytes over.
  if (std::memcmp(header, magic.data(), 4) != 0) fail("wrong magic: not a \"" + std::string(magic) + "\" file");
  const uint32_t v = SectionReader::load<uint32_t>(header + 4);
  if (v != version)
    fail("version " + std::to_string(v) + " is not supported (expected " + std::to_string(version) + ")");
}

void BinFile::index(std::string_view magic, uint32_t version) {
  check_header(data_, magic, version);
  const uint32_t n = SectionReader::load<uint32_t>(data_ + 8);

  uint64_t pos = kHeader;
  for (uint32_t i = 0; i < n; ++i) {
    if (size_ - pos < 12)
      fail("section table truncated: header of section " + std::to_string(i + 1) + " of " + std::to_string(n) +
           " at offset " + std::to_string(pos) + " runs past the end of the file (" + std::to_string(size_) +
           " bytes)");
    const uint32_t id = SectionReader::load<uint32_t>(data_ + pos);
    const uint64_t size = SectionReader::load<uint64_t>(data_ + pos + 4);
    pos += 12;
    if (size > size_ - pos)
      fail("section " + std::to_string(id) + " at offset " + std::to_string(pos) + " claims " +
           std::to_string(size) + " bytes but only " + std::to_string(size_ - pos) + " remain in the file");
    if (!sections_.emplace(id, Entry{pos, size}).second) fail("section " + std::to_string(id) + " appears twice");
    pos += size;
  }
  if (pos != size_)
    fail(byte_count(size_ - pos) + " of trailing data after the last of " + std::to_string(n) + " sections");
}

BinFile::BinFile(BinFile&& o) noexcept
    : name_(std::move(o.name_)),
      residency_(o.residency_),
      data_(o.data_),
      size_(o.size_),
      sections_(std::move(o.sections_)),
      aligned_copies_(std::exchange(o.aligned_copies_, {})) {
  o.data_ = nullptr;
  o.size_ = 0;
}

BinFile& BinFile::operator=(BinFile&& o) noexcept {
  if (this != &o) {
    release();
    name_ = std::move(o.name_);
    residency_ = o.residency_;
    data_ = o.data_;
    size_ = o.size_;
    sections_ = std::move(o.sections_);
    aligned_copies_ = std::exchange(o.aligned_copies_, {});
    o.data_ = nullptr;
    o.size_ = 0;
  }
  return *this;
}

BinFile::~BinFile() { release(); }

void BinFile::release() noexcept {
  if (data_ && residency_ != Residency::borrowed)
    ::munmap(const_cast<uint8_t*>(data_), size_);  // a file mapping, or huge_pages
  data_ = nullptr;
  for (const Pages& p : aligned_copies_) release_huge_pages(p.data, p.size);
  aligned_copies_.clear();
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
