#include "ir/load/load_spec.h"

#include "frontend/eval/budget.h"
#include "frontend/eval/error_report.h"
#include "ir/builtins/install.h"
#include "ir/builtins/spec_builder.h"
#include "ir/load/load_limits.h"
#include "ir/load/stdlib.h"
#include "ir/verify/verifier.h"

#include <llvm/ADT/StringMap.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdio>
#include <new>
#include <string>

namespace fbc::ir {

namespace {

// load("@faultbox/<path>"): fbc's embedded modules (ir/load/stdlib.h). Each runs
// once per spec, whichever files load it; its source is registered under
// its "@faultbox/..." name, so diagnostics and tracebacks inside it show
// its lines. Any other name falls through to the frontend's file loader
// (relative to the loading file's directory).
class StdlibLoader {
public:
  star::Value load(star::Interpreter &interp, std::string_view module) {
    if (!isStdlibPath(module))
      return star::Value();
    star::Thread &thread = interp.thread;
    const StdlibModule *m = findStdlibModule(module);
    if (!m)
      thread.fail(stdlibNotFound(module));
    auto it = loaded_.find(module);
    if (it != loaded_.end()) {
      if (!it->second)
        thread.fail("cannot load " + std::string(module) + ": cycle in load graph");
      return it->second;
    }
    const frontend::SourceFile *file =
        interp.sources.add(std::string(module), std::string(m->text));
    loaded_[module] = star::Value();
    frontend::DiagnosticList diags;
    const syntax::File *ast = interp.parse(*file, diags);
    if (!ast) { // a bug in fbc's module: report it where it is
      const frontend::Diagnostic &d = diags.all().front();
      star::CallFrame at;
      at.name = "<toplevel>";
      at.file = d.file;
      at.pos = d.pos;
      star::PushedFrame pushed(thread, at);
      thread.fail("cannot load " + std::string(module) + ": " + d.message);
    }
    star::ModuleEnv *env;
    try {
      env = interp.run(*ast);
    } catch (star::EvalError &) {
      loaded_.erase(module);
      throw;
    }
    star::Value v = star::moduleValue(interp.heap, *env, std::string(module));
    loaded_[module] = v;
    return v;
  }

private:
  llvm::StringMap<star::Value> loaded_; // null while the module runs
};

// Runs the root file within the load's budgets (load_limits.h), lifted
// again afterwards: the thread runs test bodies later.
star::Interpreter::Result runWithinLimits(star::Interpreter &interp,
                                          const frontend::SourceFile &root,
                                          frontend::DiagnosticList &diags) {
  const LoadLimits &limits = loadLimits();
  star::Thread &t = interp.thread;
  t.setMaxSteps(limits.maxSteps);
  star::MemoryBudget budget;
  budget.maxBytes = limits.maxMemoryMiB << 20;
  budget.base = star::memoryInUse(t.heap);
  budget.message = "spec loading passed its memory budget of " +
                   std::to_string(limits.maxMemoryMiB) + " MiB (--max-load-memory raises it)";
  star::ScopedMemoryBudget scope(budget);
  // What loops build, every checkpointEvery steps.
  t.checkpoint = [&t] { star::checkMemory(t); };
  star::Interpreter::Result r;
  try {
    r = interp.execFile(root, diags);
  } catch (const std::bad_alloc &) {
    // An allocation no budget check saw coming (ulimit -v or the machine's
    // memory below the budget): an error, not a crash.
    diags.error(&root, {},
                "spec loading ran out of memory (ulimit -v or the machine's memory is below "
                "the load's budget of " +
                    std::to_string(limits.maxMemoryMiB) + " MiB; --max-load-memory lowers it)");
    r.staticErrors = true;
  }
  // The interpreter's own words for a step limit, said as the load's.
  if (r.error && r.error->message() == "Starlark computation cancelled: too many steps") {
    star::EvalError said("spec loading passed its budget of " + std::to_string(limits.maxSteps) +
                         " execution steps (--max-load-steps raises it)");
    said.frames = std::move(r.error->frames);
    r.error = std::move(said);
  }
  t.setMaxSteps(UINT64_MAX);
  t.checkpoint = nullptr;
  return r;
}

} // namespace

LoadLimits &loadLimits() {
  static LoadLimits limits;
  return limits;
}

LoadedSpec::LoadedSpec() = default;

// The interpreter (and its heap) goes before the builder that points into it.
LoadedSpec::~LoadedSpec() {
  interp_.reset();
}

void LoadedSpec::setBodyRuntime(BodyRuntime *body) {
  if (builder_)
    builder_->body = body;
}

star::Value LoadedSpec::global(std::string_view name) const {
  return module_ ? module_->get(name) : star::Value();
}

void LoadedSpec::printDiagnostics(llvm::raw_ostream &os) const {
  diags_.print(os);
  if (runtimeError_)
    star::printRuntimeError(os, *runtimeError_, sources_, star::TracebackMode::IfNested);
}

std::unique_ptr<LoadedSpec> loadSpec(const std::string &path, const LoadOptions &opts) {
  auto loaded = std::make_unique<LoadedSpec>();
  LoadedSpec &l = *loaded;
  std::string error;
  l.root_ = l.sources_.load(path, error);
  if (!l.root_) {
    l.diags_.error(nullptr, {}, error);
    return loaded;
  }
  l.builder_ = std::make_unique<builtins::SpecBuilder>();
  l.interp_ = std::make_unique<star::Interpreter>(l.sources_);
  star::Interpreter &interp = *l.interp_;
  builtins::installSpecBuiltins(interp, *l.builder_);
  builtins::SpecBuilder *builder = l.builder_.get();
  builder->sources = &l.sources_;
  builder->specDir = llvm::sys::path::parent_path(path).str();
  interp.onParse = [builder](const syntax::File &file) { builder->callSites.addFile(file); };
  auto stdlib = std::make_shared<StdlibLoader>();
  interp.loadHook = [stdlib](star::Interpreter &in, std::string_view module) {
    return stdlib->load(in, module);
  };
  if (opts.print) {
    interp.thread.print = opts.print;
  } else {
    interp.thread.print = [](std::string_view line) {
      std::fwrite(line.data(), 1, line.size(), stderr);
      std::fputc('\n', stderr);
    };
  }

  star::Interpreter::Result r = runWithinLimits(interp, *l.root_, l.diags_);
  if (r.staticErrors)
    return loaded;
  if (r.error) {
    l.runtimeError_ = std::move(r.error);
    return loaded;
  }
  l.module_ = r.module;
  l.spec_ = l.builder_->finish(*r.module, path, l.diags_);
  l.ok_ = verifySpec(l.spec_, l.diags_);
  return loaded;
}

} // namespace fbc::ir
