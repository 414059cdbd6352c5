// The diagnostics pass: turns what the axes and body_check passes recorded
// into located diagnostics, one per source location and code, sorted by
// file, line, column (codes: ir/diagnostic_codes.h):
//   UNMODELED_FANOUT     a deny()/delay() with probability<1 and no
//                        max_fires=: it runs stochastically and the plan
//                        counts it once;
//   HELPER_CHOOSE        a call in a test body to a helper that calls a
//                        named choose(): not attributed to the test, and the
//                        run does not fan out on it either;
//   DECLARATION_IN_BODY  (an error) a declaration (service(), ...) in a test
//                        body;
//   BAD_ARGUMENT         (an error) a call in a test body whose literal
//                        arguments the run will reject (parallel() policies
//                        and branches, gateway builtins), with the run's
//                        message;
//   UNKNOWN_STEP         (an error) a step call its protocol does not have
//                        (ir/protocols.h);
//   UNSUPPORTED_STEP     a step the reference has and fbc has no client for
//                        (ir::stepGap): the run fails the test if it gets there;
//   and the body_check pass's findings (passes/body_check.cpp).
#include "passes/pass_manager.h"

#include "ir/quote.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace fbc::passes {

void runDiagnosticsPass(const ir::Spec &, ir::Plan &plan) {
  plan.diagnostics.clear();
  std::set<std::tuple<const void *, uint32_t, uint32_t, ir::DiagCode>> seen;
  auto add = [&](ir::DiagCode code, std::string message, const ir::Loc &loc,
                 frontend::Severity severity = frontend::Severity::Warning) {
    if (!seen.emplace(loc.file, loc.pos.line, loc.pos.col, code).second)
      return;
    plan.diagnostics.push_back({severity, code, std::move(message), loc});
  };
  for (const ir::PlanTest &t : plan.tests) {
    for (const ir::UnmodeledFanout &u : t.unmodeled())
      add(ir::DiagCode::UnmodeledFanout,
          u.where + ": probability=" + ir::formatNumber(u.probability) +
              " without max_fires= runs stochastically; the plan counts it once (add "
              "max_fires=N to explore all 2^N outcomes)",
          u.loc);
    for (const ir::HelperChoose &h : t.helperChooses())
      add(ir::DiagCode::HelperChoose,
          "choose(\"" + h.axis + "\") is reached only through helper " + h.helper +
              "(), so it is not a plan axis and the run will not fan out on it; call choose() "
              "in the test body to make it an axis",
          h.loc);
    for (const ir::BodyArgError &e : t.argErrors())
      add(e.code, e.message, e.loc,
          e.code == ir::DiagCode::UnsupportedStep ? frontend::Severity::Warning
                                                  : frontend::Severity::Error);
  }
  for (const ir::PlanDiagnostic &d : plan.bodyFindings)
    add(d.code, d.message, d.loc, d.severity);
  std::stable_sort(plan.diagnostics.begin(), plan.diagnostics.end(),
                   [](const ir::PlanDiagnostic &a, const ir::PlanDiagnostic &b) {
                     std::string fa = a.loc.file ? a.loc.file->path() : "";
                     std::string fb = b.loc.file ? b.loc.file->path() : "";
                     return std::tie(fa, a.loc.pos.line, a.loc.pos.col, a.code) <
                            std::tie(fb, b.loc.pos.line, b.loc.pos.col, b.code);
                   });
}

} // namespace fbc::passes
