// Google Benchmark microbenchmarks of the Starlark frontend: scanning and
// parsing a spec-sized file, and evaluating call-, loop- and
// container-heavy snippets. Run: build/release/bench/starlark_microbench
#include "frontend/eval/interpreter.h"
#include "frontend/lib/ops.h"
#include "frontend/syntax/parser.h"

#include <benchmark/benchmark.h>

#include <string>

using namespace fbc;

namespace {

// A synthetic spec-like module of `n` functions and literals.
std::string syntheticSource(int n) {
  std::string s;
  for (int i = 0; i < n; ++i) {
    // Appended piecewise: "literal" + std::string trips GCC 12's -Wrestrict.
    std::string num = std::to_string(i);
    s.append("def f").append(num).append("(a, b = 1, *args, **kwargs):\n");
    s += "    x = [a, b, \"str\\n\", 0x1f, 1.5e3] + list(args)\n";
    s += "    return {\"k\": x, \"n\": len(kwargs)} if a else None\n";
    s.append("V").append(num).append(" = f").append(num).append("(").append(num).append(
        ", b = 2)\n");
  }
  return s;
}

void BM_Parse(benchmark::State &state) {
  std::string src = syntheticSource(static_cast<int>(state.range(0)));
  frontend::SourceFile file("bench.star", src);
  for (auto _ : state) {
    syntax::AstContext ctx;
    frontend::DiagnosticList diags;
    benchmark::DoNotOptimize(syntax::parseFile(ctx, file, diags));
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * src.size()));
}
BENCHMARK(BM_Parse)->Arg(1000);

void BM_ParseResolveRun(benchmark::State &state) {
  std::string src = syntheticSource(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    frontend::SourceManager sm;
    star::Interpreter in(sm);
    frontend::DiagnosticList diags;
    auto r = in.execFile(*sm.add("bench.star", src), diags);
    if (!r.module)
      state.SkipWithError("evaluation failed");
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * src.size()));
}
BENCHMARK(BM_ParseResolveRun)->Arg(1000);

// Evaluates `body` (a module defining run()) once per iteration.
void runSnippet(benchmark::State &state, const char *src) {
  frontend::SourceManager sm;
  star::Interpreter in(sm);
  frontend::DiagnosticList diags;
  auto r = in.execFile(*sm.add("snippet.star", src), diags);
  if (!r.module) {
    state.SkipWithError("snippet failed to load");
    return;
  }
  star::Value run = r.module->get("run");
  for (auto _ : state)
    benchmark::DoNotOptimize(star::call(in.thread, run, llvm::ArrayRef<star::Value>{}));
}

void BM_Calls(benchmark::State &state) {
  runSnippet(state, "def add(a, b = 1):\n    return a + b\n"
                    "def run():\n    s = 0\n    for i in range(1000):\n"
                    "        s = add(s, b = i)\n    return s\n");
}
BENCHMARK(BM_Calls);

void BM_Loops(benchmark::State &state) {
  runSnippet(state, "def run():\n    s = 0\n    for i in range(1000):\n"
                    "        if i % 3 == 0:\n            s += i * 2\n    return s\n");
}
BENCHMARK(BM_Loops);

void BM_DictListBuild(benchmark::State &state) {
  runSnippet(state, "def run():\n    d = {}\n    l = []\n    for i in range(1000):\n"
                    "        d[i % 97] = d.get(i % 97, 0) + 1\n        l.append(i)\n"
                    "    return [x for x in l if x % 2 == 0]\n");
}
BENCHMARK(BM_DictListBuild);

} // namespace

BENCHMARK_MAIN();
