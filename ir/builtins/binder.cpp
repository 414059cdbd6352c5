#include "ir/builtins/binder.h"

#include "frontend/eval/printer.h"
#include "frontend/lib/spellcheck.h"
#include "ir/builtins/arg_util.h"
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
    msg += ": unexpected keyword argument " + keywordName(args_, keyword);
    near = star::nearestName(keyword, accepted);
    if (!near.empty())
      msg += " (did you mean " + std::string(near) + "?)";
    break;
  case UnknownForm::Step:
    msg += ": unexpected keyword " + quote(keyword) + " (";
    if (accepted.empty())
      msg += "it takes none";
    for (size_t i = 0; i < accepted.size(); ++i)
      msg += (i ? ", " : "want ") + std::string(accepted[i]) + "=";
    msg += ")";
    break;
  }
  if (site_)
    site_->fail(site_->at(site_->keyword(keyword)), std::move(msg), DiagCode::UnknownKeyword);
  failMistake(t_, DiagCode::UnknownKeyword, std::move(msg));
}

void BindCall::failDuplicate(std::string_view name) const {
  std::string msg = std::string(goFn()) + ": got multiple values for " +
                    (wording_.duplicateAsParameter ? "parameter " : "keyword argument ") +
                    keywordName(args_, name);
  if (site_)
    site_->fail(site_->at(site_->keyword(name)), std::move(msg), DiagCode::BadArgument);
  failMistake(t_, DiagCode::BadArgument, std::move(msg));
}

void BindCall::failMissing(std::string_view name, std::string_view message) const {
  std::string msg = !message.empty()
                        ? std::string(message)
                        : std::string(goFn()) + ": missing argument for " + std::string(name);
  if (site_)
    site_->fail(std::move(msg));
  failMistake(t_, DiagCode::BadArgument, std::move(msg));
}

void BindCall::failTooMany(size_t most) const {
  std::string msg = std::string(goFn()) + ": got " + std::to_string(args_.positional.size()) +
                    " arguments, want at most " + std::to_string(most);
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
    if (i == n && other == n) {
      std::vector<std::string_view> accepted;
      for (size_t j = 0; j < n; ++j)
        accepted.push_back(decl(j).name);
      call.failUnknown(k, accepted);
    }
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
