// Calling Starlark functions: argument binding (Go's setArgs, with its
// messages), frames, closures and the recursion check.
#include "frontend/eval/code.h"
#include "frontend/lib/iteration.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/printer.h"

#include <alloca.h>

#include <llvm/ADT/SmallVector.h>

namespace fbc::star {
namespace {

[[noreturn]] void failArgs(Thread &t, const FunctionCode &c, std::string msg) {
  t.fail("function " + c.name + " " + msg);
}

[[noreturn]] void failMissing(Thread &t, const FunctionCode &c,
                              llvm::ArrayRef<const std::string *> missing) {
  std::string names;
  for (const std::string *m : missing) {
    if (!names.empty())
      names += ", ";
    names += *m;
  }
  failArgs(t, c,
           "missing " + std::to_string(missing.size()) + " argument" +
               (missing.size() > 1 ? "s" : "") + " (" + names + ")");
}

// Binds args into locals[0..numParams) following Go's rules:
// positional to the leading parameters, surplus to *args, keywords by name,
// surplus keywords to **kwargs, then defaults; reports what is missing.
void bindArguments(Thread &t, const Function &fn, const Args &args, Value *locals) {
  const FunctionCode &c = *fn.code;
  const size_t npos = args.positional.size();
  if (c.numParams == 0) {
    size_t n = npos + args.kwargs.size();
    if (n > 0)
      failArgs(t, c, "accepts no arguments (" + std::to_string(n) + " given)");
    return;
  }
  uint32_t nparams = c.numParams;
  Dict *kwdict = nullptr;
  if (c.hasKwargs) {
    --nparams;
    kwdict = t.heap.make<Dict>();
    locals[nparams] = Value::object(kwdict);
  }
  if (c.hasVarargs)
    --nparams;
  const uint32_t nonkwonly = nparams - c.numKwonly;

  size_t n = npos;
  if (npos > nonkwonly) {
    if (!c.hasVarargs)
      failArgs(t, c,
               std::string("accepts ") + (fn.defaults.size() > c.numKwonly ? "at most " : "") +
                   std::to_string(nonkwonly) + " positional argument" +
                   (nonkwonly == 1 ? "" : "s") + " (" + std::to_string(npos) + " given)");
    n = nonkwonly;
  }
  for (size_t i = 0; i < n; ++i)
    locals[i] = args.positional[i];
  if (c.hasVarargs)
    locals[nparams] = Value::object(makeTuple(t.heap, args.positional.slice(n)));

  for (const Kwarg &kw : args.kwargs) {
    uint32_t i = 0;
    // Interned names compare by pointer first; a name built at run time
    // (**kwargs) falls back to the bytes.
    while (i < nparams && c.paramNames[i] != kw.name && c.paramNames[i]->view() != kw.name->view())
      ++i;
    if (i < nparams) {
      if (!locals[i].isNull())
        failArgs(t, c, "got multiple values for parameter " + repr(Value::object(kw.name)));
      locals[i] = kw.value;
      continue;
    }
    if (!kwdict)
      failArgs(t, c, "got an unexpected keyword argument " + repr(Value::object(kw.name)));
    size_t before = kwdict->table.size();
    kwdict->table.set(t, Value::object(kw.name), kw.value);
    if (kwdict->table.size() == before)
      failArgs(t, c, "got multiple values for parameter " + repr(Value::object(kw.name)));
  }

  if (n < nparams || c.numKwonly > 0) {
    const uint32_t firstDefault = nparams - static_cast<uint32_t>(fn.defaults.size());
    llvm::SmallVector<const std::string *, 4> missing;
    uint32_t i = static_cast<uint32_t>(n);
    for (; i < firstDefault; ++i)
      if (locals[i].isNull())
        missing.push_back(&c.localNames[i]);
    for (; i < nparams; ++i) {
      if (!locals[i].isNull())
        continue;
      Value d = fn.defaults[i - firstDefault];
      if (d.isNull())
        missing.push_back(&c.localNames[i]);
      else
        locals[i] = d;
    }
    if (!missing.empty())
      failMissing(t, c, missing);
  }
}

// Pops the frame and the recursion counter however the call ends.
struct ActiveCall {
  Thread &t;
  const FunctionCode &code;
  ActiveCall(Thread &t, const FunctionCode &code, CallFrame &cf) : t(t), code(code) {
    t.push(cf);
    ++code.active;
  }
  ~ActiveCall() {
    --code.active;
    t.pop();
  }
};

// Whether `c` is on `t`'s own call stack. Looked up only when the counter
// says `c` runs somewhere: other threads (parallel() branches, fbc run's
// concurrent leaves) may be running the same function, which is no
// recursion.
bool onStack(const Thread &t, const FunctionCode &c) {
  for (const CallFrame *f = t.top; f; f = f->parent)
    if (f->fn && f->fn->code == &c)
      return true;
  return false;
}

} // namespace

Value callFunction(Thread &t, const Function &fn, const Args &args) {
  const FunctionCode &c = *fn.code;
  if (c.active && !t.dialect.allowRecursion && onStack(t, c))
    t.fail("function " + c.name + " called recursively");
  t.step();

  Value *locals = static_cast<Value *>(alloca(sizeof(Value) * (c.numLocals + 1)));
  for (uint32_t i = 0; i < c.numLocals; ++i)
    locals[i] = Value();

  const uint32_t ordinary = c.numParams - c.hasVarargs - c.hasKwargs;
  if (args.kwargs.empty() && args.positional.size() == ordinary && c.numParams == ordinary &&
      c.numKwonly == 0) {
    for (uint32_t i = 0; i < ordinary; ++i)
      locals[i] = args.positional[i];
  } else {
    bindArguments(t, fn, args, locals);
  }
  for (uint32_t i : c.cellLocals)
    locals[i] = Value::object(t.heap.make<Cell>(locals[i]));

  CallFrame cf;
  cf.fn = &fn;
  cf.name = c.name.c_str();
  cf.file = c.file;
  cf.pos = c.pos;
  ActiveCall active(t, c, cf);
  Frame fr{t, locals, fn.freevars, fn.module, &cf, Value()};
  compiledBody(c)->exec(fr);
  return fr.result.isNull() ? none() : fr.result;
}

Value makeClosure(Frame &fr, const FunctionCode *code, llvm::ArrayRef<const ExprCode *> defaults) {
  Heap &h = fr.t.heap;
  // Defaults: one per optional parameter, then null for each keyword-only
  // parameter without one, in parameter order (Go's defaults tuple).
  llvm::SmallVector<Value, 8> dvals;
  for (const ExprCode *d : defaults)
    dvals.push_back(d ? d->eval(fr) : Value());
  Value *dmem = nullptr;
  size_t ndefaults = dvals.size();
  if (ndefaults) {
    dmem = static_cast<Value *>(h.allocate(sizeof(Value) * ndefaults, alignof(Value)));
    std::copy(dvals.begin(), dvals.end(), dmem);
  }
  Cell **cells = nullptr;
  if (!code->captures.empty()) {
    cells =
        static_cast<Cell **>(h.allocate(sizeof(Cell *) * code->captures.size(), alignof(Cell *)));
    for (size_t i = 0; i < code->captures.size(); ++i) {
      const FunctionCode::Capture &cap = code->captures[i];
      cells[i] = cap.fromFreevar ? fr.freevars[cap.index]
                                 : static_cast<Cell *>(fr.locals[cap.index].obj());
    }
  }
  return Value::object(
      h.make<Function>(code, fr.module, llvm::ArrayRef<Value>(dmem, ndefaults), cells));
}

Value inplaceAdd(Frame &fr, Value x, Value y) {
  if (List *l = x.as<List>(); l && isIterable(y)) {
    l->checkMutable(fr.t, "apply += to");
    if (y == x) {
      std::vector<Value> copy = l->elems;
      l->elems.insert(l->elems.end(), copy.begin(), copy.end());
    } else {
      forEachElement(fr.t, y, [&](Value v) {
        l->elems.push_back(v);
        return true;
      });
    }
    return x;
  }
  return binary(fr.t, BinOp::Add, x, y);
}

// x |= y: a dict is updated in place, so its aliases see the update (Go's
// INPLACE_PIPE); anything else is x | y.
Value inplacePipe(Frame &fr, Value x, Value y) {
  Dict *d = x.as<Dict>();
  const Dict *from = y.as<Dict>();
  if (!d || !from)
    return binary(fr.t, BinOp::BitOr, x, y);
  d->checkMutable(fr.t, "apply |= to");
  for (const HashTable::Entry &e : from->table.entries())
    if (!e.value.isNull())
      d->table.set(fr.t, e.key, e.value);
  return x;
}

Value call(Thread &t, Value f, const Args &args) {
  if (Function *fn = f.as<Function>())
    return callFunction(t, *fn, args);
  if (Builtin *b = f.as<Builtin>()) {
    BuiltinFrame frame(t, b->name_);
    return b->fn(t, b->self, args);
  }
  if (f.isObject() && f.obj()->callable())
    return f.obj()->call(t, args);
  t.fail("invalid call of non-function (" + std::string(typeName(f)) + ")");
}

void Cell::repr(Printer &p) const {
  p.write("<cell>");
}

void Function::repr(Printer &p) const {
  p.write("<function ");
  p.write(code->name);
  p.write(">");
}

uint32_t Function::hash(Thread &) const {
  uintptr_t v = reinterpret_cast<uintptr_t>(this);
  return static_cast<uint32_t>(v ^ (v >> 32));
}

Value Function::call(Thread &t, const Args &args) {
  return callFunction(t, *this, args);
}

void Function::freeze() {
  if (frozen_)
    return;
  frozen_ = true;
  for (Value d : defaults)
    if (d.isObject())
      d.obj()->freeze();
  for (size_t i = 0; i < code->captures.size(); ++i)
    if (freevars[i]->value.isObject())
      freevars[i]->value.obj()->freeze();
}

} // namespace fbc::star
