// The seam between the spec's body-time names and whoever runs test bodies.
// While a spec loads, fault(), assert_eq(), svc.get(), expect_success()(r),
// ... fail with "can only be called inside a test body". A runtime that
// executes bodies installs a BodyRuntime on the LoadedSpec; from then on
// those calls are forwarded to it. ir/ only forwards: the behaviour lives
// in runtime/.
#pragma once

#include "frontend/lib/value.h"
#include "ir/spec.h"

#include <string_view>

namespace fbc::star {
class Thread;
}

namespace fbc::ir {

class BodyRuntime {
public:
  virtual ~BodyRuntime() = default;
  // A body-time builtin (`name` is fault, assert_eq, sleep, ...).
  virtual star::Value callBuiltin(star::Thread &t, std::string_view name,
                                  const star::Args &args) = 0;
  // A step method: `receiver` is a service or an interface_ref value,
  // `method` get/post/put/patch/delete/send.
  virtual star::Value callStep(star::Thread &t, star::Value receiver, std::string_view method,
                               const star::Args &args) = 0;
  // An expect_*() predicate called on a value: expect_success()(result).
  virtual star::Value callExpect(star::Thread &t, const Expect &e, const star::Args &args) = 0;
};

} // namespace fbc::ir
