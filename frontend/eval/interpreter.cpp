#include "frontend/eval/interpreter.h"

#include "frontend/lib/objects.h"
#include "frontend/lib/universe/universe.h"
#include "frontend/resolve/resolver.h"
#include "frontend/syntax/parser.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>

namespace fbc::star {

Interpreter::Interpreter(frontend::SourceManager &sources, syntax::Dialect dialect)
    : thread(heap), sources(sources), dialect(dialect) {
  thread.dialect = dialect;
  thread.load = [this](Thread &, std::string_view module, const frontend::SourceFile *from) {
    return loadModule(module, from);
  };
}

Interpreter::~Interpreter() = default;

const syntax::File *Interpreter::parse(const frontend::SourceFile &file,
                                       frontend::DiagnosticList &diags) {
  asts_.push_back(std::make_unique<syntax::AstContext>());
  syntax::AstContext &ctx = *asts_.back();
  syntax::File *ast = syntax::parseFile(ctx, file, diags);
  if (!ast)
    return nullptr;
  auto isPredeclared = [this](llvm::StringRef name) { return predeclared.count(name) != 0; };
  auto universal = [](llvm::StringRef name) { return isUniversal(name); };
  auto all = [this](std::vector<llvm::StringRef> &out) {
    for (const auto &entry : predeclared)
      out.push_back(entry.first());
    for (const auto &[name, value] : universeMembers())
      out.push_back(name);
  };
  resolve::Environment env{isPredeclared, universal, all};
  if (!resolve::resolveFile(ctx, *ast, dialect, env, diags))
    return nullptr;
  if (onParse)
    onParse(*ast);
  return ast;
}

std::unique_ptr<Program> Interpreter::compile(const syntax::File &file) {
  // A snapshot: function bodies compile on first call, and an embedder may
  // change `predeclared` between modules (the lookups are the ones in force
  // when the module was compiled).
  auto names = std::make_shared<const llvm::StringMap<Value>>(predeclared);
  auto pre = [names](llvm::StringRef name) {
    auto it = names->find(name);
    return it == names->end() ? Value() : it->second;
  };
  auto uni = [](llvm::StringRef name) { return lookupUniverse(name); };
  Environment env{pre, uni};
  return compileProgram(file, env);
}

ModuleEnv *Interpreter::run(const syntax::File &file) {
  programs_.push_back(compile(file));
  ModuleEnv *env = execProgram(thread, *programs_.back());
  releaseToplevel(*programs_.back());
  return env;
}

Interpreter::Result Interpreter::execFile(const frontend::SourceFile &file,
                                          frontend::DiagnosticList &diags) {
  Result r;
  const syntax::File *ast = parse(file, diags);
  if (!ast) {
    r.staticErrors = true;
    return r;
  }
  try {
    r.module = run(*ast);
  } catch (EvalError &e) {
    r.error = std::move(e);
  }
  return r;
}

Value moduleValue(Heap &heap, const ModuleEnv &env, std::string name) {
  Module *m = heap.make<Module>(std::move(name));
  for (size_t i = 0; i < env.names.size(); ++i)
    if (!env.globals[i].isNull() && !env.names[i].empty() && env.names[i][0] != '_')
      m->members.emplace_back(env.names[i], env.globals[i]);
  std::sort(m->members.begin(), m->members.end(),
            [](const auto &a, const auto &b) { return a.first < b.first; });
  m->freeze();
  return Value::object(m);
}

// load("x.star"): the path is relative to the directory of the loading
// file. Errors are reported as Go does: "cannot load x.star: <reason>".
Value Interpreter::loadModule(std::string_view module, const frontend::SourceFile *from) {
  if (loadHook)
    if (Value v = loadHook(*this, module))
      return v;
  llvm::SmallString<256> path;
  if (from && !llvm::sys::path::is_absolute(module))
    path = llvm::sys::path::parent_path(from->path());
  llvm::sys::path::append(path, module);
  llvm::sys::path::remove_dots(path, true);
  std::string key(path.str());

  auto it = loaded_.find(key);
  if (it != loaded_.end()) {
    if (it->second.inProgress)
      thread.fail("cannot load " + std::string(module) + ": cycle in load graph");
    return it->second.module;
  }
  std::string error;
  const frontend::SourceFile *file = sources.load(key, error);
  if (!file)
    thread.fail("cannot load " + std::string(module) + ": " + error);
  loaded_[key] = Loaded{Value(), true};

  frontend::DiagnosticList diags;
  const syntax::File *ast = parse(*file, diags);
  if (!ast) {
    loaded_.erase(key);
    // Fail as the module's top level would at the error, so the report
    // shows the module's line with a caret and the load() in the backtrace,
    // as a runtime error inside the module does.
    const frontend::Diagnostic &d = diags.all().front();
    CallFrame at;
    at.name = "<toplevel>";
    at.file = d.file;
    at.pos = d.pos;
    PushedFrame pushed(thread, at);
    thread.fail("cannot load " + std::string(module) + ": " + d.message);
  }
  ModuleEnv *env;
  try {
    env = run(*ast);
  } catch (EvalError &) {
    loaded_.erase(key);
    throw;
  }
  Value m = moduleValue(heap, *env, std::string(module));
  loaded_[key] = Loaded{m, false};
  return m;
}

} // namespace fbc::star
