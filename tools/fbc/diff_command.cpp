#include "tools/fbc/diff_command.h"

#include "bundle/diff.h"

#include <CLI/CLI.hpp>
#include <llvm/Support/raw_ostream.h>

#include <cstdio>

namespace fbc::tools {

void addDiffOptions(CLI::App &sub, DiffOptions &opts) {
  sub.add_option("a", opts.a, "the first run bundle (.fb)")->required();
  sub.add_option("b", opts.b, "the second run bundle (.fb)")->required();
  sub.add_flag("--normalize", opts.normalize,
               "Compare traces without pids, measured times, ports and temporary paths");
  sub.add_option("--format", opts.format, "text (default) or json");
}

int runDiff(const DiffOptions &opts) {
  if (opts.format != "text" && opts.format != "json") {
    std::fprintf(stderr, "fbc diff: error: unknown --format=%s (valid: text, json)\n",
                 opts.format.c_str());
    return 2;
  }
  auto a = bundle::readDiffRows(opts.a, opts.normalize);
  if (!a) {
    std::fprintf(stderr, "fbc diff: error: %s\n", llvm::toString(a.takeError()).c_str());
    return 2;
  }
  auto b = bundle::readDiffRows(opts.b, opts.normalize);
  if (!b) {
    std::fprintf(stderr, "fbc diff: error: %s\n", llvm::toString(b.takeError()).c_str());
    return 2;
  }
  bundle::BundleDiff d = bundle::diffRows(*a, *b);
  if (opts.format == "json")
    bundle::emitDiffJson(d, opts.a, opts.b, llvm::outs());
  else
    bundle::emitDiffText(d, opts.a, opts.b, llvm::outs());
  llvm::outs().flush();
  return d.equal() ? 0 : 1;
}

} // namespace fbc::tools
