// trace(), trace_start() and trace_stop(): observation rules. A traced
// syscall of the service runs as usual and goes into the test's trace
// (decision "trace"); a fault rule on the same syscall still decides it.
#include "backend/rule_lower.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "ir/builtins/binder.h"
#include "ir/builtins/call_site.h"
#include "ir/builtins/values.h"
#include "ir/quote.h"
#include "ir/syscalls.h"
#include "runtime/body/builtin_args.h"
#include "runtime/driver/executor.h"
#include "runtime/supervisor/supervisor.h"

#include <string>
#include <vector>

namespace fbc::rt {

using ir::builtins::ServiceValue;
using ir::builtins::valueAs;
using star::Value;

Value Executor::traceBuiltin(star::Thread &t, std::string_view name, const star::Args &args) {
  std::string who(name);
  std::optional<ServiceId> id = serviceArg(t, name, args, /*keywords=*/true, /*mustRun=*/true);

  if (name == "trace_stop") {
    if (!args.kwargs.empty())
      failUnknownKeyword(t, "trace_stop() takes one argument (the service)");
    endScopes(traceStarted_[*id]);
    return star::none();
  }

  // syscalls=, and trace()'s run= (the caller's).
  Value syscalls;
  ir::builtins::ParamDecl params[] = {{"syscalls"}, {"run"}};
  ir::builtins::bindKeywords(
      ir::builtins::BindCall(
          t, args,
          ir::builtins::Wording::own(who,
                                     [](std::string_view fn, std::string_view k) {
                                       return std::string(fn) + "() unexpected keyword " +
                                              ir::quote(k) + " (use syscalls= for syscall list)";
                                     })),
      llvm::ArrayRef(params, name == "trace" ? 2 : 1), [&](size_t i, const ir::builtins::Arg &a) {
        if (i == 0)
          syscalls = a.value;
      });
  auto *list = syscalls ? syscalls.as<star::List>() : nullptr;
  if (!list)
    failBadArgument(t, who + "() requires syscalls= keyword with a list of syscall names");
  std::vector<RuleSpec> rules;
  for (Value v : list->elems) {
    std::string sc = strArg(t, v, who + "() syscalls= element");
    if (!ir::isSyscallKeyword(sc))
      ir::builtins::failMistake(t, ir::DiagCode::UnknownSyscall,
                                ir::unknownTraceSyscallMessage(who, sc));
    RuleSpec r;
    r.target = *id;
    r.syscall = sc;
    r.nrs = backend::keywordSyscalls(sc);
    r.action = Action::trace();
    rules.push_back(std::move(r));
  }
  if (name == "trace_start") {
    traceStarted_[*id].push_back(pushRules(t, "trace_start", std::move(rules)));
    return star::none();
  }
  return runWithRules(t, "trace", std::move(rules), kwarg(args, "run"));
}

} // namespace fbc::rt
