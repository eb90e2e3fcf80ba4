#include "cuzk/service/errors.hpp"

#include <filesystem>
#include <new>
#include <system_error>

#include "cuzk/circuit/witness.hpp"
#include "cuzk/engine/backend.hpp"
#include "cuzk/engine/buffer_pool.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/io/binfile.hpp"
#include "cuzk/util/exception_message.hpp"

namespace cuzk::service {

const char* error_kind_name(ErrorKind k) {
  switch (k) {
    case ErrorKind::none: return "none";
    case ErrorKind::invalid_argument: return "invalid_argument";
    case ErrorKind::not_found: return "not_found";
    case ErrorKind::unsatisfied: return "unsatisfied";
    case ErrorKind::resource_exhausted: return "resource_exhausted";
    case ErrorKind::cancelled: return "cancelled";
    case ErrorKind::deadline_exceeded: return "deadline_exceeded";
    case ErrorKind::unavailable: return "unavailable";
    case ErrorKind::internal: return "internal";
  }
  return "internal";
}

ErrorKind classify(const std::exception_ptr& e) {
  if (!e) return ErrorKind::none;
  try {
    std::rethrow_exception(e);
  } catch (const Error& x) {
    return x.kind();
  } catch (const io::FormatError&) {
    return ErrorKind::invalid_argument;
  } catch (const std::invalid_argument&) {
    return ErrorKind::invalid_argument;
  } catch (const groth16::ProofError&) {
    return ErrorKind::unsatisfied;
  } catch (const circuit::Unsatisfied&) {
    return ErrorKind::unsatisfied;
  } catch (const std::bad_alloc&) {
    return ErrorKind::resource_exhausted;
  } catch (const engine::PoolCancelled&) {
    return ErrorKind::cancelled;
  } catch (const engine::DeviceFault&) {
    return ErrorKind::unavailable;
  } catch (const std::filesystem::filesystem_error& x) {
    return x.code() == std::errc::no_such_file_or_directory ? ErrorKind::not_found : ErrorKind::invalid_argument;
  } catch (...) {
    return ErrorKind::internal;
  }
}

std::string message_of(const std::exception_ptr& e) { return exception_message(e); }

}  // namespace cuzk::service
