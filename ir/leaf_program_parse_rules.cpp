// The leaf program's text reader, second half: the lines that carry what
// the run installs: assumptions and their rules (syscall and protocol),
// rule sets, proxy lines, rule sites, and the host needs of each test.
#include "ir/leaf_program_parse_impl.h"

#include "ir/fanout_sites.h"
#include "ir/host_needs.h"
#include "ir/quote.h"
#include "ir/syscalls.h"

namespace fbc::ir::leaf_text {

bool LeafTextParser::assumption(LineReader &r) {
  if (cur_)
    return fail(r.where() + "assumptions come before the tests");
  r.word();
  std::optional<std::string> name = r.quoted();
  if (!name)
    return fail(r.where() + "assumption needs a quoted name");
  bool declared = false;
  for (const FaultAssumption &a : spec_.assumptions)
    declared = declared || a.name == *name;
  if (!declared)
    return fail(r.where() + "no fault_assumption " + quote(*name) + " in the spec");
  out_.assumptions.push_back({*name, {}, {}});
  return true;
}

// The fields of a rule line after its kind: service=, keyword=,
// syscalls=, then any of the optional fields in any order.
bool LeafTextParser::ruleFields(LineReader &r, LoweredRule &l) {
  r.word();
  std::optional<std::string> svc = r.eatKey("service") ? r.quoted() : std::nullopt;
  std::optional<size_t> index = svc ? service(*svc) : std::nullopt;
  if (!index)
    return fail(r.where() + "rule needs service= naming a service of the spec");
  l.service = int(*index);
  std::optional<std::string> keyword = r.eatKey("keyword") ? r.quoted() : std::nullopt;
  if (!keyword || !r.eatKey("syscalls"))
    return fail(r.where() + "rule needs keyword= and syscalls=");
  l.keyword = *keyword;
  std::string names = r.word();
  for (size_t b = 0; b < names.size();) {
    size_t e = names.find(',', b);
    std::string n = names.substr(b, e == std::string::npos ? std::string::npos : e - b);
    int nr = syscallNumber(n);
    if (nr < 0)
      return fail(r.where() + "no syscall " + quote(n) + " on this architecture");
    l.syscalls.push_back(nr);
    b = e == std::string::npos ? names.size() : e + 1;
  }
  std::sort(l.syscalls.begin(), l.syscalls.end());
  std::string key;
  while (!r.atEnd() && r.peekKey(key)) {
    r.eatKey(key);
    bool ok = true;
    if (key == "action") {
      std::string a = r.token();
      ok = false;
      for (FaultAction f : {FaultAction::Deny, FaultAction::Delay, FaultAction::Allow})
        if (a == faultActionName(f)) {
          l.action = f;
          ok = true;
        }
    } else if (key == "errno") {
      const ErrnoInfo *e = findErrno(r.token());
      ok = e != nullptr;
      l.errnoNumber = e ? e->number : 0;
    } else if (key == "delay_ns") {
      ok = parseNumber(r.token(), l.delayNs);
    } else if (key == "probability") {
      ok = parseNumber(r.token(), l.probability);
    } else if (key == "leaf_bits") {
      ok = parseNumber(r.token(), l.leafBits);
    } else if (key == "label" || key == "path" || key == "site_key" || key == "fault" ||
               key == "site_keyword") {
      std::optional<std::string> v = r.quoted();
      ok = v.has_value();
      std::string &field = key == "label"      ? l.label
                           : key == "path"     ? l.pathGlob
                           : key == "site_key" ? l.siteKey
                           : key == "fault"    ? l.fault
                                               : l.site.keyword;
      field = v.value_or("");
    } else if (key == "rule" || key == "at") {
      if (!loc(r.token(), key == "rule" ? l.site.rule : l.site.at, r))
        return false;
    } else {
      return fail(r.where() + "unknown rule field " + quote(key));
    }
    if (!ok)
      return fail(r.where() + "bad rule field " + quote(key));
  }
  if (!r.atEnd())
    return fail(r.where() + "unexpected " + quote(r.rest()));
  l.site.service = l.service;
  return true;
}

bool LeafTextParser::rule(LineReader &r) {
  if (cur_ || out_.assumptions.empty())
    return fail(r.where() + "a rule line belongs to an assumption");
  LoweredRule l;
  if (!ruleFields(r, l))
    return false;
  out_.assumptions.back().rules.push_back(std::move(l));
  return true;
}

// A body fault() call's keyword rule (LeafTest::callRules), in its order.
bool LeafTextParser::callRule(LineReader &r) {
  LoweredRule l;
  if (!ruleFields(r, l))
    return false;
  if (!l.site.at.valid() || l.site.keyword.empty())
    return fail(r.where() + "call_rule needs at= and site_keyword=");
  cur_->callRules.push_back(std::move(l));
  return true;
}

bool LeafTextParser::proxyRule(LineReader &r) {
  if (cur_ || out_.assumptions.empty())
    return fail(r.where() + "a proxy_rule line belongs to an assumption");
  LoweredProxyRule l;
  r.word();
  std::optional<std::string> svc = r.eatKey("service") ? r.quoted() : std::nullopt;
  std::optional<size_t> index = svc ? service(*svc) : std::nullopt;
  std::optional<std::string> iface = r.eatKey("interface") ? r.quoted() : std::nullopt;
  if (!index || !iface)
    return fail(r.where() + "proxy_rule needs service= and interface= of the spec");
  l.service = int(*index);
  l.interface = *iface;
  std::string action = r.eatKey("action") ? r.token() : "";
  std::optional<std::string> target = r.eatKey("target") ? r.quoted() : std::nullopt;
  if (action.empty() || !target)
    return fail(r.where() + "proxy_rule needs action= and target=");
  l.target = *target;
  std::string key;
  while (!r.atEnd() && r.peekKey(key)) {
    r.eatKey(key);
    bool ok = true;
    if (key == "leaf_bits") {
      ok = parseNumber(r.token(), l.leafBits);
    } else if (key == "index") {
      ok = parseNumber(r.token(), l.index);
    } else if (key == "site_key" || key == "fault") {
      std::optional<std::string> v = r.quoted();
      ok = v.has_value();
      (key == "site_key" ? l.siteKey : l.fault) = v.value_or("");
    } else if (key == "rule" || key == "at") {
      if (!loc(r.token(), key == "rule" ? l.site.rule : l.site.at, r))
        return false;
    } else {
      return fail(r.where() + "unknown proxy_rule field " + quote(key));
    }
    if (!ok)
      return fail(r.where() + "bad proxy_rule field " + quote(key));
  }
  if (!r.atEnd())
    return fail(r.where() + "unexpected " + quote(r.rest()));
  for (const FaultAssumption &a : spec_.assumptions)
    if (a.name == l.fault && a.target.service == *svc && a.target.interface == l.interface &&
        l.index < a.proxyRules.size() && sameLoc(a.proxyRules[l.index].loc, l.site.rule))
      l.source = &a.proxyRules[l.index];
  if (!l.source)
    return fail(r.where() + "no rules=[" + std::to_string(l.index) + "] of assumption " +
                quote(l.fault) + " on " + quote(*svc + "." + l.interface) + " written at rule=");
  if (action != proxyActionName(l.source->action))
    return fail(r.where() + "action=" + action + " is not the rule's (" +
                std::string(proxyActionName(l.source->action)) + ")");
  l.site.keyword = action;
  l.site.service = l.service;
  out_.assumptions.back().proxyRules.push_back(std::move(l));
  return true;
}

bool LeafTextParser::ruleSite(LineReader &r) {
  if (cur_->axes.empty())
    return fail(r.where() + "rule_site before any axis");
  RuleSite s;
  r.word();
  if (!r.eatKey("rule") || !loc(r.token(), s.rule, r))
    return fail(err_.empty() ? r.where() + "rule_site needs rule=" : err_);
  if (!r.eatKey("at") || !loc(r.token(), s.at, r))
    return fail(err_.empty() ? r.where() + "rule_site needs at=" : err_);
  std::optional<std::string> kw = r.eatKey("keyword") ? r.quoted() : std::nullopt;
  if (!kw || !r.eatKey("service") || !parseNumber(r.token(), s.service))
    return fail(r.where() + "rule_site needs keyword= and service=");
  s.keyword = *kw;
  cur_->axes.back().plan.ruleSites.push_back(std::move(s));
  return true;
}

std::optional<size_t> LeafTextParser::service(const std::string &name) const {
  for (size_t s = 0; s < spec_.services.size(); ++s)
    if (spec_.services[s].name == name)
      return s;
  return std::nullopt;
}

bool LeafTextParser::set(LineReader &r) {
  std::string what = r.word();
  std::optional<std::string> name = r.quoted();
  std::optional<size_t> sv = name ? service(*name) : std::nullopt;
  if (!sv)
    return fail(r.where() + "no service " + quote(name.value_or("")));
  std::optional<LeafTest::OptionTraps> option;
  if (r.word() == "when") {
    if (what != "traps")
      return fail(r.where() + "only traps take a when clause");
    option.emplace();
    option->service = *sv;
    if (!parseNumber(r.word(), option->axis) || !r.eatKey("option") ||
        !parseNumber(r.word(), option->option))
      return fail(r.where() + "when axis N option=K");
  }
  if (!r.eat(':'))
    return fail(r.where() + "a set's names follow a ':'");
  // Names are separated by ", " (an observed entry may hold a ',' of its
  // own: open[/dev/random,/dev/urandom]).
  std::vector<std::string> names;
  for (std::string_view rest = r.rest(); !rest.empty();) {
    size_t k = rest.find(", ");
    names.emplace_back(rest.substr(0, k));
    rest = k == std::string_view::npos ? std::string_view() : rest.substr(k + 2);
  }
  if (names.empty())
    return fail(r.where() + "a set holds syscall names");
  if (what == "observes") {
    cur_->observes[*sv] = names;
    return true;
  }
  if (what == "holds" && !explore_)
    return fail(r.where() + "holds without an explore line");
  std::vector<int> nrs;
  for (const std::string &n : names) {
    int nr = syscallNumber(n);
    if (nr < 0 && !n.starts_with("syscall_"))
      return fail(r.where() + "no syscall " + quote(n) + " on this architecture");
    if (nr < 0 && !parseNumber(n.substr(8), nr))
      return fail(r.where() + "bad syscall " + quote(n));
    nrs.push_back(nr);
  }
  std::sort(nrs.begin(), nrs.end());
  if (option) {
    option->syscalls = std::move(nrs);
    cur_->optionTraps.push_back(std::move(*option));
  } else if (what == "holds") {
    cur_->holds[*sv] = std::move(nrs);
  } else {
    cur_->traps[*sv] = std::move(nrs);
  }
  return true;
}

bool LeafTextParser::proxy(LineReader &r) {
  r.word();
  std::optional<std::string> name = r.quoted();
  size_t dot = name ? name->rfind('.') : std::string::npos;
  std::optional<size_t> sv =
      dot == std::string::npos ? std::nullopt : service(name->substr(0, dot));
  if (!sv)
    return fail(r.where() + "proxy needs \"service.interface\" of the spec");
  cur_->proxies[*sv].push_back(name->substr(dot + 1));
  return true;
}

bool LeafTextParser::needs(LineReader &r) {
  r.word();
  // The feature's name may hold spaces ("container runtime"): up to the
  // quoted reason.
  std::string_view rest = r.rest();
  std::string feature(rest.substr(0, rest.find(" \"")));
  HostNeed n;
  bool found = false;
  for (HostFeature f : {HostFeature::ContainerRuntime, HostFeature::Gvisor, HostFeature::Unbuilt})
    if (feature == hostFeatureName(f)) {
      n.feature = f;
      found = true;
    }
  if (!found)
    return fail(r.where() + "unknown host feature " + quote(feature));
  cur_->needs.push_back(std::move(n));
  return true;
}

bool LeafTextParser::need(LineReader &r) {
  if (cur_->needs.empty())
    return fail(r.where() + "need before its needs line");
  HostNeed &n = cur_->needs.back();
  r.word();
  std::optional<std::string> subject = r.eatKey("subject") ? r.quoted() : std::nullopt;
  std::optional<std::string> what = r.eatKey("what") ? r.quoted() : std::nullopt;
  if (!subject || !what || !r.eatKey("loc"))
    return fail(r.where() + "need subject= what= loc=");
  n.subject = *subject;
  n.what = *what;
  return loc(r.token(), n.loc, r);
}

} // namespace fbc::ir::leaf_text
