// The C boundary of libcuzk's three ABIs (cuzk_api.cpp, rapidsnark_api.cpp,
// supraseal_api.cpp): no exception crosses it. Each C function runs its body
// in guarded(), which turns whatever the body throws into a code of that ABI
// and a one-line message: a Refusal into the code the function chose itself
// (a null argument, a short buffer, a timeout), anything else into the code
// the ABI gives its classification (service::classify, and where the ABI's
// codes tell more apart, the exception's type: service::caused_by).
#pragma once

#include <exception>
#include <string>
#include <string_view>

#include "cuzk/service/errors.hpp"

namespace cuzk::capi {

// A failure with the code its ABI answers, thrown inside guarded().
template <class Code>
struct Refusal {
  Code code;
  std::string message;
};

// f()'s result, or report(code, message) for what it threw: a Refusal's code,
// or code_of(the exception). When the message cannot be made (no memory),
// report(out_of_memory, a fixed message). report must not throw.
template <class Code, class F, class CodeOf, class Report>
auto guarded(F&& f, CodeOf&& code_of, Code out_of_memory, Report&& report) noexcept -> decltype(f()) {
  try {
    return f();
  } catch (const Refusal<Code>& r) {
    return report(r.code, std::string_view(r.message));
  } catch (...) {
    const std::exception_ptr e = std::current_exception();
    try {
      const Code code = code_of(e);
      return report(code, std::string_view(service::message_of(e)));
    } catch (...) {
      return report(out_of_memory, std::string_view("out of host memory"));
    }
  }
}

}  // namespace cuzk::capi
