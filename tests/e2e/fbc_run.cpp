#include "tests/e2e/fbc_run.h"

#include "bundle/diff.h"

#include <gtest/gtest.h>
#include <re2/re2.h>
#include <simdjson.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string_view>

namespace fbc::rt::e2e {

namespace {

// run_specs/<name>.star, or the file test run_cases/<name>.star that other
// tests run in their own ways too (-j N, shards).
std::string specFile(const std::string &name) {
  std::string file = std::string(FBC_RUN_SPECS) + "/" + name + ".star";
  if (access(file.c_str(), F_OK) == 0)
    return file;
  return std::string(FBC_RUN_CASES) + "/" + name + ".star";
}

} // namespace

Spec::Spec(const std::string &name) : Spec(name, specFile(name)) {}

Spec::Spec(const std::string &name, const std::string &file) : name(name) {
  std::string text = readFile(file);
  auto subst = [&](const std::string &from, const std::string &to) {
    for (size_t p; (p = text.find(from)) != std::string::npos;)
      text.replace(p, from.size(), to);
  };
  while (apiPort == kvPort)
    apiPort = freePort();
  subst("@KV_BIN@", FBC_FIXTURE_KV);
  subst("@API_BIN@", FBC_FIXTURE_API);
  subst("@CRASH_BIN@", FBC_FIXTURE_CRASH);
  subst("@NONDET_DIR@", FBC_FIXTURE_NONDET_DIR);
  subst("@RUN_CASES@", FBC_RUN_CASES);
  subst("@KV_PORT@", std::to_string(kvPort));
  subst("@API_PORT@", std::to_string(apiPort));
  std::ofstream(dir.file("spec.star")) << text;
  path = "spec.star";
}

namespace {

// `tar --zstd <mode> <bundle> <member>`'s output (a failure if tar fails).
std::string tarOutput(const std::string &mode, const std::string &bundle,
                      const std::string &member = "") {
  std::string cmd = "tar --zstd " + mode + " '" + bundle + "' " + member + " 2>&1";
  FILE *p = popen(cmd.c_str(), "r");
  if (!p) {
    ADD_FAILURE() << "popen failed: " << cmd;
    return "";
  }
  std::string out;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;)
    out.append(buf, n);
  EXPECT_EQ(pclose(p), 0) << cmd << "\n" << out;
  return out;
}

// `tar --zstd -tf` of a bundle: GNU tar reads it, and in the fixed order
// (docs/bundle.md): manifest.json, env.json, trace.json, plan.json (unless
// --no-plan), junit.xml, replay.sh, services/... sorted, spec/... sorted.
void checkBundleListing(const std::string &path, bool plan) {
  std::string out = tarOutput("-tf", path);
  std::vector<std::string> names, services, spec;
  for (size_t at = 0, nl; (nl = out.find('\n', at)) != std::string::npos; at = nl + 1)
    names.push_back(out.substr(at, nl - at));
  for (const std::string &n : names) {
    if (n.rfind("services/", 0) == 0)
      services.push_back(n);
    if (n.rfind("spec/", 0) == 0)
      spec.push_back(n);
  }
  std::sort(services.begin(), services.end());
  std::sort(spec.begin(), spec.end());
  EXPECT_FALSE(spec.empty()) << "no spec/ snapshot in " << path;
  std::vector<std::string> expected = {"manifest.json", "env.json", "trace.json"};
  if (plan)
    expected.push_back("plan.json");
  expected.push_back("junit.xml");
  expected.push_back("replay.sh");
  expected.insert(expected.end(), services.begin(), services.end());
  expected.insert(expected.end(), spec.begin(), spec.end());
  EXPECT_EQ(names, expected) << "tar --zstd -tf " << path;
}

// The bundle a run's "Bundle: " line names (relative to `cwd`), or "".
std::string bundleOf(const FbcRun &r, const std::string &cwd) {
  size_t at = r.err.rfind("Bundle: ");
  if (at == std::string::npos)
    return "";
  std::string path = r.err.substr(at + 8, r.err.find('\n', at) - at - 8);
  return path.front() == '/' ? path : cwd + "/" + path;
}

// Every `fbc run` / `fbc replay` whose spec loaded leaves a bundle (exit 1
// is a load or usage error: none), unless --no-bundle or the write failed
// (a warning); its listing is checked.
void checkBundle(const std::vector<std::string> &args, const std::string &cwd, const FbcRun &r) {
  if (args.empty() || (args[0] != "run" && args[0] != "replay"))
    return;
  auto has = [&](const char *flag) {
    return std::find(args.begin(), args.end(), flag) != args.end();
  };
  if (has("--no-bundle"))
    return;
  if (std::string path = bundleOf(r, cwd); !path.empty()) {
    checkBundleListing(path, !has("--no-plan"));
  } else if (r.exit != 1 && !contains(r.err, "warning: no bundle written: ")) {
    ADD_FAILURE() << "fbc " << args[0] << " exited " << r.exit << " without a bundle:\n" << r.err;
  }
}

} // namespace

pid_t spawnFbc(const std::vector<std::string> &args, const std::string &cwd, int outFd, int errFd) {
  pid_t pid = fork();
  if (pid == 0) {
    dup2(outFd, 1);
    dup2(errFd, 2);
    if (chdir(cwd.c_str()) != 0)
      _exit(126);
    std::vector<char *> argv;
    std::string bin = FBC_BINARY;
    argv.push_back(bin.data());
    std::vector<std::string> copy = args;
    for (std::string &a : copy)
      argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(bin.c_str(), argv.data());
    _exit(127);
  }
  return pid;
}

FbcRun runFbc(const std::vector<std::string> &args, const std::string &cwd,
              const std::function<void(const FbcRun &soFar, pid_t)> &onStderr, int timeoutMs) {
  int outPipe[2], errPipe[2];
  EXPECT_EQ(pipe2(outPipe, O_CLOEXEC), 0);
  EXPECT_EQ(pipe2(errPipe, O_CLOEXEC), 0);
  pid_t pid = spawnFbc(args, cwd, outPipe[1], errPipe[1]);
  close(outPipe[1]);
  close(errPipe[1]);
  FbcRun r;
  r.pid = pid;
  auto t0 = std::chrono::steady_clock::now();
  bool outOpen = true, errOpen = true;
  while (outOpen || errOpen) {
    pollfd p[2] = {{outPipe[0], POLLIN, 0}, {errPipe[0], POLLIN, 0}};
    poll(p, 2, 100);
    char buf[4096];
    if (p[0].revents) {
      ssize_t n = read(outPipe[0], buf, sizeof buf);
      if (n > 0)
        r.out.append(buf, static_cast<size_t>(n));
      else
        outOpen = false;
    }
    if (p[1].revents) {
      ssize_t n = read(errPipe[0], buf, sizeof buf);
      if (n > 0) {
        r.err.append(buf, static_cast<size_t>(n));
        if (onStderr)
          onStderr(r, pid);
      } else {
        errOpen = false;
      }
    }
    if (std::chrono::steady_clock::now() - t0 > std::chrono::milliseconds(timeoutMs)) {
      ADD_FAILURE() << "fbc run did not finish in " << timeoutMs << "ms";
      kill(pid, SIGKILL);
      break;
    }
  }
  close(outPipe[0]);
  close(errPipe[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  r.exit = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  checkBundle(args, cwd, r);
  return r;
}

// Exact values that differ per run: the scratch directory, the ports and
// the fixture binaries' build paths.
std::string substituteRunValues(std::string s, const Spec &spec) {
  auto replaceAll = [&](const std::string &from, const std::string &to) {
    for (size_t p = 0; (p = s.find(from, p)) != std::string::npos; p += to.size())
      s.replace(p, from.size(), to);
  };
  replaceAll(FBC_FIXTURE_KV, "$KV_BIN");
  replaceAll(FBC_FIXTURE_API, "$API_BIN");
  replaceAll(FBC_FIXTURE_CRASH, "$CRASH_BIN");
  replaceAll(FBC_FIXTURE_NONDET_DIR, "$NONDET_DIR");
  replaceAll(spec.dir.path(), "$DIR");
  // A port only as a whole number: not the digits inside a longer one.
  auto replacePort = [&](uint16_t port, const std::string &to) {
    std::string from = std::to_string(port);
    auto digit = [&](size_t i) { return i < s.size() && std::isdigit((unsigned char)s[i]); };
    for (size_t p = 0; (p = s.find(from, p)) != std::string::npos;) {
      if ((p > 0 && digit(p - 1)) || digit(p + from.size())) {
        p += from.size();
        continue;
      }
      s.replace(p, from.size(), to);
      p += to.size();
    }
  };
  replacePort(spec.kvPort, "$KV_PORT");
  replacePort(spec.apiPort, "$API_PORT");
  return s;
}

std::string normalize(std::string s, const Spec &spec) {
  s = substituteRunValues(std::move(s), spec);
  RE2::GlobalReplace(&s, R"( \(\d+ms\))", " (Nms)");
  RE2::GlobalReplace(&s, R"(\(\+\d+ms)", "(+Nms");
  RE2::GlobalReplace(&s, R"(\(Nms\) +│)", "(Nms) │");
  RE2::GlobalReplace(&s, R"((?m)\(Nms\) +$)", "(Nms)");
  return s;
}

namespace {

// The JSON report's varying parts, masked by their place in the parsed
// document (simdjson), never by a text pattern. A path is the keys from the
// root, "[]" for an array element, "*" for any one key; each rule says why
// its value varies. Everything else (seeds, leaf options, fault hits,
// seq, the syscall summaries) is compared exactly: the filter traps only
// what a test's rules could touch, and the fixtures make those calls in the
// same number every run (checked on repeated runs under load).

struct JsonMask {
  const char *path;
  const char *why;
};
const JsonMask kJsonMasks[] = {
    {"duration_ms", "wall-clock time of the run"},
    {"tests/[]/duration_ms", "wall-clock time of a test"},
    {"tests/[]/events/[]/timestamp", "wall-clock time of an event"},
    // Event fields: each one `fbc diff --normalize` drops too
    // (bundle::volatileField; eventFieldMasksAreTheNormalisers checks).
    {"tests/[]/events/[]/fields/pid", "process ids"},
    {"tests/[]/events/[]/fields/latency_us", "measured syscall latency"},
    {"tests/[]/events/[]/fields/duration_ms", "measured step duration"},
    {"matrix/cells/[]/duration_ms", "wall-clock time of a matrix cell"},
};
// The event fields masked here are the ones the shared normaliser
// (bundle/diff.h, `fbc diff --normalize`) drops: one rule for both.
[[maybe_unused]] const bool eventFieldMasksAreTheNormalisers = [] {
  constexpr std::string_view kFields = "tests/[]/events/[]/fields/";
  for (const JsonMask &m : kJsonMasks) {
    std::string_view path = m.path;
    if (path.starts_with(kFields) && !bundle::volatileField(path.substr(kFields.size()))) {
      std::fprintf(stderr, "fbc_run.cpp: event field mask %s is not bundle::volatileField\n",
                   m.path);
      std::abort();
    }
  }
  return true;
}();

// How often each rule masked a value; FbcRunJson checks none is dead.
size_t kJsonMaskHits[std::size(kJsonMasks)] = {};

bool pathMatches(const std::vector<std::string> &path, std::string_view pattern) {
  size_t i = 0;
  for (size_t at = 0; at <= pattern.size(); ++i) {
    size_t slash = std::min(pattern.find('/', at), pattern.size());
    std::string_view seg = pattern.substr(at, slash - at);
    if (i >= path.size() || (seg != "*" && seg != path[i]))
      return false;
    at = slash + 1;
  }
  return i == path.size();
}

// Collects the byte ranges of masked scalars in `v` (offsets from `base`).
void findMasked(simdjson::ondemand::value v, std::vector<std::string> &path, const char *base,
                std::vector<std::pair<size_t, size_t>> &spans) {
  switch (v.type()) {
  case simdjson::ondemand::json_type::object:
    for (auto field : v.get_object()) {
      path.emplace_back(field.unescaped_key().value());
      findMasked(field.value(), path, base, spans);
      path.pop_back();
    }
    return;
  case simdjson::ondemand::json_type::array:
    path.emplace_back("[]");
    for (auto element : v.get_array())
      findMasked(element.value(), path, base, spans);
    path.pop_back();
    return;
  default: {
    std::string_view token = v.raw_json_token();
    while (!token.empty() && std::isspace(static_cast<unsigned char>(token.back())))
      token.remove_suffix(1);
    for (size_t i = 0; i < std::size(kJsonMasks); ++i)
      if (pathMatches(path, kJsonMasks[i].path)) {
        spans.emplace_back(static_cast<size_t>(token.data() - base), token.size());
        ++kJsonMaskHits[i];
      }
  }
  }
}

} // namespace

// The report with masked values replaced by N (numbers) or "N" (strings),
// then substituteRunValues().
std::string normalizeJson(std::string s, const Spec &spec) {
  simdjson::padded_string json(s);
  simdjson::ondemand::parser parser;
  std::vector<std::pair<size_t, size_t>> spans;
  try {
    simdjson::ondemand::document doc = parser.iterate(json);
    std::vector<std::string> path;
    for (auto field : doc.get_object()) {
      path.emplace_back(field.unescaped_key().value());
      findMasked(field.value(), path, json.data(), spans);
      path.pop_back();
    }
  } catch (const simdjson::simdjson_error &e) {
    ADD_FAILURE() << "the report is not JSON: " << e.what() << "\n" << s;
    return s;
  }
  for (auto it = spans.rbegin(); it != spans.rend(); ++it)
    s.replace(it->first, it->second, s[it->first] == '"' ? "\"N\"" : "N");
  return substituteRunValues(std::move(s), spec);
}

void checkGolden(const std::string &name, const std::string &actual, const std::string &ext) {
  checkGoldenFile(std::string(FBC_RUN_GOLDEN) + "/" + name + ext, actual);
}

FbcRun runWithGolden(const Spec &spec, int exit) {
  FbcRun r = runFbc({"run", spec.path, "--seed", "1"}, spec.dir.path());
  EXPECT_EQ(r.exit, exit) << r.out << r.err;
  checkGolden(spec.name, normalize(r.out, spec));
  return r;
}

std::vector<std::string> unusedJsonMasks() {
  std::vector<std::string> out;
  for (size_t i = 0; i < std::size(kJsonMasks); ++i)
    if (kJsonMaskHits[i] == 0)
      out.push_back(std::string(kJsonMasks[i].path) + " (" + kJsonMasks[i].why + ")");
  return out;
}

// /proc/<pid>/task/<tid>/syscall starts with the number of the call a
// blocked thread is in ("running" for a thread on a CPU).
namespace {

// expectPlanTotalEqualsRunRows, `said` the plan's total as it says it
// ("4", "at least 4").
FbcRun planTotalEqualsRunRows(const Spec &spec, std::string &said) {
  FbcRun plan = runFbc({"plan", spec.path}, spec.dir.path());
  EXPECT_EQ(plan.exit, 0) << spec.name << plan.err;
  std::string atLeast, total;
  if (!RE2::PartialMatch(plan.out, R"(Total: (at least )?(\d+) plan instances?)", &atLeast,
                         &total)) {
    ADD_FAILURE() << spec.name << ": no total in\n" << plan.out;
    return plan;
  }
  said = atLeast + total;
  FbcRun run = runFbc({"run", spec.path, "--seed", "1", "--format=json"}, spec.dir.path());
  // One "result" per test row (matrix cells included).
  size_t rows = allMatches(run.out, R"re(\n {6}"result": "(\w+)")re").size();
  if (atLeast.empty())
    EXPECT_EQ(rows, std::stoull(total)) << spec.name << "\n" << run.out;
  else
    EXPECT_GE(rows, std::stoull(total)) << spec.name << "\n" << run.out;
  return run;
}

} // namespace

FbcRun expectPlanTotalEqualsRunRows(const Spec &spec) {
  std::string total;
  return planTotalEqualsRunRows(spec, total);
}

void expectManifestLeavesMatchPlan(const Spec &spec, const FbcRun &run) {
  std::string bundle = bundleOf(run, spec.dir.path());
  ASSERT_FALSE(bundle.empty()) << spec.name << ": no bundle\n" << run.err;
  FbcRun plan = runFbc({"plan", spec.path, "--format=json"}, spec.dir.path());
  ASSERT_EQ(plan.exit, 0) << spec.name << plan.err;
  simdjson::dom::parser planParser, manifestParser;
  simdjson::dom::element planJson, manifest;
  ASSERT_EQ(planParser.parse(plan.out).get(planJson), simdjson::SUCCESS) << plan.out;
  std::string manifestText = tarOutput("-xOf", bundle, "manifest.json");
  ASSERT_EQ(manifestParser.parse(manifestText).get(manifest), simdjson::SUCCESS) << manifestText;
  simdjson::dom::array rows = manifest["tests"].get_array();
  std::vector<bool> claimed(rows.size());
  for (simdjson::dom::element test : planJson["tests"].get_array()) {
    std::string name(test["name"].get_string().value());
    // The rows of this test: its own name, or a matrix cell's.
    std::vector<std::string> names{name};
    if (simdjson::dom::array cells; test["matrix_cells"].get(cells) == simdjson::SUCCESS)
      for (simdjson::dom::element c : cells)
        names.emplace_back(c.get_string().value());
    // Its probability axes: key -> max_fires.
    std::map<std::string, uint64_t> axes;
    if (simdjson::dom::array comps; test["compositions"].get(comps) == simdjson::SUCCESS)
      for (simdjson::dom::element c : comps)
        if (c["kind"].get_string().value() == "probability")
          for (simdjson::dom::element a : c["axes"].get_array())
            axes[std::string(a["name"].get_string().value())] = a["max_fires"].get_uint64();
    bool matrix = names.size() > 1;
    std::set<std::vector<bool>> seen;
    uint64_t count = 0;
    size_t i = 0;
    for (simdjson::dom::element row : rows) {
      size_t index = i++;
      std::string rowName(row["name"].get_string().value());
      if (std::find(names.begin(), names.end(), rowName) == names.end())
        continue;
      claimed[index] = true;
      ++count;
      std::map<std::string, std::vector<bool>> outcomes;
      if (simdjson::dom::object o; row["leaf_probability_outcomes"].get(o) == simdjson::SUCCESS)
        for (auto [key, vector] : o)
          for (simdjson::dom::element b : vector.get_array())
            outcomes[std::string(key)].push_back(b.get_bool());
      std::vector<bool> all;
      for (const auto &[key, bits] : outcomes) {
        auto planned = axes.find(key);
        if (planned == axes.end())
          ADD_FAILURE() << rowName << ": unplanned axis " << key;
        else
          EXPECT_EQ(bits.size(), planned->second) << rowName << " " << key;
        all.insert(all.end(), bits.begin(), bits.end());
      }
      if (matrix)
        continue; // a cell carries its own fault's axes only
      EXPECT_EQ(outcomes.size(), axes.size()) << rowName << " leaf outcomes:\n" << manifestText;
      EXPECT_TRUE(seen.insert(all).second) << rowName << ": two leaves alike";
      std::string_view leafId;
      if (axes.size() == 1 && row["leaf_id"].get(leafId) == simdjson::SUCCESS) {
        uint64_t k = std::stoull(std::string(leafId));
        for (size_t bit = 0; bit < all.size(); ++bit)
          EXPECT_EQ(all[bit], bool((k >> bit) & 1)) << rowName << " leaf " << k << " bit " << bit;
      }
    }
    bool estimated = false; // absent: exact
    if (test["estimated"].get(estimated) != simdjson::SUCCESS)
      estimated = false;
    if (estimated)
      EXPECT_GE(count, test["instances"].get_uint64().value()) << name;
    else
      EXPECT_EQ(count, test["instances"].get_uint64().value()) << name << "\n" << manifestText;
  }
  for (size_t k = 0; k < claimed.size(); ++k)
    EXPECT_TRUE(claimed[k]) << spec.name << ": manifest row " << k << " is no planned test's";
}

FbcRun expectRuleModeLeaves(const Spec &spec, int exit, const char *returnValue,
                            const std::vector<std::string> &want) {
  std::string total;
  FbcRun run = planTotalEqualsRunRows(spec, total);
  EXPECT_EQ(total, std::to_string(want.size())) << spec.name << ": the plan's total";
  EXPECT_EQ(run.exit, exit) << run.out << run.err;
  expectManifestLeavesMatchPlan(spec, run);
  EXPECT_EQ(allMatches(run.out, returnValue), want) << run.out;
  return run;
}

bool threadInSyscall(int pid, long nr) {
  std::error_code ec;
  for (const auto &task :
       std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/task", ec)) {
    std::string text = readFile(task.path().string() + "/syscall");
    char *end = nullptr;
    long n = std::strtol(text.c_str(), &end, 10);
    if (end != text.c_str() && n == nr)
      return true;
  }
  return false;
}

bool waitUntilInSyscall(const std::string &dir, long nr, int timeoutMs) {
  auto t0 = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(timeoutMs)) {
    for (int pid : processesIn(dir))
      if (threadInSyscall(pid, nr))
        return true;
    usleep(10 * 1000);
  }
  return false;
}

FbcRun runInterrupted(const Spec &spec, int sig, std::vector<std::string> extra) {
  std::vector<std::string> args = {"run", spec.path, "--seed", "1"};
  args.insert(args.end(), extra.begin(), extra.end());
  bool sent = false;
  FbcRun r = runFbc(args, spec.dir.path(), [&](const FbcRun &soFar, pid_t pid) {
    // The body prints once both services are up and it runs; the signal
    // comes while kv's fsync is held.
    if (!sent && contains(soFar.err, "test_a_long: sleeping")) {
      EXPECT_TRUE(waitUntilInSyscall(spec.dir.path(), SYS_fsync, 30000));
      kill(pid, sig);
      sent = true;
    }
  });
  EXPECT_TRUE(sent) << r.err;
  return r;
}

bool contains(const std::string &haystack, const std::string &needle) {
  return haystack.find(needle) != std::string::npos;
}

std::vector<std::string> allMatches(const std::string &text, const char *re) {
  std::vector<std::string> out;
  re2::StringPiece in(text);
  std::string m;
  while (RE2::FindAndConsume(&in, re, &m))
    out.push_back(m);
  return out;
}

} // namespace fbc::rt::e2e
