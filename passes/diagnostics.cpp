// The diagnostics pass: turns what the axes pass recorded into warnings,
// one per source location and code, sorted by file, line, column:
//   unmodeled_fanout  a deny()/delay() with probability<1 and no max_fires=:
//                     it runs stochastically and the plan counts it once;
//   helper_choose     a call in a test body to a helper that calls a named
//                     choose(): not attributed to the test, and the run does
//                     not fan out on it either;
//   body_argument     (an error) a declaration (service(), ...) in a test
//                     body, or a call in a test body whose literal
//                     arguments the run will reject (parallel() policies and
//                     branches, deny()/delay() max_fires= and mode=), with
//                     the run's message.
#include "passes/pass_manager.h"

#include "ir/print.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace fbc::passes {

void runDiagnosticsPass(const ir::Spec &, ir::Plan &plan) {
  plan.diagnostics.clear();
  std::set<std::tuple<const void *, uint32_t, uint32_t, std::string>> seen;
  auto add = [&](std::string code, std::string message, const ir::Loc &loc,
                 frontend::Severity severity = frontend::Severity::Warning) {
    if (!seen.emplace(loc.file, loc.pos.line, loc.pos.col, code).second)
      return;
    plan.diagnostics.push_back({severity, std::move(code), std::move(message), loc});
  };
  for (const ir::PlanTest &t : plan.tests) {
    for (const ir::UnmodeledFanout &u : t.unmodeled())
      add("unmodeled_fanout",
          u.where + ": probability=" + ir::formatNumber(u.probability) +
              " without max_fires= runs stochastically; the plan counts it once (add "
              "max_fires=N to explore all 2^N outcomes)",
          u.loc);
    for (const ir::HelperChoose &h : t.helperChooses())
      add("helper_choose",
          "choose(\"" + h.axis + "\") is reached only through helper " + h.helper +
              "(), so it is not a plan axis and the run will not fan out on it; call choose() "
              "in the test body to make it an axis",
          h.loc);
    for (const ir::BodyArgError &e : t.argErrors())
      if (e.gap)
        add("unsupported_step", e.message, e.loc);
      else
        add("body_argument", e.message, e.loc, frontend::Severity::Error);
  }
  std::stable_sort(plan.diagnostics.begin(), plan.diagnostics.end(),
                   [](const ir::PlanDiagnostic &a, const ir::PlanDiagnostic &b) {
                     std::string fa = a.loc.file ? a.loc.file->path() : "";
                     std::string fb = b.loc.file ? b.loc.file->path() : "";
                     return std::tie(fa, a.loc.pos.line, a.loc.pos.col, a.code) <
                            std::tie(fb, b.loc.pos.line, b.loc.pos.col, b.code);
                   });
}

} // namespace fbc::passes
