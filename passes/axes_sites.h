// The axes pass's internals, shared by its two scans: the sites of test
// bodies (axes_body_scan.cpp) and of the fault assumptions a scenario or
// matrix cell installs (axes.cpp). Not a public interface of passes/.
#pragma once

#include "frontend/lib/value.h"
#include "ir/plan.h"
#include "ir/spec.h"

#include <memory>
#include <string>
#include <vector>

namespace fbc::frontend {
class SourceFile;
}
namespace fbc::star {
struct ModuleEnv;
}
namespace fbc::syntax {
struct Expr;
struct Function;
} // namespace fbc::syntax

namespace fbc::passes::axes {

// What scanning a body finds.
struct BodyScan {
  std::vector<ir::PlanAxis> choose, probability, interleaving;
  std::vector<ir::HelperChoose> helpers;
  std::vector<ir::UnmodeledFanout> unmodeled;
  std::vector<ir::BodyArgError> errors;
};

// A service's index in the spec (ir::RuleSite::service); -1 for none.
int serviceIndex(const ir::Spec &spec, const ir::Service *s);

// A proxy rule's probability knobs as a fault's (the site is the same
// shape: probability, max_fires, mode, label).
ir::Fault proxyKnobs(const ir::ProxyRule &r);

// The probability site of one rule (a fault's knobs; its service and
// keyword make the key unless it is labelled) joins `sites`; a probabilistic
// rule without max_fires= (and not mode="stochastic") is unmodeled fan-out.
void ruleSite(const ir::Fault &f, const std::string &service, const std::string &keyword,
              const std::string &fault, const ir::Loc &ruleLoc, std::string where,
              ir::RuleSite site, std::vector<ir::PlanAxis> &sites,
              std::vector<ir::UnmodeledFanout> &unmodeled);

// An axis per key: a second site with the same key (choose name,
// parallel line, probability key) joins the first axis as a call site.
void addUnique(std::vector<ir::PlanAxis> &axes, ir::PlanAxis ax);

// `from`'s rule sites join `into` (one probability key, one axis).
void joinRuleSites(ir::PlanAxis &into, const ir::PlanAxis &from);

// The probability sites and unmodeled rules of the fault assumptions
// `faults` name (composed assumptions flattened depth-first).
void assumptionSites(const ir::Spec &spec, const std::vector<std::string> &faults,
                     std::vector<ir::PlanAxis> &sites, std::vector<ir::UnmodeledFanout> &unmodeled);

// A choose() option literal as the plan prints it (Go's %v of a float64
// is close enough to the IR's shortest form), or "<expr>".
std::string renderLiteral(const syntax::Expr *e);
// A module constant's option value as the plan prints it.
std::string renderValue(star::Value v);
// An option as the run hands it to test(assume=): from a value, or from a
// literal (`global`: the module global the expression names, if any).
ir::OptionConstant constantOf(star::Value v);
ir::OptionConstant constantOf(const syntax::Expr *e, star::Value global);

// Walks test bodies for their fan-out sites (see axes.cpp's header for what
// each builtin contributes). Memoises what module helpers reach.
class BodyScanner {
public:
  explicit BodyScanner(const ir::Spec &spec);
  ~BodyScanner();
  void scan(const syntax::Function &fn, const star::ModuleEnv *mod,
            const frontend::SourceFile *file, BodyScan &out);

private:
  struct State;
  std::unique_ptr<State> state_;
};

} // namespace fbc::passes::axes
