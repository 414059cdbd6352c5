// Runs Go-style chunked Starlark conformance files (the format of
// go.starlark.net/starlark/testdata): chunks separated by a line "---",
// expected errors as `### "regexp"` (a Go-quoted RE2 pattern) on the line
// that fails, dialect options as "option:NAME" anywhere in the chunk, and
// load("assert.star", "assert") with the starlarktest semantics.
//
//   starlark_conformance [-v] [FILE|DIR ...]
//
// Without arguments it runs the Debian golang-starlark-dev suite. It prints
// each failure as file:line: message, then "N passed, M failed" (chunks),
// and exits 1 if any chunk failed.
#include "frontend/eval/big_stack.h"
#include "frontend/eval/interpreter.h"
#include "frontend/eval/objects.h"
#include "frontend/lib/json.h"
#include "frontend/lib/struct.h"
#include "tests/conformance/host_values.h"

#include <llvm/Support/raw_ostream.h>
#include <re2/re2.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace fbc;
using namespace fbc::star;

namespace {

const char *kGoTree = "/usr/share/gocode/src/go.starlark.net";

// The files Go's own driver (starlark/eval_test.go) runs, in its order.
const char *kDefaultFiles[] = {"assign.star", "bool.star",  "builtins.star",  "control.star",
                               "dict.star",   "float.star", "function.star",  "int.star",
                               "json.star",   "list.star",  "misc.star",      "set.star",
                               "string.star", "tuple.star", "recursion.star", "module.star"};

// Chunks fbc does not run, keyed by "file:first line of the chunk", each
// with its reason.
const std::map<std::string, std::string> kSkips = {};

struct Chunk {
  std::string source; // padded with newlines so line numbers match the file
  int firstLine;
};

std::vector<Chunk> splitChunks(const std::string &data) {
  std::vector<Chunk> chunks;
  size_t start = 0;
  int line = 1;
  while (true) {
    size_t sep = data.find("\n---\n", start);
    std::string body =
        data.substr(start, sep == std::string::npos ? std::string::npos : sep - start);
    chunks.push_back({std::string(line - 1, '\n') + body, line});
    if (sep == std::string::npos)
      break;
    line += static_cast<int>(std::count(body.begin(), body.end(), '\n')) + 2;
    start = sep + 5;
  }
  return chunks;
}

// Unquotes a Go string literal: "..." with escapes, or `raw`.
std::optional<std::string> goUnquote(std::string_view q) {
  if (q.size() >= 2 && q.front() == '`' && q.back() == '`')
    return std::string(q.substr(1, q.size() - 2));
  if (q.size() < 2 || q.front() != '"' || q.back() != '"')
    return std::nullopt;
  std::string out;
  for (size_t i = 1; i + 1 < q.size(); ++i) {
    char c = q[i];
    if (c != '\\') {
      out += c;
      continue;
    }
    if (++i + 1 > q.size() - 1)
      return std::nullopt;
    switch (char e = q[i]) {
    case 'n':
      out += '\n';
      break;
    case 't':
      out += '\t';
      break;
    case 'r':
      out += '\r';
      break;
    case '\\':
    case '"':
    case '\'':
      out += e;
      break;
    case 'x':
      if (i + 2 >= q.size())
        return std::nullopt;
      out += static_cast<char>(std::stoi(std::string(q.substr(i + 1, 2)), nullptr, 16));
      i += 2;
      break;
    default:
      out += '\\';
      out += e;
    }
  }
  return out;
}

struct Expectation {
  std::string pattern;
  bool hit = false;
};

std::map<int, Expectation> expectations(const std::string &chunk,
                                        std::vector<conformance::Failure> &bad) {
  std::map<int, Expectation> out;
  std::istringstream in(chunk);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    size_t at = line.find("###");
    if (at == std::string::npos)
      continue;
    std::string rest = line.substr(at + 3);
    rest.erase(0, rest.find_first_not_of(" \t"));
    rest.erase(rest.find_last_not_of(" \t\r") + 1);
    std::optional<std::string> re = goUnquote(rest);
    if (!re) {
      bad.push_back({n, "not a quoted regexp: " + rest});
      continue;
    }
    out[n] = {*re, false};
  }
  return out;
}

syntax::Dialect chunkDialect(const std::string &chunk) {
  syntax::Dialect d;
  auto has = [&](const char *opt) { return chunk.find(opt) != std::string::npos; };
  if (has("option:recursion")) {
    d.allowRecursion = true; // in the Debian snapshot it also enables while
    d.allowWhile = true;
  }
  if (has("option:while"))
    d.allowWhile = true;
  if (has("option:globalreassign")) {
    d.allowGlobalReassign = true; // and, in the Debian snapshot, top-level control
    d.allowTopLevelControl = true;
  }
  if (has("option:toplevelcontrol"))
    d.allowTopLevelControl = true;
  if (has("option:loadbindsglobally"))
    d.loadBindsGlobally = true;
  return d;
}

// Executes assert.star from the Go tree with the starlarktest builtins.
Value loadAssert(Interpreter &in) {
  std::string error;
  std::string path = std::string(kGoTree) + "/starlarktest/assert.star";
  const frontend::SourceFile *file = in.sources.load(path, error);
  if (!file)
    in.thread.fail("cannot load assert.star: " + error);
  llvm::StringMap<Value> saved = std::move(in.predeclared);
  in.predeclared = llvm::StringMap<Value>();
  in.predeclared["error"] = conformance::makeErrorBuiltin();
  in.predeclared["catch"] = conformance::makeCatchBuiltin();
  in.predeclared["matches"] = conformance::makeMatchesBuiltin();
  in.predeclared["module"] = conformance::makeModuleBuiltin();
  in.predeclared["_freeze"] = conformance::makeFreezeBuiltin();
  // The chunk's own predeclared names come back however this ends.
  struct Restore {
    Interpreter &in;
    llvm::StringMap<Value> saved;
    ~Restore() { in.predeclared = std::move(saved); }
  } restore{in, std::move(saved)};
  frontend::DiagnosticList diags;
  const syntax::File *ast = in.parse(*file, diags);
  if (!ast)
    in.thread.fail("cannot load assert.star: static errors");
  ModuleEnv *env = in.run(*ast);
  return moduleValue(in.heap, *env, "assert.star");
}

struct Totals {
  int passed = 0, failed = 0, skipped = 0;
};

void runChunk(const std::string &path, const Chunk &chunk, bool verbose, Totals &totals) {
  std::string key = fs::path(path).filename().string() + ":" + std::to_string(chunk.firstLine);
  if (auto it = kSkips.find(key); it != kSkips.end()) {
    ++totals.skipped;
    if (verbose)
      llvm::outs() << "SKIP " << key << ": " << it->second << "\n";
    return;
  }
  std::vector<conformance::Failure> failures;
  std::map<int, Expectation> expect = expectations(chunk.source, failures);

  frontend::SourceManager sources;
  const frontend::SourceFile *file = sources.add(path, chunk.source);
  Interpreter in(sources, chunkDialect(chunk.source));
  conformance::Reporter reporter{path, {}};
  in.thread.userData = &reporter;
  in.thread.print = [verbose](std::string_view s) {
    if (verbose)
      llvm::outs() << s << "\n";
  };
  in.predeclared["hasfields"] = conformance::makeHasFieldsBuiltin();
  in.predeclared["fibonacci"] = conformance::makeFibonacci();
  in.predeclared["struct"] = makeStructBuiltin();
  in.loadHook = [](Interpreter &self, std::string_view module) -> Value {
    if (module == "assert.star")
      return loadAssert(self);
    if (module == "json.star") {
      Module *m = self.heap.make<Module>("json.star");
      m->members.emplace_back("json", makeJsonModule(self.heap));
      return Value::object(m);
    }
    return Value();
  };

  frontend::DiagnosticList diags;
  Interpreter::Result r = in.execFile(*file, diags);
  if (r.staticErrors) {
    for (const frontend::Diagnostic &d : diags.all())
      failures.push_back({static_cast<int>(d.pos.line), "static error: " + d.message});
  } else if (r.error) {
    const TraceFrame *f = nullptr;
    for (auto it = r.error->frames.rbegin(); it != r.error->frames.rend(); ++it)
      if (it->file == path) {
        f = &*it;
        break;
      }
    int line = f ? static_cast<int>(f->pos.line) : 0;
    auto it = expect.find(line);
    if (it != expect.end() && RE2::PartialMatch(r.error->message(), RE2(it->second.pattern)))
      it->second.hit = true;
    else
      failures.push_back({line, "unexpected error: " + r.error->message()});
  }
  for (const conformance::Failure &f : reporter.failures)
    failures.push_back(f);
  for (const auto &[line, e] : expect)
    if (!e.hit)
      failures.push_back({line, "expected error matching " + e.pattern + " was not raised"});

  if (failures.empty()) {
    ++totals.passed;
    if (verbose)
      llvm::outs() << "PASS " << key << "\n";
    return;
  }
  ++totals.failed;
  for (const conformance::Failure &f : failures)
    llvm::outs() << path << ":" << f.line << ": " << f.message << "\n";
}

int runAll(const std::vector<std::string> &files, bool verbose) {
  Totals totals;
  for (const std::string &path : files) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      llvm::errs() << "starlark_conformance: cannot read " << path << "\n";
      return 2;
    }
    std::stringstream buf;
    buf << in.rdbuf();
    for (const Chunk &c : splitChunks(buf.str()))
      runChunk(path, c, verbose, totals);
  }
  llvm::outs() << totals.passed << " passed, " << totals.failed << " failed";
  if (totals.skipped)
    llvm::outs() << ", " << totals.skipped << " skipped";
  llvm::outs() << "\n";
  return totals.failed ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  bool verbose = false;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "-v") {
      verbose = true;
    } else if (fs::is_directory(a)) {
      std::vector<std::string> dir;
      for (const auto &e : fs::directory_iterator(a))
        if (e.path().extension() == ".star" && e.path().filename() != "benchmark.star" &&
            e.path().filename() != "paths.star")
          dir.push_back(e.path().string());
      std::sort(dir.begin(), dir.end());
      files.insert(files.end(), dir.begin(), dir.end());
    } else {
      files.push_back(a);
    }
  }
  if (files.empty())
    for (const char *f : kDefaultFiles)
      files.push_back(std::string(kGoTree) + "/starlark/testdata/" + f);
  return runWithLargeStack([&] { return runAll(files, verbose); });
}
