// libFuzzer target for the Starlark frontend: the input bytes are one
// Starlark file, parsed, resolved, compiled and run with every dialect
// switch on. Static errors and runtime errors (EvalError) are ordinary
// outcomes; anything else (a crash, a sanitizer report, an escaping C++
// exception, a hang) is a bug. Runaway programs are cut short by a modest
// call depth and a step budget (Thread::maxSteps).
//
// Built only with -DFBC_BUILD_FUZZ=ON and clang; scripts/fuzz.sh runs it.
#include "frontend/eval/big_stack.h"
#include "frontend/eval/interpreter.h"
#include "frontend/lib/json/json.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/struct.h"
#include "frontend/source/diagnostic.h"
#include "frontend/source/source_manager.h"

#include <llvm/Support/raw_ostream.h>

#include <cstddef>
#include <cstdint>
#include <string>

using namespace fbc;
using namespace fbc::star;

namespace {

constexpr unsigned kMaxDepth = 200;
constexpr uint64_t kMaxSteps = 100000;

int runOne(const std::string &text) {
  frontend::SourceManager sources;
  const frontend::SourceFile *file = sources.add("fuzz.star", text);
  syntax::Dialect dialect;
  dialect.allowWhile = dialect.allowTopLevelControl = dialect.allowGlobalReassign =
      dialect.allowRecursion = dialect.loadBindsGlobally = true;
  Interpreter interp(sources, dialect);
  interp.thread.maxDepth = kMaxDepth;
  interp.thread.maxSteps = kMaxSteps;
  interp.thread.print = [](std::string_view) {};
  interp.predeclared["struct"] = makeStructBuiltin();
  interp.predeclared["json"] = makeJsonModule(interp.heap);
  // No file system: load("json.star", "json") is the only module.
  interp.loadHook = [](Interpreter &self, std::string_view module) -> Value {
    if (module == "json.star") {
      Module *m = self.heap.make<Module>("json.star");
      m->members.emplace_back("json", makeJsonModule(self.heap));
      m->freeze();
      return Value::object(m);
    }
    self.thread.fail("cannot load " + std::string(module) + ": no file system in the fuzzer");
  };
  frontend::DiagnosticList diags;
  Interpreter::Result r = interp.execFile(*file, diags);
  // Render what a user would see (source line and caret, backtrace), so
  // the diagnostic printers run too.
  diags.print(llvm::nulls());
  if (r.error) {
    (void)r.error->backtrace();
    if (const TraceFrame *f = r.error->innermostSourceFrame()) {
      frontend::Diagnostic d;
      d.file = file;
      d.pos = f->pos;
      d.message = r.error->message();
      frontend::printDiagnostic(llvm::nulls(), d);
    }
  }
  return 0;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  // The evaluator recurses on the C++ stack; run on a large one as `fbc
  // exec` does.
  return runWithLargeStack([&] { return runOne(text); });
}
