// Runs Go-style chunked Starlark conformance files (the format of
// go.starlark.net/starlark/testdata): chunks separated by a line "---",
// expected errors as `### "regexp"` (a Go-quoted RE2 pattern) on the line
// that fails, dialect options as "option:NAME" anywhere in the chunk, and
// load("assert.star", "assert") with the starlarktest semantics.
//
//   starlark_conformance [-v] [--suite=debian|recent] [FILE|DIR ...]
//
// Two suites, each with the file list, options and load() modules of its
// Go driver (starlark/eval_test.go):
//   debian  the Debian golang-starlark-dev snapshot (2021), from its tree;
//   recent  the newer go.starlark.net files vendored in
//           tests/conformance/starlark-go-recent (DIR is that folder).
// Where fbc deliberately differs from a suite (it follows the recent Go
// where the two disagree), the suite's deviation table below says where and
// why: a whole file, a whole chunk, or one line whose failure is expected.
// A listed line that no longer fails is reported, so the table stays true.
//
// It prints each failure as file:line: message, then the deviations met and
// "N passed, M failed[, K skipped]" (chunks), and exits 1 if any chunk failed.
#include "frontend/eval/big_stack.h"
#include "frontend/eval/interpreter.h"
#include "frontend/lib/json/json.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/struct.h"
#include "tests/conformance/host_values.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/Support/raw_ostream.h>
#include <re2/re2.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace fbc;
using namespace fbc::star;

namespace {

const char *kGoTree = "/usr/share/gocode/src/go.starlark.net";

// What fbc does differently from a suite, and why.
struct Deviation {
  enum Scope { File, Chunk, Line } scope;
  const char *key; // "file" / "file:first line of the chunk" / "file:line"
  const char *reason;
};

// The Debian snapshot's own expectations that the recent go.starlark.net
// (which fbc follows, as the reference tool embeds it) changed.
const Deviation kDebianDeviations[] = {
    {Deviation::Line, "builtins.star:184",
     "dir(set()) lists the 12 set methods of the recent Go, not only \"union\""},
    {Deviation::Line, "json.star:6", "dir(json) also lists encode_indent, as the recent Go"},
    {Deviation::Line, "set.star:103",
     "set < set is the proper-subset test of the recent Go, not an error"},
    {Deviation::Line, "string.star:49",
     "type(s.codepoint_ords()) is \"string.codepoints\" in the recent Go, not \"codepoints\""},
    {Deviation::Line, "string.star:56",
     "type(s.codepoints()) is \"string.codepoints\" in the recent Go, not \"codepoints\""},
    {Deviation::Line, "string.star:59",
     "s.codepoints() yields U+FFFD for each invalid UTF-8 byte in the recent Go, not the byte"},
    {Deviation::Line, "string.star:63",
     "type(s.elem_ords()) is \"string.elems\" in the recent Go, not \"elems\""},
    {Deviation::Line, "string.star:70",
     "type(s.elems()) is \"string.elems\" in the recent Go, not \"elems\""},
};

// Where fbc differs from the recent suite.
const Deviation kRecentDeviations[] = {
    {Deviation::Line, "time.star:119",
     "the runner's time module (a host module of this runner only: fbc gives specs no "
     "time module) holds instants as int64 nanoseconds, years 1678-2262; Go's zero time, "
     "year 1, is outside them, so parse_time(\"0001-01-01T00:00:00Z\") fails"},
};

struct Suite {
  const char *name;
  std::vector<std::string> files; // in the Go driver's order
  std::string assertStar;         // starlarktest/assert.star
  bool recentOptions;             // FileOptions (recent) or the 2021 resolver flags
  llvm::ArrayRef<Deviation> deviations;
};

// The files each Go driver (starlark/eval_test.go: TestExecFile) runs.
const char *kDebianFiles[] = {"assign.star", "bool.star",  "builtins.star",  "control.star",
                              "dict.star",   "float.star", "function.star",  "int.star",
                              "json.star",   "list.star",  "misc.star",      "set.star",
                              "string.star", "tuple.star", "recursion.star", "module.star"};
// The recent driver's 21 files but proto.star, all from one commit of the
// main line (tests/conformance/starlark-go-recent/README.md).
const char *kRecentFiles[] = {"assign.star",  "bool.star",      "builtins.star", "bytes.star",
                              "control.star", "dict.star",      "float.star",    "function.star",
                              "int.star",     "json.star",      "list.star",     "math.star",
                              "misc.star",    "set.star",       "string.star",   "time.star",
                              "tuple.star",   "recursion.star", "module.star",   "while.star"};

Suite debianSuite() {
  Suite s{
      "debian", {}, std::string(kGoTree) + "/starlarktest/assert.star", false, kDebianDeviations};
  for (const char *f : kDebianFiles)
    s.files.push_back(std::string(kGoTree) + "/starlark/testdata/" + f);
  return s;
}

Suite recentSuite(const std::string &dir) {
  Suite s{"recent", {}, dir + "/starlarktest/assert.star", true, kRecentDeviations};
  for (const char *f : kRecentFiles)
    s.files.push_back(dir + "/" + f);
  return s;
}

const Deviation *findDeviation(const Suite &suite, Deviation::Scope scope, const std::string &key) {
  for (const Deviation &d : suite.deviations)
    if (d.scope == scope && key == d.key)
      return &d;
  return nullptr;
}

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

syntax::Dialect chunkDialect(const std::string &chunk, bool recentOptions) {
  syntax::Dialect d;
  auto has = [&](const char *opt) { return chunk.find(opt) != std::string::npos; };
  // option:set needs nothing: fbc always has the set type, as the recent Go.
  d.allowRecursion = has("option:recursion");
  d.allowWhile = has("option:while");
  d.allowGlobalReassign = has("option:globalreassign");
  d.allowTopLevelControl = has("option:toplevelcontrol");
  d.loadBindsGlobally = has("option:loadbindsglobally");
  if (!recentOptions) {
    // The 2021 resolver flags: recursion also allowed while, and global
    // reassignment also allowed top-level if/for/while.
    d.allowWhile = d.allowWhile || d.allowRecursion;
    d.allowTopLevelControl = d.allowTopLevelControl || d.allowGlobalReassign;
  }
  return d;
}

// Executes the suite's assert.star with the starlarktest builtins.
Value loadAssert(Interpreter &in, const std::string &path) {
  std::string error;
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
  in.predeclared["_floateq"] = conformance::makeFloatEqBuiltin();
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
  int passed = 0, failed = 0, skipped = 0, deviations = 0;
};

struct Run {
  const Suite &suite;
  bool verbose;
  Totals totals;
  std::set<std::string> deviationsMet; // Line keys whose failure was seen
};

void runChunk(Run &run, const std::string &path, const Chunk &chunk) {
  const std::string base = fs::path(path).filename().string();
  std::string key = base + ":" + std::to_string(chunk.firstLine);
  if (const Deviation *d = findDeviation(run.suite, Deviation::Chunk, key)) {
    ++run.totals.skipped;
    if (run.verbose)
      llvm::outs() << "SKIP " << key << ": " << d->reason << "\n";
    return;
  }
  std::vector<conformance::Failure> failures;
  std::map<int, Expectation> expect = expectations(chunk.source, failures);

  frontend::SourceManager sources;
  const frontend::SourceFile *file = sources.add(path, chunk.source);
  Interpreter in(sources, chunkDialect(chunk.source, run.suite.recentOptions));
  conformance::Reporter reporter{path, {}};
  in.thread.userData = &reporter;
  in.thread.print = [&run](std::string_view s) {
    if (run.verbose)
      llvm::outs() << s << "\n";
  };
  in.predeclared["hasfields"] = conformance::makeHasFieldsBuiltin();
  in.predeclared["fibonacci"] = conformance::makeFibonacci();
  in.predeclared["struct"] = makeStructBuiltin();
  const std::string &assertStar = run.suite.assertStar;
  in.loadHook = [&assertStar, &run](Interpreter &self, std::string_view module) -> Value {
    if (module == "assert.star")
      return loadAssert(self, assertStar);
    auto wrap = [&self](const char *file, const char *name, Value member) {
      Module *m = self.heap.make<Module>(file);
      m->members.emplace_back(name, member);
      return Value::object(m);
    };
    if (module == "json.star")
      return wrap("json.star", "json", makeJsonModule(self.heap));
    if (module == "math.star" && run.suite.recentOptions)
      return wrap("math.star", "math", conformance::makeMathModule(self.heap));
    if (module == "time.star" && run.suite.recentOptions)
      return wrap("time.star", "time", conformance::makeTimeModule(self.heap));
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

  // Failures on a line the deviation table lists are expected.
  std::erase_if(failures, [&](const conformance::Failure &f) {
    std::string at = base + ":" + std::to_string(f.line);
    const Deviation *d = findDeviation(run.suite, Deviation::Line, at);
    if (!d)
      return false;
    if (run.deviationsMet.insert(at).second)
      ++run.totals.deviations;
    if (run.verbose)
      llvm::outs() << "DEVIATION " << at << ": " << f.message << " (" << d->reason << ")\n";
    return true;
  });

  if (failures.empty()) {
    ++run.totals.passed;
    if (run.verbose)
      llvm::outs() << "PASS " << key << "\n";
    return;
  }
  ++run.totals.failed;
  for (const conformance::Failure &f : failures)
    llvm::outs() << path << ":" << f.line << ": " << f.message << "\n";
}

int runAll(const Suite &suite, const std::vector<std::string> &files, bool verbose) {
  Run run{suite, verbose, {}, {}};
  std::set<std::string> ran;
  for (const std::string &path : files) {
    std::string base = fs::path(path).filename().string();
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      llvm::errs() << "starlark_conformance: cannot read " << path << "\n";
      return 2;
    }
    std::stringstream buf;
    buf << in.rdbuf();
    std::vector<Chunk> chunks = splitChunks(buf.str());
    if (const Deviation *d = findDeviation(suite, Deviation::File, base)) {
      run.totals.skipped += static_cast<int>(chunks.size());
      if (verbose)
        llvm::outs() << "SKIP " << base << ": " << d->reason << "\n";
      continue;
    }
    ran.insert(base);
    for (const Chunk &c : chunks)
      runChunk(run, path, c);
  }
  // A listed line that did not fail means the table is out of date.
  for (const Deviation &d : suite.deviations) {
    if (d.scope != Deviation::Line || run.deviationsMet.count(d.key))
      continue;
    std::string key = d.key;
    if (!ran.count(key.substr(0, key.find(':'))))
      continue;
    ++run.totals.failed;
    llvm::outs() << key << ": listed deviation did not occur (" << d.reason << ")\n";
  }
  llvm::outs() << suite.name << " suite: " << run.totals.deviations << " listed deviation(s) met\n";
  llvm::outs() << run.totals.passed << " passed, " << run.totals.failed << " failed";
  if (run.totals.skipped)
    llvm::outs() << ", " << run.totals.skipped << " skipped";
  llvm::outs() << "\n";
  return run.totals.failed ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  bool verbose = false;
  std::string suiteName = "debian";
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "-v")
      verbose = true;
    else if (a.rfind("--suite=", 0) == 0)
      suiteName = a.substr(8);
    else
      args.push_back(a);
  }
  Suite suite;
  if (suiteName == "debian") {
    suite = debianSuite();
  } else if (suiteName == "recent" && args.size() == 1 && fs::is_directory(args[0])) {
    suite = recentSuite(args[0]);
    args.clear();
  } else {
    llvm::errs() << "usage: starlark_conformance [-v] [--suite=debian|recent DIR] [FILE ...]\n";
    return 2;
  }
  std::vector<std::string> files = args.empty() ? suite.files : args;
  return runWithLargeStack([&] { return runAll(suite, files, verbose); });
}
