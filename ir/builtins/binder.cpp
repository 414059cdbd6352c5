#include "ir/builtins/binder.h"

#include "frontend/lib/arg_messages.h"
#include "frontend/lib/printer.h"
#include "frontend/lib/spellcheck.h"
#include "ir/builtins/arg_util.h"
#include "ir/protocols.h"
#include "ir/quote.h"

#include <vector>

namespace fbc::ir::builtins {

BindCall::BindCall(const CallSite &site, const star::Args &args, Wording wording)
    : t_(site.thread()), args_(args), wording_(wording), site_(&site) {}

BindCall::BindCall(star::Thread &t, const star::Args &args, Wording wording)
    : t_(t), args_(args), wording_(wording) {}

const syntax::Expr *BindCall::expr(std::string_view name, size_t position) const {
  if (!site_)
    return nullptr;
  if (const syntax::Expr *e = site_->keywordValue(name))
    return e;
  return position == SIZE_MAX ? nullptr : site_->positional(position);
}

Loc BindCall::at(const syntax::Expr *e) const {
  return site_ ? site_->at(e) : Loc{};
}

void BindCall::fail(const syntax::Expr *where, std::string msg, DiagCode code) const {
  if (!site_)
    failMistake(t_, code, std::move(msg));
  site_->fail(site_->at(where), std::move(msg), code);
}

namespace {

std::string keywordName(const star::Args &args, std::string_view keyword) {
  const star::Kwarg *k = findKeyword(args, keyword);
  return k ? star::repr(star::Value::object(k->name)) : quote(keyword);
}

} // namespace

void BindCall::failUnknown(std::string_view keyword,
                           llvm::ArrayRef<std::string_view> accepted) const {
  std::string msg(wording_.fn);
  std::string_view near;
  switch (wording_.unknown) {
  case UnknownForm::Listed:
    msg = unknownKeywordMessage(msg + ":", keyword, accepted);
    break;
  case UnknownForm::Reference:
    msg += " unexpected keyword " + quote(keyword) + "; valid: " + joinNames(accepted);
    near = star::nearestName(keyword, accepted);
    if (!near.empty())
      msg += " (did you mean " + quote(near) + "?)";
    // The reference's wording names no code of its own.
    if (site_)
      site_->fail(site_->at(site_->keyword(keyword)), std::move(msg));
    failMistake(t_, DiagCode::BadArgument, std::move(msg));
  case UnknownForm::Go:
    msg = star::unexpectedKeywordMessage(wording_.fn, findKeyword(args_, keyword)->name, accepted);
    break;
  case UnknownForm::Custom:
    msg = wording_.custom(wording_.fn, keyword);
    break;
  case UnknownForm::Step:
    msg = stepKeywordMismatch(*wording_.step, wording_.fn, keyword);
    break;
  }
  if (site_)
    site_->fail(site_->at(site_->keyword(keyword)), std::move(msg), DiagCode::UnknownKeyword);
  failMistake(t_, DiagCode::UnknownKeyword, std::move(msg));
}

void BindCall::failDuplicate(std::string_view name) const {
  std::string msg =
      wording_.unknown == UnknownForm::Step
          ? std::string(wording_.fn) + "(): " + std::string(name) + " given twice"
      : wording_.duplicateAsParameter
          ? std::string(goFn()) + ": got multiple values for parameter " + keywordName(args_, name)
          : star::multipleValuesMessage(goFn(), findKeyword(args_, name)->name);
  if (site_)
    site_->fail(site_->at(site_->keyword(name)), std::move(msg), DiagCode::BadArgument);
  failMistake(t_, DiagCode::BadArgument, std::move(msg));
}

void BindCall::failMissing(std::string_view name, std::string_view message) const {
  std::string msg = !message.empty() ? std::string(message)
                    : wording_.unknown == UnknownForm::Step
                        ? std::string(wording_.fn) + "(): requires " + std::string(name) + "="
                        : star::missingArgumentMessage(goFn(), name);
  if (site_)
    site_->fail(std::move(msg));
  failMistake(t_, DiagCode::BadArgument, std::move(msg));
}

void BindCall::failTooMany(size_t most) const {
  std::string msg = wording_.unknown == UnknownForm::Step
                        ? std::string(wording_.fn) + "(): got " +
                              std::to_string(args_.positional.size()) +
                              " positional arguments, want at most " + std::to_string(most) + " (" +
                              keywordList(*wording_.step) + ")"
                        : star::tooManyArgumentsMessage(goFn(), args_.positional.size(), most);
  if (site_)
    site_->fail(std::move(msg));
  failMistake(t_, DiagCode::BadArgument, std::move(msg));
}

void bindParams(const BindCall &call, size_t n, llvm::function_ref<ParamDecl(size_t)> decl,
                llvm::function_ref<void(size_t, const Arg &)> read, bool positionals) {
  const star::Args &args = call.args();
  std::vector<bool> given(n);
  size_t other = n;
  std::vector<size_t> byPosition;
  for (size_t i = 0; i < n; ++i) {
    ParamDecl d = decl(i);
    if (d.name == kOtherKeywords)
      other = i;
    else if (d.flags & Positional)
      byPosition.push_back(i);
  }
  auto accepted = [&] {
    std::vector<std::string_view> names;
    for (size_t j = 0; j < n; ++j)
      if (j != other)
        names.push_back(decl(j).name);
    return names;
  };
  if (positionals) {
    if (args.positional.size() > byPosition.size())
      call.failTooMany(byPosition.size());
    for (size_t p = 0; p < args.positional.size(); ++p) {
      size_t i = byPosition[p];
      given[i] = true;
      std::string_view name = decl(i).name;
      read(i, Arg{call, name, args.positional[p], call.expr(name, p)});
    }
  }
  for (const star::Kwarg &kw : args.kwargs) {
    std::string_view k = kw.name->view();
    size_t i = 0;
    while (i < n && (i == other || decl(i).name != k))
      ++i;
    if (i == n && other == n)
      call.failUnknown(k, accepted());
    if (i == n) {
      read(other, Arg{call, k, kw.value, call.expr(k, SIZE_MAX)});
      continue;
    }
    if (given[i])
      call.failDuplicate(k);
    given[i] = true;
    read(i, Arg{call, k, kw.value, call.expr(k, SIZE_MAX)});
  }
  for (size_t i = 0; i < n; ++i)
    if (ParamDecl d = decl(i); (d.flags & Required) && !given[i])
      call.failMissing(d.name, d.missing);
}

const star::Kwarg *findKeyword(const star::Args &args, std::string_view name) {
  for (const star::Kwarg &k : args.kwargs)
    if (k.name->view() == name)
      return &k;
  return nullptr;
}

void bindParams(const BindCall &call, llvm::ArrayRef<ParamDecl> params,
                llvm::function_ref<void(size_t, const Arg &)> read) {
  bindParams(
      call, params.size(), [&](size_t i) { return params[i]; }, read, true);
}

void bindKeywords(const BindCall &call, llvm::ArrayRef<ParamDecl> params,
                  llvm::function_ref<void(size_t, const Arg &)> read) {
  bindParams(
      call, params.size(), [&](size_t i) { return params[i]; }, read, false);
}

std::vector<star::Value> bindStep(star::Thread &t, std::string_view fn, const StepMethod &m,
                                  const star::Args &args, size_t positional,
                                  std::string_view missing) {
  std::vector<star::Value> given(m.keywords.size());
  bindParams(
      BindCall(t, args, {fn, UnknownForm::Step, {}, false, nullptr, &m}), m.keywords.size(),
      [&](size_t i) {
        const StepKeyword &k = m.keywords[i];
        return ParamDecl{
            k.name,
            uint8_t((k.fallback ? Optional : Required) | (i < positional ? Positional : Optional)),
            missing};
      },
      [&](size_t i, const Arg &a) { given[i] = a.value; }, true);
  return given;
}

void bindSlots(const BindCall &call, std::initializer_list<const char *> params,
               std::initializer_list<star::Value *> out) {
  const char *const *names = params.begin();
  star::Value *const *slots = out.begin();
  for (star::Value *slot : out)
    *slot = star::Value();
  bindParams(
      call, params.size(),
      [&](size_t i) {
        std::string_view name(names[i]);
        uint8_t flags = Positional;
        if (!name.empty() && name.back() == '?')
          name.remove_suffix(1);
        else
          flags |= Required;
        return ParamDecl{name, flags, {}};
      },
      [&](size_t i, const Arg &a) { *slots[i] = a.value; }, true);
}

} // namespace fbc::ir::builtins
