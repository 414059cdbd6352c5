#include "bundle/inspect.h"

#include "ir/json_writer.h"
#include "ir/plan.h"
#include "runtime/report/report.h"

#include <llvm/Support/FileSystem.h>

#include <fcntl.h>
#include <simdjson.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>

namespace fbc::bundle {
namespace {

llvm::Error fail(const std::string &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

// plan.json's totals; a plan.json that does not parse is reported as no
// plan data with the reason (the bundle itself is still readable).
void readPlanTotals(const Entry &plan, OpenedBundle &b, std::string &problem) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (auto err = parser.parse(plan.data.data(), plan.data.size()).get(root)) {
    problem = std::string("plan.json is not valid JSON: ") + simdjson::error_message(err);
    return;
  }
  uint64_t total = 0;
  if (root["totals"]["instances"].get(total)) {
    problem = "plan.json has no totals.instances";
    return;
  }
  b.planTotal = total;
  bool estimated = false, saturated = false;
  if (!root["totals"]["estimated"].get(estimated))
    b.planEstimated = estimated;
  // Written as INT64_MAX; read back as the saturated count ("at least 2^64").
  if (!root["totals"]["saturated"].get(saturated))
    b.planSaturated = saturated;
}

ir::Count planCount(const OpenedBundle &b) {
  return b.planSaturated ? ir::Count::saturatedCount() : ir::Count{*b.planTotal, !b.planEstimated};
}

std::string planText(const OpenedBundle &b) {
  if (!b.planTotal)
    return "no plan data";
  return planCount(b).str() + " instances (plan.json)";
}

std::string pad(std::string s, size_t w) {
  if (s.size() < w)
    s.append(w - s.size(), ' ');
  return s;
}

std::atomic<unsigned> tmpCounter{0};

// Opens (creating) the folder `name` below `parent` without following a
// symbolic link; -1 with errno on failure.
int openDirBelow(int parent, const std::string &name) {
  if (::mkdirat(parent, name.c_str(), 0755) != 0 && errno != EEXIST)
    return -1;
  return ::openat(parent, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

// Whether `rel` can be written below `root` as writeBelow() will: every
// folder on its way that exists is a real folder (not a symbolic link, not
// a file) and the file itself is not a folder. Checked for every entry
// before any is written, so a refusal leaves the folder as it was.
llvm::Error checkBelow(int root, const std::string &dir, const std::string &rel, const Entry &e) {
  auto refuse = [&](const std::string &what) {
    return fail("cannot extract \"" + e.name + "\" into \"" + dir + "\": " + what);
  };
  int fd = ::dup(root);
  size_t start = 0;
  for (size_t slash; fd >= 0 && (slash = rel.find('/', start)) != std::string::npos;
       start = slash + 1) {
    std::string name = rel.substr(start, slash - start);
    struct stat st {};
    if (::fstatat(fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      ::close(fd);
      return llvm::Error::success(); // made fresh from here on
    }
    if (!S_ISDIR(st.st_mode)) {
      ::close(fd);
      return refuse("\"" + rel.substr(0, slash) + "\" exists and is " +
                    (S_ISLNK(st.st_mode) ? "a symbolic link" : "not a folder"));
    }
    int next = ::openat(fd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    ::close(fd);
    fd = next;
  }
  if (fd < 0)
    return refuse(std::string("open: ") + std::strerror(errno));
  struct stat st {};
  bool isDir = ::fstatat(fd, rel.substr(start).c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
               S_ISDIR(st.st_mode);
  ::close(fd);
  if (isDir)
    return refuse("\"" + rel + "\" exists and is a folder");
  return llvm::Error::success();
}

llvm::Error writeBelow(int root, const std::string &dir, const std::string &rel, const Entry &e) {
  auto err = [&](const std::string &what) {
    return fail("cannot extract \"" + e.name + "\" into \"" + dir + "\": " + what + ": " +
                std::strerror(errno));
  };
  int fd = ::dup(root);
  if (fd < 0)
    return err("dup");
  size_t start = 0;
  for (size_t slash; (slash = rel.find('/', start)) != std::string::npos; start = slash + 1) {
    int next = openDirBelow(fd, rel.substr(start, slash - start));
    ::close(fd);
    if (next < 0)
      return err("folder \"" + rel.substr(0, slash) + "\"");
    fd = next;
  }
  std::string leaf = rel.substr(start);
  std::string tmp =
      ".fbc-extract-" + std::to_string(::getpid()) + "-" + std::to_string(tmpCounter.fetch_add(1));
  int out = ::openat(fd, tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                     e.mode & 0777);
  if (out < 0) {
    llvm::Error e2 = err("create");
    ::close(fd);
    return e2;
  }
  size_t done = 0;
  bool ok = true;
  while (done < e.data.size()) {
    ssize_t n = ::write(out, e.data.data() + done, e.data.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      ok = false;
      break;
    }
    done += size_t(n);
  }
  ok = (::close(out) == 0) && ok;
  // rename(2) replaces the directory entry: a symlink or hard link that was
  // there is replaced, never written through.
  if (!ok || ::renameat(fd, tmp.c_str(), fd, leaf.c_str()) != 0) {
    llvm::Error e2 = err("write");
    ::unlinkat(fd, tmp.c_str(), 0);
    ::close(fd);
    return e2;
  }
  ::close(fd);
  return llvm::Error::success();
}

} // namespace

llvm::Expected<OpenedBundle> openBundle(const std::string &path, const ReadLimits &limits) {
  llvm::Expected<Contents> c = readBundle(path, limits);
  if (!c)
    return c.takeError();
  OpenedBundle b;
  b.path = path;
  b.contents = std::move(*c);
  const Entry *m = b.contents.find("manifest.json");
  if (!m)
    return fail("bundle \"" + path + "\" has no manifest.json (not a run bundle?)");
  llvm::Expected<Manifest> manifest = parseManifest(m->data);
  if (!manifest)
    return fail("bundle \"" + path + "\": " + llvm::toString(manifest.takeError()));
  b.manifest = std::move(*manifest);
  if (const Entry *env = b.contents.find("env.json")) {
    llvm::Expected<Env> parsed = parseEnv(env->data);
    if (!parsed)
      return fail("bundle \"" + path + "\": " + llvm::toString(parsed.takeError()));
    b.env = std::move(*parsed);
  }
  if (const Entry *plan = b.contents.find("plan.json")) {
    std::string problem;
    readPlanTotals(*plan, b, problem);
    if (!problem.empty())
      return fail("bundle \"" + path + "\": " + problem);
  }
  return b;
}

std::string formatInspectText(const OpenedBundle &b) {
  const Manifest &m = b.manifest;
  std::string out;
  auto line = [&](const char *label, const std::string &value) {
    out += pad(label, 14) + value + "\n";
  };
  line("Bundle:", b.path);
  line("Format:", b.contents.legacy ? "tar + gzip (a legacy faultbox bundle)" : "tar + zstd");
  std::string producer = m.producer + " " + m.version;
  if (b.env && !b.env->fbcCommit.empty())
    producer += " (" + b.env->fbcCommit + ")";
  line("Produced by:", producer);
  line("Run ID:", m.runId);
  line("Created:", m.createdAt);
  line("Seed:", std::to_string(m.seed));
  line("Spec:", m.specRoot + (m.specEntry.empty() ? "" : " (snapshot: " + m.specEntry + ")"));
  if (b.env && (!b.env->os.empty() || !b.env->arch.empty()))
    line("Host:", b.env->os + "/" + b.env->arch +
                      (b.env->kernel.empty() ? "" : ", kernel " + b.env->kernel));
  line("Plan:", planText(b));
  if (m.interrupted)
    line("Interrupted:", "yes, " + std::to_string(m.summary.notRun) + " not run");
  const Summary &s = m.summary;
  out += "\nTests: " + std::to_string(s.total) + " total, " +
         rt::passedCount(s.passed, s.faultBypassed) + ", " + std::to_string(s.failed) +
         " failed, " + std::to_string(s.errored) + " errored, " + std::to_string(s.inconclusive) +
         " inconclusive, " + std::to_string(s.halted) + " halted" +
         (s.notRun ? ", " + std::to_string(s.notRun) + " not run" : "") + "\n";
  for (const TestRow &t : m.tests)
    out += "  " + pad(t.outcome, 22) + t.displayName() + " (" + std::to_string(t.durationMs) +
           "ms)" + (t.code.empty() ? "" : "  [" + t.code + "]") + "\n";
  if (!m.mergedFrom.empty()) {
    // fbc merge: which shards, and what of the plan none of them ran.
    out += "\nMerged from " + std::to_string(m.mergedFrom.size()) + " bundles:";
    for (const auto &[bundle, runId] : m.mergedFrom)
      out += " " + bundle;
    out += "\nNot run by any shard: " + std::to_string(m.notRunLeaves.size()) + "\n";
    for (const std::string &leaf : m.notRunLeaves)
      out += "  " + leaf + "\n";
  }
  out += "\nFiles:\n";
  size_t w = 0;
  for (const Entry &e : b.contents.entries)
    w = std::max(w, e.name.size());
  for (const Entry &e : b.contents.entries)
    out += "  " + pad(e.name, w + 2) + std::to_string(e.data.size()) + " bytes" +
           (e.mode & 0111 ? ", executable" : "") + "\n";
  return out;
}

std::string formatInspectJson(const OpenedBundle &b) {
  const Manifest &m = b.manifest;
  std::string out;
  ir::JsonWriter w(out, 2);
  w.beginObject();
  w.field("bundle", b.path);
  w.field("format", b.contents.legacy ? "tar+gzip" : "tar+zstd");
  w.field("legacy", b.contents.legacy);
  w.field("producer", m.producer);
  w.field("version", m.version);
  w.field("commit", b.env ? b.env->fbcCommit : "");
  w.field("run_id", m.runId);
  w.field("created_at", m.createdAt);
  w.field("seed", m.seed);
  w.field("spec_root", m.specRoot);
  w.field("spec_entry", m.specEntry);
  w.key("host");
  if (b.env) {
    w.beginObject();
    w.field("os", b.env->os);
    w.field("arch", b.env->arch);
    w.field("kernel", b.env->kernel);
    w.endObject();
  } else {
    w.null();
  }
  w.key("plan");
  if (b.planTotal) {
    w.beginObject();
    w.field("instances", *b.planTotal);
    w.field("estimated", b.planEstimated);
    if (b.planSaturated)
      w.field("saturated", true);
    w.endObject();
  } else {
    w.null();
  }
  w.field("interrupted", m.interrupted);
  writeSummary(w, m.summary);
  w.key("tests").beginArray();
  for (const TestRow &t : m.tests) {
    w.beginObject();
    w.field("name", t.name);
    w.field("display_name", t.displayName());
    w.field("outcome", t.outcome);
    w.field("duration_ms", t.durationMs);
    if (t.leafId)
      w.field("leaf_id", *t.leafId);
    if (!t.code.empty())
      w.field("code", t.code);
    w.endObject();
  }
  w.endArray();
  w.key("files").beginArray();
  for (const Entry &e : b.contents.entries) {
    w.beginObject();
    w.field("name", e.name);
    w.field("bytes", uint64_t(e.data.size()));
    w.field("executable", bool(e.mode & 0111));
    w.endObject();
  }
  w.endArray();
  w.endObject();
  out += '\n';
  return out;
}

llvm::Expected<size_t> extractEntries(const Contents &c, const std::string &dir,
                                      std::string_view prefix) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return fail("cannot create \"" + dir + "\": " + ec.message());
  int root = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (root < 0)
    return fail("cannot open \"" + dir + "\": " + std::strerror(errno));
  std::vector<std::pair<const Entry *, std::string>> todo;
  for (const Entry &e : c.entries) {
    if (e.name.compare(0, prefix.size(), prefix) != 0 || e.name.size() == prefix.size())
      continue;
    std::string rel = e.name.substr(prefix.size());
    // The reader already refused unsafe names; a Contents built elsewhere
    // is checked again here.
    std::string why;
    if (!isSafeEntryName(rel, why)) {
      ::close(root);
      return fail("cannot extract \"" + e.name + "\": " + why);
    }
    if (llvm::Error err = checkBelow(root, dir, rel, e)) {
      ::close(root);
      return err;
    }
    todo.emplace_back(&e, std::move(rel));
  }
  for (const auto &[e, rel] : todo)
    if (llvm::Error err = writeBelow(root, dir, rel, *e)) {
      ::close(root);
      return err;
    }
  ::close(root);
  return todo.size();
}

} // namespace fbc::bundle
