// The one error taxonomy of every front end: what went wrong, as a kind that
// the CLI turns into an exit status, the daemon into a gRPC status code and
// the C API into an error code, and a one-line message that all of them show
// unchanged.
#pragma once

#include <cstddef>
#include <exception>
#include <stdexcept>
#include <string>

namespace cuzk::service {

enum class ErrorKind {
  none,
  invalid_argument,    // malformed or mismatched input: a key, a witness, an option
  not_found,           // no such file, key or job
  unsatisfied,         // the witness does not satisfy the circuit (the proof did not verify)
  resource_exhausted,  // admission bounds, host or device memory
  cancelled,           // the job was cancelled, or the service stopped
  deadline_exceeded,   // the job's deadline passed
  unavailable,         // draining, or no healthy GPU is left
  internal,            // anything else: a bug or a device fault
};
inline constexpr size_t kErrorKindCount = 9;

// "invalid_argument", ..., for metrics labels and logs.
const char* error_kind_name(ErrorKind k);

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  ErrorKind kind() const { return kind_; }

 private:
  ErrorKind kind_;
};

// The kind of an exception thrown by any layer (io::FormatError and
// std::invalid_argument: invalid_argument; groth16::ProofError: unsatisfied;
// std::bad_alloc: resource_exhausted; a CUDA error: internal; ...), and its
// message. Every front end's exit status, gRPC code and C code comes from it.
ErrorKind classify(const std::exception_ptr& e);
std::string message_of(const std::exception_ptr& e);

// Whether e is a T, or an exception made from one that keeps it nested (an
// Error from as_error or PartitionOutcome::rethrow): for a C API whose codes
// tell apart more than the kinds do.
template <class T>
bool caused_by(const std::exception_ptr& e) {
  if (!e) return false;
  try {
    std::rethrow_exception(e);
  } catch (const T&) {
    return true;
  } catch (const std::nested_exception& outer) {
    return caused_by<T>(outer.nested_ptr());
  } catch (...) {
    return false;
  }
}

// f(), with whatever it throws turned into an Error of that kind and message,
// the original nested in it.
template <class F>
decltype(auto) as_error(F&& f) {
  try {
    return f();
  } catch (const Error&) {
    throw;
  } catch (...) {
    const std::exception_ptr e = std::current_exception();
    std::throw_with_nested(Error(classify(e), message_of(e)));
  }
}

}  // namespace cuzk::service
