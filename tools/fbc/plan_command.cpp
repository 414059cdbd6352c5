#include "tools/fbc/plan_command.h"

#include "backend/leaf_lower.h"
#include "backend/plan_emit.h"
#include "backend/shard.h"
#include "bundle/run_suggest.h"
#include "frontend/eval/big_stack.h"
#include "passes/pass_manager.h"
#include "tools/fbc/heap_tuning.h"
#include "tools/fbc/load_for_command.h"
#include "tools/fbc/shard_options.h"

#include <CLI/CLI.hpp>
#include <llvm/Support/raw_ostream.h>

#include <cstdio>
#include <cstdlib>
#include <optional>

namespace fbc::tools {

namespace {

// Loads, plans and prints; returns the exit code. Runs on the large stack.
int planOnLargeStack(const PlanOptions &opts) {
  std::unique_ptr<ir::LoadedSpec> loaded = loadSpecForCommand(opts.spec);
  if (!loaded)
    return 1;

  // Deliberately never freed: the caller ends the process with _Exit.
  ir::LoadedSpec *spec = loaded.release();
  // Coverage and suggestions are computed only when they are printed.
  bool coverage = opts.format != "dot" && (opts.coverage || opts.suggest);
  ir::Plan &plan = *new ir::Plan(passes::buildPlan(spec->spec(), coverage));
  frontend::DiagnosticList warnings;
  ir::reportPlanDiagnostics(plan, warnings);
  warnings.print(llvm::errs());
  llvm::errs().flush();

  backend::PlanEmitOptions emit;
  emit.coverage = opts.coverage || opts.suggest;
  emit.suggest = opts.suggest;
  // --shards: the split `fbc run --shard K/N` computes (backend/shard.h).
  ir::LeafProgram &leaves = *new ir::LeafProgram;
  backend::ShardPlan shards;
  if (opts.shards > 0) {
    leaves = backend::lowerToLeaves(plan);
    std::optional<backend::MeasuredDurations> measured;
    std::string error, from;
    if (!measuredForShards(opts.durationsFrom, opts.spec, measured, from, error) ||
        !backend::assignShards(leaves, uint32_t(opts.shards), measured ? &*measured : nullptr, {},
                               shards, error)) {
      std::fprintf(stderr, "fbc plan: error: %s\n", error.c_str());
      return 1;
    }
    if (!from.empty())
      std::fprintf(stderr,
                   "fbc plan: shards balanced by what %s measured (the newest bundle of %s in "
                   "$FBC_BUNDLE_DIR)\n",
                   from.c_str(), opts.spec.c_str());
  }
  // --suggest --from RUN.fb: what the run's passing tests depended on that
  // no test faults (bundle/run_suggest.h); a bundle that does not read is
  // an error before anything is printed.
  std::optional<bundle::RunSuggestions> fromRun;
  if (!opts.from.empty()) {
    llvm::Expected<bundle::RunSuggestions> s = bundle::suggestFromRun(spec->spec(), opts.from);
    if (!s) {
      std::fprintf(stderr, "fbc plan: error: %s\n", llvm::toString(s.takeError()).c_str());
      return 1;
    }
    fromRun = std::move(*s);
  }
  if (opts.shards > 0 || fromRun)
    emit.jsonTail = [&](ir::JsonWriter &w) {
      if (opts.shards > 0)
        backend::emitShardsJson(leaves, shards, w);
      if (fromRun)
        bundle::emitRunSuggestionsJson(*fromRun, w);
    };
  if (opts.format == "json")
    backend::emitPlanJson(plan, emit, llvm::outs());
  else if (opts.format == "dot")
    backend::emitPlanDot(plan, llvm::outs());
  else
    backend::emitPlanText(plan, emit, llvm::outs());
  if (opts.shards > 0 && opts.format == "text")
    backend::emitShardsText(leaves, shards, llvm::outs());
  if (fromRun && opts.format == "text")
    bundle::emitRunSuggestionsText(*fromRun, llvm::outs());
  llvm::outs().flush();
  // A test body whose literal arguments the run rejects (body_argument):
  // the plan is printed, and the command fails.
  if (warnings.hasErrors())
    return 1;

  // An axis past 2^63 outcomes (max_fires=64) counts as 1 in the total:
  // the gate does not take that for cheap.
  if (opts.checkCost)
    for (const ir::PlanTest &t : plan.tests)
      for (const ir::PlanAxis &a : t.axes())
        if (a.unknown == ir::UnknownReason::TooLarge) {
          llvm::errs() << "\ncost gate: " << t.test->name << " has the axis " << a.name
                       << " with more than 2^63 "
                       << (a.kind == ir::AxisKind::Interleaving ? "orderings" : "outcomes")
                       << "; --max-instances=" << opts.maxInstances << " exceeded\n";
          llvm::errs().flush();
          return 2;
        }
  if (opts.checkCost && plan.total.value > uint64_t(opts.maxInstances)) {
    llvm::errs() << "\ncost gate: plan has " << plan.total.str()
                 << " instances; --max-instances=" << opts.maxInstances << " exceeded\n";
    llvm::errs().flush();
    return 2;
  }
  return 0;
}

} // namespace

void addPlanOptions(CLI::App &sub, PlanOptions &opts) {
  sub.add_option("spec", opts.spec, "spec file (.star)")->required();
  sub.add_option("--format", opts.format, "text (default), json or dot");
  sub.add_flag("--coverage", opts.coverage,
               "Append the coverage table: dependency edges, fault tests, gaps");
  sub.add_flag("--suggest", opts.suggest,
               "Print copy-pasteable stubs for uncovered edges (implies --coverage)");
  sub.add_option("--from", opts.from,
                 "With --suggest: also suggest from the run bundle RUN.fb what its passing tests "
                 "depended on that no test faults (see fbc run --record-ops)");
  sub.add_option("--strategy", opts.strategy,
                 "Suggestion strategy: rules (default); llm is reserved (refused)");
  sub.add_flag("--check-cost", opts.checkCost,
               "Exit 2 if the plan has more than --max-instances instances");
  sub.add_option("--max-instances", opts.maxInstances, "The budget for --check-cost");
  sub.add_option("--shards", opts.shards,
                 "Show how fbc run --shard K/N splits the leaves into N shards, with each "
                 "shard's estimated cost");
  sub.add_option("--durations-from", opts.durationsFrom,
                 "--shards: balance by the leaf durations an earlier run's bundle measured");
}

int runPlan(const PlanOptions &opts) {
  if (opts.strategy == "llm") {
    std::fprintf(stderr, "error: --strategy=llm requires Faultbox v0.14.0 (RFC-043); not "
                         "available in this release\n");
    return 1;
  }
  if (opts.strategy != "rules") {
    std::fprintf(stderr, "error: --strategy=\"%s\" not recognized (valid: rules; reserved: llm)\n",
                 opts.strategy.c_str());
    return 1;
  }
  if (!opts.from.empty() && !opts.suggest) {
    std::fprintf(stderr, "error: --from RUN.fb needs --suggest\n");
    return 1;
  }
  if (opts.checkCost && opts.maxInstances < 0) {
    std::fprintf(stderr,
                 "error: --check-cost requires --max-instances N (the budget to gate against)\n");
    return 1;
  }
  if (opts.shards == 0 || opts.shards < -1 || opts.shards > 100000) {
    std::fprintf(stderr, "error: --shards %lld: want 1 .. 100000\n", (long long)opts.shards);
    return 1;
  }
  if (opts.shards < 0 && !opts.durationsFrom.empty()) {
    std::fprintf(stderr, "error: --durations-from needs --shards N\n");
    return 1;
  }
  if (opts.shards > 0 && opts.format == "dot") {
    std::fprintf(stderr, "error: --shards prints text or json, not dot\n");
    return 1;
  }
  if (opts.format != "text" && opts.format != "json" && opts.format != "dot") {
    std::fprintf(stderr, "error: unknown --format=%s (valid: text, json, dot)\n",
                 opts.format.c_str());
    return 1;
  }

  tuneHeapForBatchRun();
  return star::runWithLargeStack([&] {
    int rc = planOnLargeStack(opts);
    // The process ends here: the loaded spec (interpreter, heap, ASTs) and
    // the plan are left to the OS instead of being torn down object by object
    // (about 5% of `fbc plan` on a large spec). _Exit also keeps
    // LeakSanitizer from reporting them as leaks under the asan preset.
    llvm::outs().flush();
    llvm::errs().flush();
    std::fflush(stdout);
    std::fflush(stderr);
    std::_Exit(rc);
    return rc;
  });
}

} // namespace fbc::tools
