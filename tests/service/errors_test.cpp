// The one error taxonomy: classify names the kind of what each layer throws,
// and a type that a C API tells apart from its kind (a witness of the wrong
// length) is known by its type, through as_error and a job's outcome, never
// by the words of its message.
#include <gtest/gtest.h>

#include <cerrno>
#include <filesystem>
#include <new>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include "../io/io_test_support.hpp"
#include "cuzk/io/wtns.hpp"
#include "cuzk/service/errors.hpp"
#include "cuzk/service/service.hpp"

namespace cuzk::service {
namespace {

template <class X>
ErrorKind kind_of(X x) {
  return classify(std::make_exception_ptr(std::move(x)));
}

std::filesystem::filesystem_error file_error(int errno_value) {
  return {"cannot read", "missing.zkey", std::error_code(errno_value, std::generic_category())};
}

// What f throws, caught.
template <class F>
std::exception_ptr thrown_by(F&& f) {
  try {
    f();
  } catch (...) {
    return std::current_exception();
  }
  return nullptr;
}

TEST(Errors, ClassifyNamesTheKindOfWhatEachLayerThrows) {
  EXPECT_EQ(classify(nullptr), ErrorKind::none);
  EXPECT_EQ(kind_of(Error(ErrorKind::deadline_exceeded, "late")), ErrorKind::deadline_exceeded);
  EXPECT_EQ(kind_of(io::FormatError("x.zkey: truncated")), ErrorKind::invalid_argument);
  EXPECT_EQ(kind_of(io::WitnessLengthError("w.wtns", "k.zkey", 254, 83)), ErrorKind::invalid_argument);
  EXPECT_EQ(kind_of(std::invalid_argument("--threads")), ErrorKind::invalid_argument);
  EXPECT_EQ(kind_of(file_error(ENOENT)), ErrorKind::not_found);
  EXPECT_EQ(kind_of(file_error(EACCES)), ErrorKind::invalid_argument);
  EXPECT_EQ(kind_of(std::bad_alloc()), ErrorKind::resource_exhausted);
  EXPECT_EQ(kind_of(std::runtime_error("bug")), ErrorKind::internal);
  EXPECT_EQ(kind_of(42), ErrorKind::internal);
}

TEST(Errors, AsErrorKeepsTheKindTheMessageAndTheCause) {
  const io::WitnessLengthError wrong("w.wtns", "k.zkey", 254, 83);
  EXPECT_NE(std::string(wrong.what()).find("Invalid witness length. Circuit: 254, witness: 83"), std::string::npos)
      << "rapidsnark's callers read these words";
  const std::exception_ptr e = thrown_by([&] { as_error([&] { throw wrong; }); });
  ASSERT_TRUE(e);
  try {
    std::rethrow_exception(e);
  } catch (const Error& x) {
    EXPECT_EQ(x.kind(), ErrorKind::invalid_argument);
    EXPECT_STREQ(x.what(), wrong.what());
  } catch (...) {
    ADD_FAILURE() << "as_error threw something other than an Error";
  }
  EXPECT_TRUE(caused_by<io::WitnessLengthError>(e));
  EXPECT_TRUE(caused_by<io::FormatError>(e));
  EXPECT_FALSE(caused_by<std::bad_alloc>(e));
  EXPECT_FALSE(caused_by<io::WitnessLengthError>(nullptr));
}

TEST(Errors, AWitnessLengthErrorIsItsTypeNotItsWords) {
  // Another failure whose message quotes rapidsnark's words (a file named so).
  const io::FormatError lookalike("Invalid witness length. Circuit: 254, witness: 83.zkey: truncated");
  EXPECT_FALSE(caused_by<io::WitnessLengthError>(std::make_exception_ptr(lookalike)));
  EXPECT_FALSE(caused_by<io::WitnessLengthError>(thrown_by([&] { as_error([&] { throw lookalike; }); })));
}

TEST(Errors, AFailedPartitionRethrowsItsCauseInsideAnErrorOfItsKind) {
  ServiceOptions o;
  o.placement.backend = BackendKind::cpu;
  o.threads = 1;
  test::TempDir allowed;
  o.witness_dirs = {allowed.path()};
  Service svc(o);
  svc.load_key(test::fixture("bn128", "multiplier", "circuit.zkey"), "bn");
  // Another circuit's witness from a file: read, and refused, in synthesis.
  std::filesystem::copy_file(test::fixture("bn128", "linear", "witness.wtns"), allowed / "linear.wtns");
  std::vector<PartitionInput> parts;
  parts.push_back(WitnessFile{allowed / "linear.wtns"});
  const PartitionOutcome p = svc.await(svc.submit("bn", std::move(parts)))->partitions.at(0);
  ASSERT_EQ(p.error_kind, ErrorKind::invalid_argument) << p.error;
  EXPECT_TRUE(caused_by<io::WitnessLengthError>(p.cause)) << p.error;
  const std::exception_ptr e = thrown_by([&] { p.rethrow(); });
  EXPECT_EQ(classify(e), ErrorKind::invalid_argument);
  EXPECT_EQ(message_of(e), p.error);
  EXPECT_TRUE(caused_by<io::WitnessLengthError>(e));

  // A partition stopped without an exception (cancelled): its kind alone.
  PartitionOutcome cancelled;
  cancelled.error_kind = ErrorKind::cancelled;
  cancelled.error = "the job was cancelled";
  const std::exception_ptr c = thrown_by([&] { cancelled.rethrow(); });
  EXPECT_EQ(classify(c), ErrorKind::cancelled);
  EXPECT_EQ(message_of(c), "the job was cancelled");
}

}  // namespace
}  // namespace cuzk::service
