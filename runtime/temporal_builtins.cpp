// The body-time side of monitors and temporal properties: await_event(),
// await_stable(), and monitor() / eventually() / always() called in a test
// body.
#include "runtime/executor.h"

#include "frontend/eval/thread.h"

namespace fbc::rt {

star::Value Executor::temporalBuiltin(star::Thread &t, std::string_view name, const star::Args &) {
  t.fail(std::string(name) + "() in a test body is not run by fbc yet");
}

} // namespace fbc::rt
