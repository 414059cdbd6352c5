#include "frontend/eval/program.h"

#include "frontend/eval/code.h"
#include "frontend/lib/printer.h"

namespace fbc::star {

Program::Program() : arena(std::make_unique<Arena>()), toplevelArena(std::make_unique<Arena>()) {}
Program::~Program() = default;

Value ModuleEnv::get(std::string_view name) const {
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == name)
      return globals[i];
  return Value();
}

Value ModuleEnv::loaded(const syntax::Ident *to) const {
  for (const auto &[ident, v] : loadBindings)
    if (ident == to)
      return v;
  return Value();
}

void ModuleEnv::repr(Printer &p) const {
  p.write("<module_env>");
}

std::unique_ptr<Program> compileProgram(const syntax::File &file, Environment env) {
  auto prog = std::make_unique<Program>();
  prog->lazy = std::make_unique<Program::Lazy>(*prog, std::move(env));
  Compiler &c = prog->lazy->compiler;
  c.file = file.source;
  for (const syntax::Binding *b : file.globals)
    prog->globalNames.push_back(b->first ? b->first->name.str() : std::string());

  // The top level is compiled like a function without parameters whose
  // locals are the file's locals.
  FunctionCode &top = prog->toplevel;
  top.name = "<toplevel>";
  top.file = file.source;
  top.pos = frontend::Pos{1, 1};
  top.numLocals = static_cast<uint32_t>(file.locals.size());
  for (uint32_t i = 0; i < file.locals.size(); ++i) {
    const syntax::Binding *b = file.locals[i];
    top.localNames.push_back(b->first ? b->first->name.str() : std::string());
    if (b->scope == syntax::Scope::Cell)
      top.cellLocals.push_back(i);
  }
  c.current = &top;
  top.body = c.block(file.stmts);
  c.current = nullptr;
  return prog;
}

ModuleEnv *execProgram(Thread &t, const Program &prog) {
  ModuleEnv *env = t.heap.make<ModuleEnv>();
  env->file = prog.toplevel.file;
  env->names = prog.globalNames;
  env->globals.assign(prog.globalNames.size(), Value());

  const FunctionCode &top = prog.toplevel;
  std::vector<Value> locals(top.numLocals + 1);
  for (uint32_t i : top.cellLocals)
    locals[i] = Value::object(t.heap.make<Cell>(Value()));

  CallFrame cf;
  cf.name = "<toplevel>";
  cf.file = top.file;
  cf.pos = top.pos;
  PushedFrame pushed(t, cf);
  Frame fr{t, locals.data(), nullptr, env, &cf, Value()};
  top.body.load(std::memory_order_relaxed)->exec(fr);

  for (Value v : env->globals)
    if (v.isObject())
      v.obj()->freeze();
  return env;
}

void releaseToplevel(Program &prog) {
  prog.toplevel.body = nullptr;
  prog.toplevelArena = std::make_unique<Program::Arena>();
}

} // namespace fbc::star
