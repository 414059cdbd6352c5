// `fbc recipes`: see recipes.h.
#include "backend/recipes.h"

#include "frontend/eval/function.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/printer.h"
#include "ir/builtins/values.h"
#include "ir/load/load_spec.h"
#include "ir/load/stdlib.h"
#include "ir/quote.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/raw_ostream.h>

#include <unistd.h>

#include <algorithm>

namespace fbc::backend {

namespace {

constexpr std::string_view kRecipesDir = "@faultbox/recipes/";

// The module header's first sentence, without the module's own path.
std::string summaryOf(std::string_view text) {
  std::string para;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    std::string_view line = text.substr(at, end == std::string_view::npos ? end : end - at);
    at = end == std::string_view::npos ? text.size() : end + 1;
    if (!line.starts_with("#"))
      break;
    line.remove_prefix(1);
    while (!line.empty() && line.front() == ' ')
      line.remove_prefix(1);
    if (line.empty())
      break; // the end of the first paragraph
    if (line.starts_with("@faultbox/"))
      if (size_t colon = line.find(": "); colon != std::string_view::npos)
        line.remove_prefix(colon + 2);
    if (!para.empty())
      para += ' ';
    para += line;
  }
  size_t dot = para.find(". ");
  if (dot != std::string::npos)
    para.resize(dot + 1);
  return para;
}

// Whether the module's recipes are a struct named after it (`redis =
// struct(...)`), as most are; the others export top-level functions.
bool definesStruct(std::string_view text, const std::string &name) {
  std::string head = "\n" + name;
  head += " = struct(";
  return text.find(head) != std::string_view::npos;
}

// The module's top-level `def name(` lines, private (`_x`) ones left out.
std::vector<std::string> publicFunctions(std::string_view text) {
  std::vector<std::string> out;
  for (size_t at = 0; (at = text.find("\ndef ", at)) != std::string_view::npos;) {
    at += 5;
    size_t end = text.find('(', at);
    if (end != std::string_view::npos && text[at] != '_')
      out.emplace_back(text.substr(at, end - at));
  }
  return out;
}

// `redis.oom(key = "*")`: the parameters with the values their defaults
// hold (a closure's default may be a variable: `query = default`).
std::string signatureOf(const std::string &object, const std::string &name,
                        const star::Function &fn) {
  std::string out = object + name + "(";
  const syntax::Function *syn = fn.code->syntax;
  if (!syn)
    return out + "...)";
  // The defaults belong to the last of the named parameters (call.cpp).
  size_t named = 0;
  for (const syntax::Param &p : syn->params)
    named += p.kind == syntax::Param::Kind::Required || p.kind == syntax::Param::Kind::Optional;
  size_t firstDefault = named - std::min(named, fn.defaults.size()), index = 0;
  for (size_t i = 0; i < syn->params.size(); ++i) {
    const syntax::Param &p = syn->params[i];
    out += i ? ", " : "";
    if (p.kind == syntax::Param::Kind::Star)
      out += "*";
    else if (p.kind == syntax::Param::Kind::StarStar)
      out += "**";
    out += p.name ? p.name->name.str() : "";
    if (p.kind != syntax::Param::Kind::Required && p.kind != syntax::Param::Kind::Optional)
      continue;
    size_t at = index++;
    if (p.kind != syntax::Param::Kind::Optional)
      continue;
    // An optional parameter's default is always in the closure (only a
    // keyword-only parameter without one has a null there).
    out += " = " + star::repr(fn.defaults[at - firstDefault]);
  }
  return out + ")";
}

// What the recipe returns when called with its defaults.
std::string ruleOf(star::Thread &t, star::Value fn) {
  try {
    star::Value v = star::call(t, fn, llvm::ArrayRef<star::Value>{});
    if (auto *r = ir::builtins::valueAs<ir::builtins::ProxyRuleValue>(v))
      return r->data.display();
    if (auto *f = ir::builtins::valueAs<ir::builtins::FaultValue>(v))
      return star::repr(star::Value::object(f));
    return star::repr(v);
  } catch (const star::EvalError &e) {
    return "(not callable without arguments: " + e.message() + ")";
  }
}

llvm::Error loadModule(const std::string &path, RecipeModule &m) {
  // A spec of one load() line: the module runs as any spec's load would.
  llvm::SmallString<128> file;
  int fd = -1;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile("fbc-recipe", "star", fd, file))
    return llvm::createStringError(ec, "temporary file: %s", ec.message().c_str());
  // load() binds in the file's scope; a global is what the loader reads.
  std::string text = "load(";
  text += ir::quote(path);
  if (m.functions.empty()) {
    text += ", ";
    text += ir::quote(m.name);
    text += ")\nrecipes = ";
    text += m.name;
  } else {
    for (const std::string &f : m.functions) {
      text += ", ";
      text += ir::quote(f);
    }
    text += ")\nrecipes = struct(";
    for (const std::string &f : m.functions) {
      text += f;
      text += " = ";
      text += f;
      text += ", ";
    }
    text += ")";
  }
  text += "\n";
  bool written = ::write(fd, text.data(), text.size()) == ssize_t(text.size());
  ::close(fd);
  std::unique_ptr<ir::LoadedSpec> loaded;
  if (written)
    loaded = ir::loadSpec(std::string(file));
  llvm::sys::fs::remove(file);
  if (!loaded || !loaded->ok())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s does not load",
                                   path.c_str());
  auto *s = loaded->global("recipes").as<star::Struct>();
  if (!s)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s has no struct %s",
                                   path.c_str(), m.name.c_str());
  star::Thread &t = loaded->interpreter().thread;
  for (const auto &[name, value] : s->fields) {
    Recipe r;
    r.name = name;
    std::string prefix = m.functions.empty() ? m.name + "." : "";
    if (auto *fn = value.as<star::Function>())
      r.signature = signatureOf(prefix, name, *fn);
    else
      r.signature = prefix + name;
    r.rule = value.as<star::Function>() ? ruleOf(t, value) : star::repr(value);
    m.recipes.push_back(std::move(r));
  }
  return llvm::Error::success();
}

} // namespace

llvm::Expected<std::vector<RecipeModule>> shippedRecipes() {
  std::vector<RecipeModule> out;
  for (size_t i = 0; i < ir::kStdlibModuleCount; ++i) {
    std::string_view path = ir::kStdlibModules[i].path;
    if (!path.starts_with(kRecipesDir) || !path.ends_with(".star"))
      continue;
    RecipeModule m;
    m.path = std::string(path);
    m.name = std::string(path.substr(kRecipesDir.size(), path.size() - kRecipesDir.size() - 5));
    m.summary = summaryOf(ir::kStdlibModules[i].text);
    if (!definesStruct(ir::kStdlibModules[i].text, m.name))
      m.functions = publicFunctions(ir::kStdlibModules[i].text);
    if (llvm::Error e = loadModule(m.path, m))
      return e;
    out.push_back(std::move(m));
  }
  return out;
}

// `load("@faultbox/recipes/redis.star", "redis")`; for a module of
// top-level functions, `load("...", "<recipe>", ...)`.
static std::string loadLine(const RecipeModule &m) {
  std::string line = "load(";
  line += ir::quote(m.path);
  line += ", ";
  line += m.functions.empty() ? ir::quote(m.name) : std::string("\"<recipe>\", ...");
  line += ")";
  return line;
}

void emitRecipeList(const std::vector<RecipeModule> &mods, llvm::raw_ostream &os) {
  for (const RecipeModule &m : mods) {
    os << m.name << "  " << loadLine(m) << "\n";
    if (!m.summary.empty())
      os << "  " << m.summary << '\n';
    os << "  recipes:";
    for (size_t i = 0; i < m.recipes.size(); ++i)
      os << (i ? ", " : " ") << m.recipes[i].name;
    os << "\n";
  }
  os << mods.size() << " recipe modules; fbc recipes show NAME for signatures and rules\n";
}

bool emitRecipe(const std::vector<RecipeModule> &mods, const std::string &name,
                llvm::raw_ostream &os) {
  for (const RecipeModule &m : mods) {
    if (m.name != name)
      continue;
    os << loadLine(m) << "\n";
    if (!m.summary.empty())
      os << "# " << m.summary << '\n';
    for (const Recipe &r : m.recipes)
      os << '\n' << r.signature << "\n  -> " << r.rule << '\n';
    return true;
  }
  return false;
}

} // namespace fbc::backend
