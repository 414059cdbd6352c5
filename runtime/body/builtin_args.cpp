#include "runtime/body/builtin_args.h"

#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "ir/builtins/binder.h"
#include "ir/builtins/call_site.h"

namespace fbc::rt {

void failUnknownKeyword(star::Thread &t, std::string msg) {
  ir::builtins::failMistake(t, ir::DiagCode::UnknownKeyword, std::move(msg));
}

void failBadArgument(star::Thread &t, std::string msg) {
  ir::builtins::failMistake(t, ir::DiagCode::BadArgument, std::move(msg));
}

void failBadDuration(star::Thread &t, std::string msg) {
  ir::builtins::failMistake(t, ir::DiagCode::BadDuration, std::move(msg));
}

std::string strArg(star::Thread &t, star::Value v, const std::string &what) {
  auto *s = v.as<star::String>();
  if (!s)
    failBadArgument(t, what + " must be a string, got " + std::string(star::typeName(v)));
  return std::string(s->view());
}

star::Value kwarg(const star::Args &args, std::string_view name) {
  const star::Kwarg *k = ir::builtins::findKeyword(args, name);
  return k ? k->value : star::Value();
}

ir::Loc callerLoc(star::Thread &t) {
  if (t.top && t.top->parent && t.top->parent->file)
    return ir::Loc{t.top->parent->file, t.top->parent->pos};
  return ir::Loc{};
}

std::string atCaller(star::Thread &t, const std::string &msg) {
  ir::Loc loc = callerLoc(t);
  return loc.valid() ? loc.str() + ": " + msg : msg;
}

} // namespace fbc::rt
