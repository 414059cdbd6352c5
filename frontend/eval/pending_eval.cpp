// Temporary definition of call() so the library links while the evaluator
// is being written. Removed when interp lands.
#include "frontend/eval/ops.h"
#include "frontend/eval/thread.h"

namespace fbc::star {

Value call(Thread &t, Value, const Args &) { t.fail("call: evaluator not implemented yet"); }

} // namespace fbc::star
