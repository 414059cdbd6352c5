#include "ir/builtins/arg_util.h"

#include "frontend/eval/function.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/spellcheck.h"
#include "ir/duration.h"
#include "ir/quote.h"

namespace fbc::ir::builtins {

using star::Value;

std::string typeOf(Value v) {
  return std::string(star::typeName(v));
}

bool isNone(Value v) {
  return v.isObject() && v.kind() == star::Kind::None;
}

bool listItems(Value v, std::vector<Value> &out) {
  out.clear();
  if (auto *l = v.as<star::List>()) {
    out = l->elems;
    return true;
  }
  if (auto *t = v.as<star::Tuple>()) {
    out.assign(t->elems().begin(), t->elems().end());
    return true;
  }
  return false;
}

bool isCallable(Value v) {
  return v.isObject() && v.obj()->callable();
}

FunctionRef functionRef(Value v) {
  FunctionRef ref;
  ref.value = v;
  if (!v.isObject())
    return ref;
  ref.name = std::string(v.obj()->name());
  if (auto *fn = v.as<star::Function>()) {
    ref.syntax = fn->code->syntax;
    ref.loc = Loc{fn->code->file, fn->code->pos};
  }
  return ref;
}

int64_t durationArg(const CallSite &site, Value v, const Loc &at, std::string_view what,
                    bool allowZero) {
  auto *s = v.as<star::String>();
  if (!s)
    site.fail(at, std::string(what) + ": want a duration string like \"500ms\" or \"1m30s\", got " +
                      typeOf(v));
  if (std::optional<std::string> error = durationError(s->view(), what, allowZero))
    site.fail(at, std::move(*error), DiagCode::BadDuration);
  std::string ignored;
  return *parseDuration(s->view(), ignored);
}

std::optional<std::string> durationError(std::string_view text, std::string_view what,
                                         bool allowZero) {
  std::string error;
  std::optional<int64_t> d = parseDuration(text, error);
  if (!d)
    return std::string(what) + ": " + error;
  if (*d < 0 || (*d == 0 && !allowZero))
    return std::string(what) + ": duration must be " +
           (allowZero ? "zero or positive" : "positive") + ", got " + quote(text);
  return std::nullopt;
}

std::string joinNames(llvm::ArrayRef<std::string_view> names) {
  std::string out;
  for (std::string_view n : names) {
    if (!out.empty())
      out += ", ";
    out += n;
  }
  return out;
}

std::string joinNames(llvm::ArrayRef<std::string> names) {
  std::string out;
  for (const std::string &n : names) {
    if (!out.empty())
      out += ", ";
    out += n;
  }
  return out;
}

std::string unknownKeywordMessage(std::string_view prefix, std::string_view name,
                                  llvm::ArrayRef<std::string_view> valid) {
  std::string msg = std::string(prefix) + " unknown keyword argument " + quote(name) +
                    "; valid: " + joinNames(valid);
  std::string_view near = star::nearestName(name, valid);
  if (!near.empty())
    msg += " (did you mean " + quote(near) + "?)";
  return msg;
}

} // namespace fbc::ir::builtins
