// A builtin's parameters declared once, as go.starlark.net's UnpackArgs
// declares them: one table of (name, flags, reader) from which the binding
// of a call, its mistakes (a keyword the builtin does not take, a parameter
// given twice, a required one missing, too many positionals) and the list
// of accepted keywords in those messages all come.
//
//   struct TlsCertReader { ... };
//   constexpr Param<TlsCert> kTlsCertParams[] = {
//       {"proxy_cert", readProxyCert}, ..., {"insecure", readInsecure}};
//   bindKeywords(BindCall(site, args, {"tls_cert()"}), kTlsCertParams, cert);
//
// The call's arguments are read in the order written (positionals, then
// keywords), each by its parameter's reader as it comes, so the first
// mistake in a call is the one reported, as a loop over the keywords did;
// a missing required parameter is failed after every argument was read.
// The wording of each message is the builtin's own (Wording): the messages
// the builtins had before the binder are the goldens' contract.
#pragma once

#include "frontend/lib/value.h"
#include "ir/builtins/call_site.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/STLFunctionalExtras.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fbc::ir {
struct StepMethod;
}

namespace fbc::ir::builtins {

// How a builtin words a keyword it does not take.
enum class UnknownForm : uint8_t {
  // `<fn>: unknown keyword argument "k"; valid: a, b (did you mean "a"?)`
  Listed,
  // `<fn> unexpected keyword "k"; valid: a, b (did you mean "a"?)`: the
  // reference's fault_scenario() and fault_matrix(), with no code of its own.
  Reference,
  // Go's UnpackArgs: `<fn>: unexpected keyword argument "k" (did you mean a?)`
  Go,
  // A step's (bindStep, Wording::step): ir::stepKeywordMismatch's
  // `<fn>(): unexpected keyword "k" (want a=, b=)`, as the plan's body
  // check words it; a doubled one is
  // `<fn>(): k given twice`, a missing one `<fn>(): requires k=`, extra
  // positionals `<fn>(): got 3 positional arguments, want at most 2 (a=, b=)`.
  Step,
  // The builtin's own sentence: Wording::custom(fn, k) is the whole message.
  Custom,
};

struct Wording {
  // How the builtin is named where a message starts: "test()",
  // "service(\"api\")", "interface" (the Go form names it bare).
  std::string_view fn;
  UnknownForm unknown = UnknownForm::Listed;
  // The name in the Go-worded messages (missing, doubled, too many
  // positionals) when it differs from `fn`: client()'s "client".
  std::string_view goFn = {};
  // A doubled argument is "got multiple values for parameter "k"" rather
  // than "... for keyword argument "k"".
  bool duplicateAsParameter = false;
  std::string (*custom)(std::string_view fn, std::string_view keyword) = nullptr;
  const StepMethod *step = nullptr;

  // The Custom form: `message(fn, keyword)` is the whole sentence.
  static Wording own(std::string_view fn,
                     std::string (*message)(std::string_view fn, std::string_view keyword)) {
    return {fn, UnknownForm::Custom, {}, false, message, nullptr};
  }
};

enum ParamFlag : uint8_t {
  Optional = 0,
  // Must be given: else Param::missing, or `<fn>: missing argument for <name>`.
  Required = 1,
  // May be given by position too: the n-th positional argument binds the
  // n-th Positional parameter of the table.
  Positional = 2,
};

// The parameter name of a catch-all (as a def's **kwargs): it reads every
// keyword no other parameter names, and is not listed in messages.
inline constexpr std::string_view kOtherKeywords = "**";

// A call being bound and the way its mistakes are failed.
class BindCall {
public:
  // A spec builtin's call: a mistake is located at its argument
  // (CallSite::fail).
  BindCall(const CallSite &site, const star::Args &args, Wording wording);
  // A body-time builtin the runtime implements: a mistake is failMistake's,
  // located at the call.
  BindCall(star::Thread &t, const star::Args &args, Wording wording);

  star::Thread &thread() const { return t_; }
  const star::Args &args() const { return args_; }
  const Wording &wording() const { return wording_; }
  // Null for a body-time builtin of the runtime.
  const CallSite *site() const { return site_; }

  // The argument of parameter `name` given by keyword, else the
  // `position`-th positional (SIZE_MAX: none); null when the call's
  // syntax is not at hand.
  const syntax::Expr *expr(std::string_view name, size_t position) const;
  Loc at(const syntax::Expr *e) const;

  // A mistake in the argument `where` (null: the call), with its code.
  [[noreturn]] void fail(const syntax::Expr *where, std::string msg, DiagCode code) const;
  [[noreturn]] void failUnknown(std::string_view keyword,
                                llvm::ArrayRef<std::string_view> accepted) const;
  [[noreturn]] void failDuplicate(std::string_view name) const;
  [[noreturn]] void failMissing(std::string_view name, std::string_view message) const;
  [[noreturn]] void failTooMany(size_t most) const;

private:
  std::string_view goFn() const { return wording_.goFn.empty() ? wording_.fn : wording_.goFn; }

  star::Thread &t_;
  const star::Args &args_;
  Wording wording_;
  const CallSite *site_ = nullptr;
};

// One argument as its parameter's reader sees it.
struct Arg {
  const BindCall &call;
  std::string_view name; // the parameter's (the keyword, for kOtherKeywords)
  star::Value value;
  const syntax::Expr *expr; // the argument in the call (null: unknown)

  Loc at() const { return call.at(expr); }
  const CallSite &site() const { return *call.site(); }
  star::Thread &thread() const { return call.thread(); }
};

template <typename T> struct Param {
  std::string_view name;
  void (*read)(T &target, const Arg &arg);
  uint8_t flags = Optional;
  // Required's message when the parameter is not given, if not Go's.
  std::string_view missing = {};
};

// What the generic binding needs of one parameter.
struct ParamDecl {
  std::string_view name;
  uint8_t flags = Optional;
  std::string_view missing = {};
};

// Binds `call`'s arguments to `n` parameters: read(i, arg) for each
// argument of parameter i in the order written. With `positionals` false
// the builtin reads its positional arguments itself and only keywords are
// bound.
void bindParams(const BindCall &call, size_t n, llvm::function_ref<ParamDecl(size_t)> decl,
                llvm::function_ref<void(size_t, const Arg &)> read, bool positionals);

template <typename T> void bind(const BindCall &call, llvm::ArrayRef<Param<T>> params, T &target) {
  bindParams(
      call, params.size(),
      [&](size_t i) {
        return ParamDecl{params[i].name, params[i].flags, params[i].missing};
      },
      [&](size_t i, const Arg &a) { params[i].read(target, a); }, true);
}

// bind() of a builtin that reads its positional arguments itself.
template <typename T>
void bindKeywords(const BindCall &call, llvm::ArrayRef<Param<T>> params, T &target) {
  bindParams(
      call, params.size(),
      [&](size_t i) {
        return ParamDecl{params[i].name, params[i].flags, params[i].missing};
      },
      [&](size_t i, const Arg &a) { params[i].read(target, a); }, false);
}

template <typename T, size_t N>
void bind(const BindCall &call, const Param<T> (&params)[N], T &target) {
  bind(call, llvm::ArrayRef<Param<T>>(params), target);
}
template <typename T, size_t N>
void bindKeywords(const BindCall &call, const Param<T> (&params)[N], T &target) {
  bindKeywords(call, llvm::ArrayRef<Param<T>>(params), target);
}

// The names of `params` as messages list them (the catch-all left out).
template <typename T, size_t N>
std::vector<std::string_view> paramNames(const Param<T> (&params)[N]) {
  std::vector<std::string_view> out;
  for (const Param<T> &p : params)
    if (p.name != kOtherKeywords)
      out.push_back(p.name);
  return out;
}

// A binding whose parameters' reading is one function (an Executor member's
// lambda): read(i, arg) for the argument of params[i].
void bindParams(const BindCall &call, llvm::ArrayRef<ParamDecl> params,
                llvm::function_ref<void(size_t, const Arg &)> read);
void bindKeywords(const BindCall &call, llvm::ArrayRef<ParamDecl> params,
                  llvm::function_ref<void(size_t, const Arg &)> read);

// A step's arguments (`fn` as "db.main.get"), bound from its keywords in
// ir/protocols.h, the one table: a keyword without a fallback is required
// (`missing`: its message, if not the Step wording's), and the first
// `positional` of them may be given by position too. The values in the
// table's order, null where not given.
std::vector<star::Value> bindStep(star::Thread &t, std::string_view fn, const StepMethod &m,
                                  const star::Args &args, size_t positional,
                                  std::string_view missing = {});

// Go's bindArgs (star::bindArgs) as a binding: `params` as "name" or
// "name?" (optional), every one positional or keyword, each value stored
// in its slot (null when not given).
void bindSlots(const BindCall &call, std::initializer_list<const char *> params,
               std::initializer_list<star::Value *> out);

// The keyword argument `name` of a call, or null: for a builtin's checks
// across its arguments once they are bound.
const star::Kwarg *findKeyword(const star::Args &args, std::string_view name);

} // namespace fbc::ir::builtins
