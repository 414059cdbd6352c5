#include "ir/load_spec.h"

#include "frontend/eval/error_report.h"
#include "ir/builtins/install.h"
#include "ir/builtins/spec_builder.h"
#include "ir/verifier.h"

#include <llvm/Support/raw_ostream.h>

#include <cstdio>

namespace fbc::ir {

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
  interp.onParse = [builder](const syntax::File &file) { builder->callSites.addFile(file); };
  if (opts.print) {
    interp.thread.print = opts.print;
  } else {
    interp.thread.print = [](std::string_view line) {
      std::fwrite(line.data(), 1, line.size(), stderr);
      std::fputc('\n', stderr);
    };
  }

  star::Interpreter::Result r = interp.execFile(*l.root_, l.diags_);
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
