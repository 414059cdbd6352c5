// fbc run -j N end to end (docs/run.md, "Leaves in parallel"): the same
// report bytes as one leaf at a time, leaves whose services bind the same
// port running at the same moment in network namespaces of their own, a
// scratch directory per leaf, and SIGINT leaving no process and no
// namespace behind. And a namespace per leaf with -j 1 too (docs/run.md,
// "One network namespace per leaf"): two fbc runs of one fixed-port spec
// at once, and what fbc says where it cannot make namespaces.
#include "tests/e2e/fbc_run.h"

#include <gtest/gtest.h>
#include <re2/re2.h>
#include <simdjson.h>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace fbc::rt::e2e {
namespace {

std::string nsOf(const std::string &procPath) {
  char target[256];
  ssize_t n = readlink((procPath + "/ns/net").c_str(), target, sizeof target - 1);
  return n > 0 ? std::string(target, static_cast<size_t>(n)) : "";
}

// The network namespace of every thread of every process on the machine,
// each with the threads in it ("pid/tid comm state"), to name a holder.
std::map<std::string, std::string> allNetns() {
  std::map<std::string, std::string> out;
  std::error_code ec;
  for (const auto &p : std::filesystem::directory_iterator("/proc", ec)) {
    std::error_code ec2;
    for (const auto &t : std::filesystem::directory_iterator(p.path() / "task", ec2))
      if (std::string ns = nsOf(t.path().string()); !ns.empty()) {
        std::string stat = readFile(t.path().string() + "/stat");
        size_t close = stat.rfind(')');
        out[ns] += p.path().filename().string() + "/" + t.path().filename().string() + " " +
                   (close == std::string::npos
                        ? stat
                        : stat.substr(stat.find('(') + 1, close - stat.find('(') - 1) +
                              stat.substr(close + 1, 2)) +
                   "; ";
      }
  }
  return out;
}

// The kv fixtures running in `dir` whose fsync fbc holds right now.
std::vector<int> kvInFsync(const std::string &dir) {
  std::vector<int> out;
  for (int pid : processesIn(dir))
    if (readFile("/proc/" + std::to_string(pid) + "/comm").starts_with("fixture_kv_sto") &&
        threadInSyscall(pid, SYS_fsync))
      out.push_back(pid);
  return out;
}

struct Started {
  pid_t pid;
  std::string outPath, errPath;
};

// Starts fbc in spec's folder with stdout and stderr in files named after
// `tag`.
Started startAs(const Spec &spec, const std::string &tag, const std::vector<std::string> &args) {
  Started s{-1, spec.dir.file(tag + ".out"), spec.dir.file(tag + ".err")};
  int out = open(s.outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  int err = open(s.errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  s.pid = spawnFbc(args, spec.dir.path(), out, err);
  close(out);
  close(err);
  return s;
}

Started start(const Spec &spec, const std::vector<std::string> &args) {
  return startAs(spec, "fbc", args);
}

FbcRun finish(const Started &s) {
  FbcRun r;
  int status = 0;
  waitpid(s.pid, &status, 0);
  r.exit = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = readFile(s.outPath);
  r.err = readFile(s.errPath);
  return r;
}

// Polls until two kv processes are held in fsync at once (both leaves of
// test_hold are in their bodies, their kv serving the same port); returns
// their pids, or fewer after 60 s.
std::vector<int> waitForTwoHeld(const Spec &spec) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  std::vector<int> held;
  while (std::chrono::steady_clock::now() < deadline) {
    held = kvInFsync(spec.dir.path());
    if (held.size() >= 2)
      break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return held;
}

// Every e2e spec with a golden report: -j 4 prints the bytes the golden
// holds (which run_e2e_tests checks for the default, one leaf at a time),
// exit code included (the file tests of run_cases/ check their own). port_in_use is left out on
// purpose: it runs in the host's network (--host-network), where -j N runs one leaf at a time.
TEST(FbcRunJobs, SameReportBytesAsOneLeafAtATime) {
  struct Case {
    const char *spec, *golden, *seed;
    std::vector<std::string> extra;
    int exit;
  };
  const std::vector<Case> text = {
      {"faults", "faults", "7", {}, 2},
      {"matrix", "matrix", "3", {}, 2},
      {"crash", "crash", "1", {}, 2},
      {"hang", "hang", "1", {"--timeout", "2s"}, 3},
      {"ops", "ops", "1", {}, 0},
      {"panic", "panic", "1", {}, 2},
      {"parallel", "parallel_overlap", "1", {"--test", "~test_(overlap|spin_yields)"}, 0},
      {"bypass", "bypass", "1", {}, 2},
      {"unmediated_bypass", "unmediated_bypass", "1", {}, 0},
  };
  const std::vector<Case> json = {
      {"faults", "faults", "7", {}, 2},
      {"matrix", "matrix", "3", {}, 2},
      {"crash", "crash", "1", {}, 2},
      {"hang", "hang", "1", {"--timeout", "2s"}, 3},
      {"leaves", "leaves", "1", {"--test", "~^test_(choose|wal)$"}, 0},
      {"bypass", "bypass", "1", {}, 2},
      {"unmediated_bypass", "unmediated_bypass", "1", {}, 0},
  };
  for (bool isJson : {false, true}) {
    for (const Case &c : isJson ? json : text) {
      SCOPED_TRACE(std::string(c.spec) + (isJson ? " (json)" : " (text)"));
      Spec spec(c.spec);
      std::vector<std::string> args = {"run", spec.path, "--seed",     c.seed,
                                       "-j",  "4",       "--no-bundle"};
      if (isJson)
        args.push_back("--format=json");
      args.insert(args.end(), c.extra.begin(), c.extra.end());
      FbcRun r = runFbc(args, spec.dir.path());
      EXPECT_EQ(r.exit, c.exit) << r.out << r.err;
      std::string golden =
          readFile(std::string(FBC_RUN_GOLDEN) + "/" + c.golden + (isJson ? ".json" : ".txt"));
      ASSERT_FALSE(golden.empty()) << c.golden;
      EXPECT_EQ(isJson ? normalizeJson(r.out, spec) : normalize(r.out, spec), golden);
      EXPECT_TRUE(processesIn(spec.dir.path()).empty());
    }
  }
}

// --junit and --shard with -j 4: the JUnit XML and the shard's report are
// those of one leaf at a time (durations aside).
TEST(FbcRunJobs, JUnitAndShardsAsWithOneLeafAtATime) {
  for (const char *name : {"faults", "leaves"}) {
    SCOPED_TRACE(name);
    Spec spec(name);
    std::string report[2], junit[2];
    int exit[2] = {-1, -1};
    for (int i = 0; i < 2; ++i) {
      std::string file = spec.dir.file(i == 0 ? "one.xml" : "four.xml");
      FbcRun r = runFbc({"run", spec.path, "--seed", "7", "--no-bundle", "--shard", "1/2",
                         "--junit", file, "-j", i == 0 ? "1" : "4"},
                        spec.dir.path());
      exit[i] = r.exit;
      report[i] = normalize(r.out, spec);
      junit[i] = normalize(readFile(file), spec);
      RE2::GlobalReplace(&junit[i], R"( time="\d+\.\d+")", R"( time="N")");
    }
    EXPECT_EQ(exit[0], exit[1]);
    EXPECT_EQ(report[0], report[1]);
    EXPECT_FALSE(junit[0].empty());
    EXPECT_EQ(junit[0], junit[1]);
  }
}

TEST(FbcRunJobs, LeavesOnTheSamePortRunAtOnceInNamespacesOfTheirOwn) {
  Spec spec("jobs");
  Started s = start(spec, {"run", spec.path, "--seed", "1", "-j", "2", "--test", "test_hold",
                           "--timeout", "5s", "--no-bundle"});
  std::vector<int> held = waitForTwoHeld(spec);
  // Both leaves' kv, started on the same port, serve a request at once...
  ASSERT_EQ(held.size(), 2u);
  // ...each in a network namespace of its own, neither the host's.
  std::string a = nsOf("/proc/" + std::to_string(held[0]));
  std::string b = nsOf("/proc/" + std::to_string(held[1]));
  EXPECT_NE(a, b);
  EXPECT_NE(a, nsOf("/proc/self"));
  EXPECT_NE(b, nsOf("/proc/self"));
  FbcRun r = finish(s);
  EXPECT_EQ(r.exit, 3) << r.out << r.err;
  // Rows in plan order, each ended by its own timeout.
  size_t l0 = r.out.find("--- INCONCLUSIVE: test_hold [leaf 0 — who=a] (");
  size_t l1 = r.out.find("--- INCONCLUSIVE: test_hold [leaf 1 — who=b] (");
  EXPECT_NE(l0, std::string::npos) << r.out;
  EXPECT_NE(l1, std::string::npos) << r.out;
  EXPECT_LT(l0, l1) << r.out;
  EXPECT_TRUE(contains(r.out, "0 passed, 0 failed, 2 inconclusive\n")) << r.out;
  EXPECT_TRUE(processesIn(spec.dir.path()).empty());
}

TEST(FbcRunJobs, SigintStopsEveryLeafAndLeavesNoProcessNorNamespace) {
  Spec spec("jobs");
  Started s = start(
      spec, {"run", spec.path, "--seed", "1", "-j", "2", "--test", "test_hold", "--no-bundle"});
  std::vector<int> held = waitForTwoHeld(spec);
  ASSERT_EQ(held.size(), 2u);
  // The leaves' namespaces: their services' and fbc's own leaf threads'.
  std::set<std::string> leafNs;
  std::string host = nsOf("/proc/self");
  for (int pid : held)
    leafNs.insert(nsOf("/proc/" + std::to_string(pid)));
  std::error_code ec;
  for (const auto &t :
       std::filesystem::directory_iterator("/proc/" + std::to_string(s.pid) + "/task", ec))
    if (std::string ns = nsOf(t.path().string()); !ns.empty() && ns != host)
      leafNs.insert(ns);
  EXPECT_EQ(leafNs.size(), 2u);
  kill(s.pid, SIGINT);
  FbcRun r = finish(s);
  EXPECT_EQ(r.exit, 130) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "0 passed, 0 failed, 2 not run (interrupted)\n")) << r.out;
  EXPECT_TRUE(processesIn(spec.dir.path()).empty());
  // No thread of any process is left in a leaf's namespace (and fbc makes
  // no bind mount that would keep one alive without a process).
  std::map<std::string, std::string> now = allNetns();
  for (const std::string &ns : leafNs)
    EXPECT_EQ(now.count(ns), 0u) << ns << " held by " << now[ns];
}

TEST(FbcRunJobs, EachLeafHasAScratchDirectoryRemovedAfterwards) {
  Spec spec("jobs");
  FbcRun r = runFbc(
      {"run", spec.path, "--seed", "1", "-j", "3", "-v", "--test", "test_scratch", "--no-bundle"},
      spec.dir.path());
  EXPECT_EQ(r.exit, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "3 passed, 0 failed\n")) << r.out;
  // kv prints its WAL's path when it starts: $FBC_SCRATCH/kv.wal, expanded.
  std::vector<std::string> dirs = allMatches(r.err, R"(wal (/[^ \n]+)/kv\.wal)");
  ASSERT_EQ(dirs.size(), 3u) << r.err;
  EXPECT_EQ(std::set<std::string>(dirs.begin(), dirs.end()).size(), 3u) << r.err;
  for (const std::string &d : dirs) {
    EXPECT_TRUE(d.starts_with("/tmp/fbc-scratch-lk-")) << d;
    EXPECT_FALSE(std::filesystem::exists(d)) << d;
  }
  // The default (-j 1) has one too.
  FbcRun one =
      runFbc({"run", spec.path, "--seed", "1", "-v", "--test", "test_scratch", "--no-bundle"},
             spec.dir.path());
  EXPECT_EQ(one.exit, 0) << one.out << one.err;
  EXPECT_EQ(allMatches(one.err, R"(wal (/tmp/fbc-scratch-[^ \n/]+)/kv\.wal)").size(), 3u)
      << one.err;
}

// ---- one network namespace per leaf, whatever -j is

// When kv answered its healthcheck and when it stopped, in a JSON report
// (RFC 3339 timestamps with nanoseconds: they order as strings).
struct KvSpan {
  std::string ready, stopped;
};
KvSpan kvSpan(const std::string &json) {
  KvSpan span;
  simdjson::dom::parser p;
  simdjson::dom::element doc;
  if (p.parse(json).get(doc))
    return span;
  for (simdjson::dom::element t : doc["tests"].get_array())
    for (simdjson::dom::element e : t["events"].get_array()) {
      std::string_view type = e["type"], service = e["service"], at = e["timestamp"];
      if (service == "kv" && type == "service_ready" && span.ready.empty())
        span.ready = at;
      if (service == "kv" && type == "service_stopped")
        span.stopped = at;
    }
  return span;
}

bool overlapped(const KvSpan &a, const KvSpan &b) {
  return !a.ready.empty() && !b.ready.empty() && a.ready < b.stopped && b.ready < a.stopped;
}

std::string normalizeScratch(std::string s) {
  RE2::GlobalReplace(&s, R"(/tmp/fbc-scratch-lk-\w{6})", "$$SCRATCH");
  return s;
}

// Two fbc processes on one host with the same fixed-port spec at the same
// moment (two CI jobs on one runner, Bazel's local shards): each leaf's kv
// binds the port in a namespace of its own, so both runs pass and each kv
// answers its own run (one fsync each, the golden report), while both kv
// were listening at once. In the host's network (--host-network, as fbc
// without root runs) the same two runs collide.
TEST(FbcRunNetns, TwoRunsOnTheSamePortsAtOnceDoNotCollide) {
  Spec spec("two_runs");
  for (bool host : {false, true}) {
    SCOPED_TRACE(host ? "--host-network" : "a namespace per leaf");
    std::vector<std::string> args = {"run", spec.path,       "--seed",
                                     "1",   "--format=json", "--no-bundle"};
    if (host)
      args.push_back("--host-network");
    Started a = startAs(spec, "a", args), b = startAs(spec, "b", args);
    FbcRun ra = finish(a), rb = finish(b);
    KvSpan sa = kvSpan(ra.out), sb = kvSpan(rb.out);
    if (!host) {
      EXPECT_EQ(ra.exit, 0) << ra.out << ra.err;
      EXPECT_EQ(rb.exit, 0) << rb.out << rb.err;
      checkGolden("two_runs", normalizeScratch(normalizeJson(ra.out, spec)), ".json");
      checkGolden("two_runs", normalizeScratch(normalizeJson(rb.out, spec)), ".json");
      EXPECT_EQ(ra.err, "");
      EXPECT_EQ(rb.err, "");
      // Both kv served their run at the same time: otherwise this test
      // proved nothing.
      EXPECT_TRUE(overlapped(sa, sb))
          << sa.ready << " - " << sa.stopped << " / " << sb.ready << " - " << sb.stopped;
    } else {
      // One kv cannot bind the port the other holds: a row that is not
      // the golden's (kv exited during the test, or a port in use).
      bool collided = ra.exit != 0 || rb.exit != 0 ||
                      contains(ra.out + rb.out, "Address already in use") ||
                      contains(ra.out + rb.out, "port in use");
      EXPECT_TRUE(collided || !overlapped(sa, sb)) << ra.out << rb.out;
    }
    EXPECT_TRUE(processesIn(spec.dir.path()).empty());
  }
}

// With -j 1 (the default) a leaf's services are in a network namespace of
// their own too, neither fbc's nor the host's.
TEST(FbcRunNetns, OneLeafAtATimeEachInANamespaceOfItsOwn) {
  Spec spec("jobs");
  Started s = start(
      spec, {"run", spec.path, "--seed", "1", "--test", "test_hold", "--leaf", "0", "--no-bundle"});
  std::vector<int> held;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (held.empty() && std::chrono::steady_clock::now() < deadline) {
    held = kvInFsync(spec.dir.path());
    if (held.empty())
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_EQ(held.size(), 1u);
  std::string kvNs = nsOf("/proc/" + std::to_string(held[0]));
  EXPECT_NE(kvNs, nsOf("/proc/self"));
  EXPECT_NE(kvNs, nsOf("/proc/" + std::to_string(s.pid)));
  kill(s.pid, SIGINT);
  FbcRun r = finish(s);
  EXPECT_EQ(r.exit, 130) << r.out << r.err;
  EXPECT_TRUE(processesIn(spec.dir.path()).empty());
  std::map<std::string, std::string> now = allNetns();
  EXPECT_EQ(now.count(kvNs), 0u) << kvNs << " held by " << now[kvNs];
}

// Where fbc cannot make namespaces (not root: here root without
// CAP_SYS_ADMIN, as setpriv leaves it), it says so and runs the leaves in
// the host's network; -j N then runs one leaf at a time.
TEST(FbcRunNetns, WithoutTheCapabilityLeavesRunInTheHostsNetworkAndSaySo) {
  Spec spec("two_runs");
  for (const char *jobs : {"1", "2"}) {
    std::string out = spec.dir.file("setpriv.out"), err = spec.dir.file("setpriv.err");
    std::string line = "cd '" + spec.dir.path() + "' && setpriv --bounding-set -sys_admin '" +
                       FBC_BINARY + "' run spec.star --seed 1 --format=json --no-bundle -j " +
                       jobs + " >'" + out + "' 2>'" + err + "'";
    int status = std::system(line.c_str());
    FbcRun r;
    r.exit = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = readFile(out);
    r.err = readFile(err);
    EXPECT_EQ(r.exit, 0) << r.out << r.err;
    checkGolden("two_runs", normalizeScratch(normalizeJson(r.out, spec)), ".json");
    EXPECT_EQ(r.err, std::string(jobs) == "1"
                         ? "fbc run: warning: a network namespace per leaf needs root "
                           "(CAP_SYS_ADMIN and CAP_NET_ADMIN): unshare(CLONE_NEWNET): Operation "
                           "not permitted; leaves run in this host's network, where a second run "
                           "on the same ports collides\n"
                         : "fbc run: warning: -j 2 runs each leaf in a network namespace of its "
                           "own, which needs root (CAP_SYS_ADMIN and CAP_NET_ADMIN): "
                           "unshare(CLONE_NEWNET): Operation not permitted; running one leaf at a "
                           "time\n");
  }
}

TEST(FbcRunJobs, BadValuesAreUsageErrors) {
  Spec spec("jobs");
  for (const char *bad : {"0", "x", "10000", "2x"}) {
    FbcRun r = runFbc({"run", spec.path, "-j", bad}, spec.dir.path());
    EXPECT_EQ(r.exit, 1) << bad;
    EXPECT_EQ(r.err, std::string("fbc run: error: bad -j \"") + bad +
                         "\": want a number of leaves (1..9999) or auto\n")
        << bad;
  }
}

} // namespace
} // namespace fbc::rt::e2e
