// The words of a rule's action (runtime/rules/rules.h): "deny(input/output
// error)" as the reference writes a decision, its first word, the kind a
// decision text names, and an errno's name. Apart from the rule table so
// that what reads these words (the trace's outcome classification, the
// bundle's JSON readers, their fuzz targets) links them alone.
#include "runtime/rules/rules.h"

#include "ir/duration.h"
#include "ir/syscalls.h"

namespace fbc::rt {

std::string errnoLabel(int err) {
  if (const ir::ErrnoInfo *e = ir::findErrnoNumber(err))
    return std::string(e->name);
  return "errno(" + std::to_string(err) + ")";
}

namespace {
constexpr ActionKind kActionKinds[] = {ActionKind::Allow, ActionKind::Deny, ActionKind::Delay,
                                       ActionKind::Trace};
} // namespace

std::string_view actionWord(ActionKind k) {
  switch (k) {
  case ActionKind::Allow:
    return "allow";
  case ActionKind::Deny:
    return "deny";
  case ActionKind::Delay:
    return "delay";
  case ActionKind::Trace:
    return "trace";
  }
  return "allow";
}

std::string describeAction(const Action &a) {
  std::string word(actionWord(a.kind));
  switch (a.kind) {
  case ActionKind::Allow:
  case ActionKind::Trace:
    return word;
  case ActionKind::Deny:
    if (const ir::ErrnoInfo *e = ir::findErrnoNumber(a.err))
      return word + "(" + std::string(e->text) + ")";
    return word + "(errno " + std::to_string(a.err) + ")";
  case ActionKind::Delay:
    return word + "(" + ir::formatDuration(a.delayNs) + ")";
  }
  return word;
}

std::optional<ActionKind> actionKindOfDecision(std::string_view decision) {
  for (ActionKind k : kActionKinds) {
    std::string_view w = actionWord(k);
    bool args = k == ActionKind::Deny || k == ActionKind::Delay;
    if (decision.starts_with(w) &&
        (args ? decision.substr(w.size()).starts_with("(")
              : decision.size() == w.size() || decision.substr(w.size()) == " (system path)"))
      return k;
  }
  return std::nullopt;
}

} // namespace fbc::rt
