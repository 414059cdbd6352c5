#include "tools/fbc/cli.h"

#include "tools/fbc/check_command.h"
#include "tools/fbc/diff_command.h"
#include "tools/fbc/exec_command.h"
#include "tools/fbc/init_command.h"
#include "tools/fbc/inspect_command.h"
#include "tools/fbc/ir_command.h"
#include "tools/fbc/load_for_command.h"
#include "tools/fbc/mcp_command.h"
#include "tools/fbc/merge_command.h"
#include "tools/fbc/plan_command.h"
#include "tools/fbc/recipes_command.h"
#include "tools/fbc/replay_command.h"
#include "tools/fbc/report_command.h"
#include "tools/fbc/run_command.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <string>

namespace fbc::tools {
int runFbc(int argc, char **argv) {
  CLI::App app{"fbc — compiler and runtime for fault-injection test specs", "fbc"};
  app.set_version_flag("--version", std::string("fbc ") + FBC_VERSION);
  app.require_subcommand(1);

  auto *plan = app.add_subcommand("plan", "Show the test plan, its cost and coverage (static)");
  PlanOptions planOpts;
  addPlanOptions(*plan, planOpts);
  addLoadLimitOptions(*plan);
  auto *check = app.add_subcommand(
      "check", "Find a spec's mistakes without running it: located findings with stable codes");
  CheckOptions checkOpts;
  addCheckOptions(*check, checkOpts);
  addLoadLimitOptions(*check);
  auto *ir = app.add_subcommand("ir", "Print the fault-plan IR of a spec");
  IrOptions irOpts;
  ir->add_option("spec", irOpts.spec, "spec file (.star)")->required();
  ir->add_option("--format", irOpts.format, "text (default) or json");
  ir->add_option("--stage", irOpts.stage,
                 "spec (default), plan (the IR after the plan passes) or leaves (the leaf "
                 "program: per test its axes, leaf count and one leaf's assignment)");
  ir->add_option("--test", irOpts.test, "--stage=leaves: only this test");
  ir->add_option("--leaf", irOpts.leaf,
                 "--stage=leaves: the leaf id to decode (default: the last)");
  ir->add_option(
      "--print-after", irOpts.printAfter,
      "Print the IR after a pass: axes, cost, coverage, suggest, body_check, diagnostics (the "
      "plan IR), leaves (the leaf program with each service's trap set)");
  addExploreOptions(*ir, irOpts.explore);
  ir->add_flag("--verify-each", irOpts.verifyEach,
               "Run the IR verifier after every pass and the lowering (debug builds always "
               "do); a broken invariant is a located error, exit 1");
  addLoadLimitOptions(*ir);
  auto *run = app.add_subcommand("run", "Run a spec's tests against real processes");
  RunOptions runOpts;
  addRunOptions(*run, runOpts);
  addLoadLimitOptions(*run);
  auto *report =
      app.add_subcommand("report", "Render a run bundle as one self-contained HTML page");
  ReportOptions reportOpts;
  addReportOptions(*report, reportOpts);
  auto *inspect = app.add_subcommand("inspect", "Show a run bundle: summary, one file, or extract");
  InspectOptions inspectOpts;
  addInspectOptions(*inspect, inspectOpts);
  auto *replay =
      app.add_subcommand("replay", "Re-run a bundle's spec snapshot with its seed (new bundle)");
  ReplayOptions replayOpts;
  addReplayOptions(*replay, replayOpts);
  addLoadLimitOptions(*replay);
  auto *merge = app.add_subcommand("merge", "Combine shard bundles into one for the whole plan");
  MergeOptions mergeOpts;
  addMergeOptions(*merge, mergeOpts);
  addLoadLimitOptions(*merge);
  auto *diff = app.add_subcommand(
      "diff", "Compare two run bundles: rows whose outcome or trace changed, and where");
  DiffOptions diffOpts;
  addDiffOptions(*diff, diffOpts);
  auto *mcp = app.add_subcommand(
      "mcp", "Serve the Model Context Protocol on stdio: fbc's commands as tools for agents");
  McpOptions mcpOpts;
  addMcpOptions(*mcp, mcpOpts);
  auto *recipes = app.add_subcommand(
      "recipes", "The shipped @faultbox/recipes modules: each recipe's signature and rule");
  RecipesOptions recipesOpts;
  addRecipesOptions(*recipes, recipesOpts);
  auto *init = app.add_subcommand("init", "Write a starter spec, or one from a Compose file");
  InitOptions initOpts;
  addInitOptions(*init, initOpts);
  auto *exec = app.add_subcommand("exec", "Run a plain Starlark file");
  ExecOptions execOpts;
  exec->add_option("file", execOpts.file, "Starlark file")->required();
  exec->add_option("--allow", execOpts.allow,
                   "Enable dialect features: while,toplevel,globalreassign,recursion")
      ->delimiter(',');
  exec->add_option("--dialect", execOpts.dialect, "strict (default) or full (every feature)");

  // CLI11 reports a mistyped command as "A subcommand is required"; name it.
  auto known = [&](const char *name) {
    for (const CLI::App *sub : app.get_subcommands({}))
      if (sub->get_name() == name)
        return true;
    return false;
  };
  if (argc > 1 && argv[1][0] != '-' && !known(argv[1])) {
    std::string names;
    for (const CLI::App *sub : app.get_subcommands({}))
      names += (names.empty() ? "" : ", ") + sub->get_name();
    std::fprintf(stderr,
                 "fbc: error: unknown command '%s' (commands: %s)\n"
                 "Run 'fbc --help' for usage.\n",
                 argv[1], names.c_str());
    return 1;
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp &e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp &e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion &e) {
    return app.exit(e);
  } catch (const CLI::ParseError &e) {
    std::fprintf(stderr, "fbc: error: %s\nRun 'fbc --help' for usage.\n", e.what());
    return 1;
  }

  if (app.got_subcommand("init"))
    return runInit(initOpts);
  if (app.got_subcommand("exec"))
    return runExec(execOpts);
  if (app.got_subcommand("ir"))
    return runIr(irOpts);
  if (app.got_subcommand("check"))
    return runCheck(checkOpts);
  if (app.got_subcommand("plan"))
    return runPlan(planOpts);
  if (app.got_subcommand("run"))
    return runRun(runOpts);
  if (app.got_subcommand("report"))
    return runReport(reportOpts);
  if (app.got_subcommand("inspect"))
    return runInspect(inspectOpts);
  if (app.got_subcommand("replay"))
    return runReplay(replayOpts);
  if (app.got_subcommand("merge"))
    return runMerge(mergeOpts);
  if (app.got_subcommand("diff"))
    return runDiff(diffOpts);
  if (app.got_subcommand("mcp"))
    return runMcp(mcpOpts);
  if (app.got_subcommand("recipes"))
    return runRecipes(recipesOpts);
  return 1;
}

} // namespace fbc::tools
