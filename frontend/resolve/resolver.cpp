// Name resolution with the semantics of Go's resolve/resolve.go.
//
// The lexical environment is a tree of blocks: the file block at the root,
// function and comprehension blocks below it. Binding uses (assignments,
// parameters, loop variables) create bindings as they are met; other uses
// are recorded per container (function or file) and resolved when the
// container ends (locals and cells), or at the end of the file (free
// variables, globals, predeclared and universal names), because a function
// may refer to a global or an enclosing local bound later in the text.
#include "frontend/resolve/resolver_impl.h"

#include "frontend/lib/spellcheck.h"

#include <algorithm>

namespace fbc::resolve {
namespace {

using namespace syntax;

const char *scopeName(Scope s) {
  switch (s) {
  case Scope::Undefined:
    return "undefined";
  case Scope::Local:
    return "local";
  case Scope::Cell:
    return "cell";
  case Scope::Free:
    return "free";
  case Scope::Global:
    return "global";
  case Scope::Predeclared:
    return "predeclared";
  case Scope::Universal:
    return "universal";
  }
  return "?";
}

// Go's lower-cased syntax type names, for "can't assign to literal".

} // namespace

namespace detail {

void Resolver::error(Pos pos, std::string msg) {
  diags_.error(file_.source, pos, std::move(msg));
  failed_ = true;
}

std::string Resolver::posString(Pos pos) const {
  std::string path = file_.source ? file_.source->path() : "<unknown>";
  return path + ":" + std::to_string(pos.line) + ":" + std::to_string(pos.col);
}

Binding *Resolver::newBinding(Scope scope, uint32_t index, Ident *first) {
  Binding *b = ctx_.make<Binding>();
  b->scope = scope;
  b->index = index;
  b->first = first;
  return b;
}

// The innermost enclosing function block, or the file block.
Block *Resolver::container() const {
  for (Block *b = env_;; b = b->parent)
    if (b->function || b == fileBlock_)
      return b;
}

void Resolver::push(Block *b) {
  env_->children.push_back(b);
  b->parent = env_;
  env_ = b;
}

// Binds `id` in the current block: a global at top level (reporting a
// reassignment unless the dialect allows it), a local otherwise. Returns
// whether a binding already existed.
bool Resolver::bind(Ident *id) {
  if (env_ != fileBlock_)
    return bindLocal(id);
  Binding *b = fileBlock_->bindings.lookup(id->name);
  bool existed = b != nullptr;
  if (!b) {
    auto [it, inserted] = globals_.try_emplace(id->name, nullptr);
    existed = !inserted;
    if (inserted) {
      it->second = newBinding(Scope::Global, static_cast<uint32_t>(moduleGlobals_.size()), id);
      moduleGlobals_.push_back(it->second);
    }
    b = it->second;
  }
  if (existed && !globalReassign_)
    error(id->pos, std::string("cannot reassign ") + scopeName(b->scope) + " " + id->name.str() +
                       " declared at " + posString(b->first->pos));
  id->binding = b;
  return existed;
}

bool Resolver::bindLocal(Ident *id) {
  bool existed = env_->bindings.count(id->name) != 0;
  if (!existed) {
    Block *c = container();
    auto &locals = c->function ? c->locals : moduleLocals_;
    Binding *b = newBinding(Scope::Local, static_cast<uint32_t>(locals.size()), id);
    env_->bindings[id->name] = b;
    locals.push_back(b);
  }
  use(id);
  return existed;
}

void Resolver::use(Ident *id) {
  Use u{id, env_};
  // Legacy (Bazel/Python) semantics piggyback on global reassignment: a
  // top-level use sees only the bindings made before it.
  if (globalReassign_ && env_ == fileBlock_) {
    useTopLevel(u);
    return;
  }
  container()->uses.push_back(u);
}

// Resolves a name visible at top level: file-local, global,
// predeclared or universal.
Binding *Resolver::useTopLevel(const Use &u) {
  Ident *id = u.id;
  Binding *b = fileBlock_->bindings.lookup(id->name);
  if (!b)
    b = globals_.lookup(id->name);
  if (!b)
    b = predeclared_.lookup(id->name);
  if (!b) {
    if (environment_.isPredeclared && environment_.isPredeclared(id->name)) {
      b = newBinding(Scope::Predeclared, 0, nullptr);
      predeclared_[id->name] = b;
    } else if (environment_.isUniversal && environment_.isUniversal(id->name)) {
      b = newBinding(Scope::Universal, 0, nullptr);
      predeclared_[id->name] = b;
    } else {
      b = newBinding(Scope::Undefined, 0, nullptr);
      std::string msg = "undefined: " + id->name.str();
      std::string_view hint = spellcheck(u);
      if (!hint.empty())
        msg += " (did you mean " + std::string(hint) + "?)";
      error(id->pos, std::move(msg));
    }
  }
  id->binding = b;
  return b;
}

// The nearest name to a misspelled one among the enclosing blocks'
// bindings, the module's globals and (when the embedder lists them) the
// predeclared and universal names.
std::string_view Resolver::spellcheck(const Use &u) {
  spellNames_.clear();
  for (Block *b = u.env; b; b = b->parent)
    for (auto &entry : b->bindings)
      spellNames_.push_back(entry.first);
  for (Binding *g : moduleGlobals_)
    spellNames_.push_back(g->first->name);
  if (environment_.allPredeclared)
    environment_.allPredeclared(spellNames_);
  std::sort(spellNames_.begin(), spellNames_.end());
  llvm::SmallVector<std::string_view, 32> names;
  for (llvm::StringRef n : spellNames_)
    names.push_back(std::string_view(n.data(), n.size()));
  return star::nearestName(std::string_view(u.id->name.data(), u.id->name.size()), names);
}

// Looks a use up within its own function (or the file).
Binding *Resolver::lookupLocal(const Use &u) {
  for (Block *b = u.env; b; b = b->parent) {
    if (Binding *found = b->bindings.lookup(u.id->name))
      return found;
    if (b->function)
      break;
  }
  return nullptr;
}

// On leaving a container: resolve uses of its locals and cells; keep the
// rest (free, global, ...) for the end of the file.
void Resolver::resolveLocalUses(Block *b) {
  auto unresolved = b->uses.begin();
  for (const Use &u : b->uses) {
    Binding *found = lookupLocal(u);
    if (found && (found->scope == Scope::Local || found->scope == Scope::Cell))
      u.id->binding = found;
    else
      *unresolved++ = u;
  }
  b->uses.erase(unresolved, b->uses.end());
}

void Resolver::resolveNonLocalUses(Block *b) {
  for (Block *child : b->children)
    resolveNonLocalUses(child);
  for (const Use &u : b->uses)
    u.id->binding = lookupLexical(u, u.env);
}

// Looks a use up through the enclosing blocks. A local of an enclosing
// function becomes a cell there and a free variable of every function in
// between; results are memoized per block so each function captures a
// name at most once.
Binding *Resolver::lookupLexical(const Use &u, Block *env) {
  if (env == fileBlock_)
    return useTopLevel(u);
  if (Binding *b = env->bindings.lookup(u.id->name))
    return b;
  Binding *b = lookupLexical(u, env->parent);
  if (env->function &&
      (b->scope == Scope::Local || b->scope == Scope::Free || b->scope == Scope::Cell)) {
    if (b->scope == Scope::Local)
      b->scope = Scope::Cell;
    uint32_t index = static_cast<uint32_t>(env->freevars.size());
    env->freevars.push_back(b);
    b = newBinding(Scope::Free, index, b->first);
  }
  env->bindings[u.id->name] = b;
  return b;
}

} // namespace detail

bool resolveFile(AstContext &ctx, File &file, const Dialect &dialect, const Environment &env,
                 frontend::DiagnosticList &diags) {
  return detail::Resolver(ctx, file, dialect, env, diags).run();
}

} // namespace fbc::resolve
