// Loading a spec: run the file with the spec builtins bound, turn what it
// registered into an ir::Spec (tests discovered, services ordered), verify
// it. The LoadedSpec owns the sources, the interpreter (its heap keeps the
// test bodies' function values alive, its ASTs the bodies' syntax) and the
// IR; keep it alive as long as the Spec is used.
#pragma once

#include "frontend/eval/interpreter.h"
#include "frontend/source/diagnostic.h"
#include "frontend/source/source_manager.h"
#include "ir/body_runtime.h"
#include "ir/spec.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace llvm {
class raw_ostream;
}

namespace fbc::ir {

namespace builtins {
class SpecBuilder;
}

struct LoadOptions {
  // Receives print() output while the spec loads; default: stderr.
  std::function<void(std::string_view)> print;
};

class LoadedSpec {
public:
  LoadedSpec();
  ~LoadedSpec();
  LoadedSpec(const LoadedSpec &) = delete;
  LoadedSpec &operator=(const LoadedSpec &) = delete;

  // True when the spec loaded and verified; spec() is valid only then.
  bool ok() const { return ok_; }
  const Spec &spec() const { return spec_; }

  frontend::SourceManager &sources() { return sources_; }
  star::Interpreter &interpreter() { return *interp_; }
  // Forwards the body-time names (fault(), steps, assert_*, expect_*()(r))
  // to `body` from now on; null restores the load-time errors.
  void setBodyRuntime(BodyRuntime *body);
  // The root module's global `name`, or null (after a successful load).
  star::Value global(std::string_view name) const;

  // The root file, or null if it could not be read.
  const frontend::SourceFile *rootFile() const { return root_; }

  // Warnings (test-name collisions) and errors (syntax, verifier), in order.
  const frontend::DiagnosticList &diagnostics() const { return diags_; }
  // A runtime error while the spec ran (a builtin's validation error, fail(),
  // a type error, ...).
  const std::optional<star::EvalError> &runtimeError() const { return runtimeError_; }
  // Prints the diagnostics, then the runtime error (caret at the innermost
  // frame; Go's backtrace when the error happened inside a function).
  void printDiagnostics(llvm::raw_ostream &os) const;

private:
  friend std::unique_ptr<LoadedSpec> loadSpec(const std::string &, const LoadOptions &);

  frontend::SourceManager sources_;
  std::unique_ptr<builtins::SpecBuilder> builder_;
  std::unique_ptr<star::Interpreter> interp_;
  const frontend::SourceFile *root_ = nullptr;
  frontend::DiagnosticList diags_;
  std::optional<star::EvalError> runtimeError_;
  star::ModuleEnv *module_ = nullptr;
  Spec spec_;
  bool ok_ = false;
};

// Never null; check ok().
std::unique_ptr<LoadedSpec> loadSpec(const std::string &path, const LoadOptions &opts = {});

} // namespace fbc::ir
