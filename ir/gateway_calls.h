// What `fbc plan` (passes/axes.cpp) and `fbc run` (runtime/) must agree on
// about the body-time builtins of the reference's gVisor packet gateway and
// file observation: bandwidth(rate, dir=, queue=), mtu(size),
// partition(a, b, direction=, run=), partition_start(a, b, direction=),
// partition_stop(a, b), watch(svc, files=, ops=, run=),
// watch_start(svc, files=, ops=), watch_stop(svc). Their argument checks
// and messages (the reference's) are kept here once: the plan checks the
// literal arguments of a call in a test body, the run checks the values it
// is called with, and both give the same message.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fbc::ir {

// One argument of a call, as far as the caller knows it.
struct GatewayArg {
  enum class Kind {
    Unknown,  // computed: not checked
    String,   // `str`
    Int,      // `num`
    List,     // `items` (each item may be Unknown)
    Callable, // a function or lambda
    Service,  // a service() value; `str` its name
    Other,    // anything else; `type` its Starlark type name
  };
  std::string name; // the keyword; "" for a positional argument
  Kind kind = Kind::Unknown;
  std::string str;
  int64_t num = 0;
  std::string type; // the Starlark type name (for messages)
  std::vector<GatewayArg> items;
};

struct GatewayArgError {
  std::string message;
  // The argument it is about (an index into the call's arguments), or
  // npos for the call itself.
  size_t arg = std::string::npos;
};

// Whether `builtin` is one of the eight.
bool isGatewayBuiltin(std::string_view builtin);

// The first argument error the reference reports for `builtin` called with
// `args` (positional ones first, then keywords, in call order); nullopt if
// the arguments it can see are valid. Unknown arguments are not checked.
std::optional<GatewayArgError> gatewayArgError(std::string_view builtin,
                                               const std::vector<GatewayArg> &args);

} // namespace fbc::ir
