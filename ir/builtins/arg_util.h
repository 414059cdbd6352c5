// Argument helpers shared by the spec builtins: type names, list items,
// durations, callables, and the unknown-keyword message.
#pragma once

#include "frontend/lib/objects.h"
#include "frontend/lib/value.h"
#include "ir/builtins/call_site.h"
#include "ir/spec.h"

#include <llvm/ADT/ArrayRef.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fbc::ir::builtins {

// type(v) as Starlark spells it.
std::string typeOf(star::Value v);
bool isNone(star::Value v);

// Elements of a list or tuple; false (and nothing) for anything else.
bool listItems(star::Value v, std::vector<star::Value> &out);

// Calls fn(key, value, at) for each live entry of a dict literal's value,
// in insertion order; `at` is the entry's position in `lit` (the call's
// argument), so each entry's error points at that entry.
template <typename Fn>
void forEachDictEntry(const CallSite &site, const syntax::Expr *lit, const star::Dict &d, Fn &&fn) {
  size_t i = 0;
  for (const star::HashTable::Entry &e : d.table.entries()) {
    if (e.value.isNull())
      continue;
    fn(e.key, e.value, site.at(CallSite::element(lit, i++)));
  }
}

// A reference to a callable: its name, value, AST and def position.
FunctionRef functionRef(star::Value callable);
bool isCallable(star::Value v);

// A Go duration string (`what` prefixes the message: `tcp() bad timeout`
// gives `tcp() bad timeout: time: invalid duration "x"`). Non-strings and
// negative durations are errors as well; zero only when `allowZero`.
int64_t durationArg(const CallSite &site, star::Value v, const Loc &at, std::string_view what,
                    bool allowZero = false);
// What durationArg says of the string `text` (nullopt: it is a valid
// duration), for the static check of a literal.
std::optional<std::string> durationError(std::string_view text, std::string_view what,
                                         bool allowZero = false);

// The keywords of deny()/delay(duration) and of the protocol rules
// (response(), error(), delay(delay=), drop(), duplicate()) (faults.cpp).
llvm::ArrayRef<std::string_view> ruleKeywords();
llvm::ArrayRef<std::string_view> proxyRuleKeywords();

// `<prefix> unknown keyword argument "k"; valid: a, b, c` plus a spelling
// suggestion when one is close (the message alone: `fbc check` reports it
// before the run would).
std::string unknownKeywordMessage(std::string_view prefix, std::string_view name,
                                  llvm::ArrayRef<std::string_view> valid);

// service(observe=[...]) (observe.cpp).
void parseObserve(const CallSite &site, Service &svc, star::Value v);

// "a, b, c"
std::string joinNames(llvm::ArrayRef<std::string_view> names);
std::string joinNames(llvm::ArrayRef<std::string> names);

} // namespace fbc::ir::builtins
