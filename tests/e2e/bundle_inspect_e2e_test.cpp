// fbc inspect end to end (docs/bundle.md): the reference tool's legacy
// tar.gz layout, a real run's summary, and hostile bundles (path escapes,
// links, devices, oversized, truncated and corrupted archives, a manifest
// naming no spec file) refused by inspect, --extract and replay without a
// write outside the extraction folder. Helpers shared with the other bundle
// e2e tests: bundle_e2e_util.h.

#include "bundle/archive.h"
#include "tests/e2e/bundle_e2e_util.h"
#include "tests/e2e/fbc_run.h"

#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>
#include <re2/re2.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace fbc::rt::e2e {
namespace {

// ------------------------------------------------------------ fbc inspect

// A bundle as the reference tool writes it (tar.gz, no plan.json, manifest
// without a trailing newline, faultbox_version, leaf rows with leaf_* maps).
std::string legacyBundle() {
  std::vector<bundle::Entry> e = {
      {"manifest.json",
       R"({
  "schema_version": 1,
  "faultbox_version": "0.18.1",
  "run_id": "0123456789abcdef0123456789abcdef",
  "created_at": "2026-04-22T15:03:11Z",
  "seed": 42,
  "spec_root": "faultbox/spec.star",
  "tests": [
    {
      "name": "test_ok",
      "outcome": "passed",
      "duration_ms": 5,
      "seed": 42
    },
    {
      "name": "test_retry",
      "outcome": "failed",
      "duration_ms": 7,
      "seed": 42,
      "leaf_id": "1",
      "leaf_choices": {
        "retries": 1
      },
      "leaf_probability_outcomes": {
        "wal": [true, false]
      }
    }
  ],
  "summary": {
    "total": 2,
    "passed": 1,
    "failed": 1,
    "errored": 0
  }
})",
       0644},
      {"env.json",
       R"({"faultbox_version": "0.18.1", "host_os": "linux", "host_arch": "amd64", "kernel": "6.1.0", "go_toolchain": "go1.26.1"})",
       0644},
      {"trace.json", "{\"version\": 2, \"tests\": []}\n", 0644},
      {"replay.sh",
       "#!/usr/bin/env sh\nset -eu\nDIR=\"$(CDPATH= cd -- \"$(dirname -- \"$0\")\" && "
       "pwd)\"\nexec faultbox replay \"$DIR/run-2026-04-22T15-03-11-42.fb\" \"$@\"\n",
       0755},
      {"spec/spec.star", "def test_ok():\n    pass\n", 0644},
  };
  llvm::Expected<std::string> bytes = bundle::encodeArchive(e, {bundle::Compression::Gzip, 6});
  EXPECT_TRUE(bool(bytes));
  return bytes ? *bytes : "";
}

TEST(FbcInspect, LegacyGzipBundleInspectsWithNoPlanData) {
  TempDir dir;
  writeFile(dir.file("old.fb"), legacyBundle());
  ASSERT_EQ(legacyBundle().substr(0, 2), "\x1f\x8b"); // gzip
  FbcRun text = runFbc({"inspect", "old.fb"}, dir.path());
  EXPECT_EQ(text.exit, 0) << text.err;
  checkGolden("inspect_legacy", text.out);
  FbcRun json = runFbc({"inspect", "old.fb", "--format=json"}, dir.path());
  EXPECT_EQ(json.exit, 0) << json.err;
  checkGolden("inspect_legacy", json.out, ".json");
  FbcRun one = runFbc({"inspect", "old.fb", "spec/spec.star"}, dir.path());
  EXPECT_EQ(one.out, "def test_ok():\n    pass\n");
  FbcRun missing = runFbc({"inspect", "old.fb", "plan.json"}, dir.path());
  EXPECT_EQ(missing.exit, 1);
  EXPECT_EQ(missing.err, "fbc inspect: error: bundle \"old.fb\" has no entry \"plan.json\" "
                         "(entries: manifest.json, env.json, trace.json, replay.sh, "
                         "spec/spec.star)\n");
  FbcRun ex = runFbc({"inspect", "old.fb", "--extract", "x"}, dir.path());
  EXPECT_EQ(ex.exit, 0) << ex.err;
  EXPECT_EQ(ex.err, "Extracted 5 files to x\n");
  EXPECT_EQ(readFile(dir.file("x/spec/spec.star")), "def test_ok():\n    pass\n");
  struct stat st {};
  ASSERT_EQ(stat(dir.file("x/replay.sh").c_str(), &st), 0);
  EXPECT_TRUE(st.st_mode & S_IXUSR);
}

TEST(FbcInspect, RealBundleSummary) {
  Spec spec("faults");
  FbcRun r = runFbc(
      {"run", spec.path, "--seed", "1", "--test", "~happy|expected_failure", "--bundle", "run.fb"},
      spec.dir.path());
  FbcRun text = runFbc({"inspect", "run.fb"}, spec.dir.path());
  EXPECT_EQ(text.exit, 0) << text.err;
  std::string s = text.out;
  RE2::GlobalReplace(&s, R"((?m)^(Produced by:  fbc )\S+ \(\S+\)$)", R"(\1V (C))");
  RE2::GlobalReplace(&s, R"((?m)^(Run ID:       )[0-9a-f]{32}$)", R"(\1R)");
  RE2::GlobalReplace(&s, R"((?m)^(Created:      ).*$)", R"(\1T)");
  RE2::GlobalReplace(&s, R"((?m)^(Host:         ).*$)", R"(\1H)");
  RE2::GlobalReplace(&s, R"(\(\d+ms\))", "(Nms)");
  RE2::GlobalReplace(
      &s, R"((?m)^(  (trace\.json|junit\.xml|services/\S+|manifest\.json|env\.json) +)\d+ bytes$)",
      R"(\1N bytes)");
  // The snapshot holds the spec as run, whose fixture paths are as long as the
  // checkout's path: its size is the prepared spec's own, then masked.
  std::string snapshot = "  spec/spec.star       " +
                         std::to_string(readFile(spec.dir.file("spec.star")).size()) + " bytes\n";
  EXPECT_NE(s.find(snapshot), std::string::npos) << s;
  RE2::GlobalReplace(&s, R"((?m)^(  spec/spec\.star +)\d+ bytes$)", R"(\1N bytes)");
  checkGolden("inspect_faults", s);
}

// ------------------------------------------------------------ hostile bundles

struct Raw {
  std::string name;
  std::string data = {};
  mode_t type = AE_IFREG;
  std::string link = {};
  bool hardlink = false;
  int64_t size = -1; // claimed size (-1: data's)
};

la_ssize_t appendCb(archive *, void *client, const void *buf, size_t n) {
  static_cast<std::string *>(client)->append(static_cast<const char *>(buf), n);
  return la_ssize_t(n);
}

// An archive with exactly these entries, unchecked: what an attacker writes.
std::string rawBundle(const std::vector<Raw> &entries) {
  archive *a = archive_write_new();
  archive_write_add_filter_zstd(a);
  archive_write_set_format_pax_restricted(a);
  archive_write_set_bytes_in_last_block(a, 1);
  std::string out;
  archive_write_open2(a, &out, nullptr, appendCb, nullptr, nullptr);
  for (const Raw &r : entries) {
    archive_entry *e = archive_entry_new();
    archive_entry_set_pathname(e, r.name.c_str());
    archive_entry_set_filetype(e, r.type);
    archive_entry_set_perm(e, 0644);
    if (!r.link.empty()) {
      if (r.hardlink)
        archive_entry_set_hardlink(e, r.link.c_str());
      else
        archive_entry_set_symlink(e, r.link.c_str());
    }
    archive_entry_set_size(e, r.size >= 0 ? r.size : la_int64_t(r.data.size()));
    archive_write_header(a, e);
    if (!r.data.empty())
      archive_write_data(a, r.data.data(), r.data.size());
    archive_entry_free(e);
  }
  archive_write_close(a);
  archive_write_free(a);
  return out;
}

// `fbc inspect`, `fbc inspect --extract` and `fbc replay` all refuse it with
// `message`, and nothing is written anywhere but into the scratch folder's
// (empty) extraction folder.
// `extract`: false for a well-formed archive that is not a run bundle (no
// or an unreadable manifest): its entries can still be extracted.
void expectRefused(const std::string &bytes, const std::string &message, bool extract = true) {
  TempDir dir;
  writeFile(dir.file("bad.fb"), bytes);
  std::string want = "error: " + message + "\n";
  if (extract) {
    FbcRun ex = runFbc({"inspect", "bad.fb", "--extract", "out/x"}, dir.path());
    EXPECT_EQ(ex.exit, 1);
    EXPECT_EQ(ex.err, "fbc inspect: " + want);
  }
  FbcRun sum = runFbc({"inspect", "bad.fb"}, dir.path());
  EXPECT_EQ(sum.exit, 1);
  EXPECT_EQ(sum.err, "fbc inspect: " + want);
  FbcRun rep = runFbc({"replay", "bad.fb", "--no-bundle"}, dir.path());
  EXPECT_EQ(rep.exit, 1);
  EXPECT_EQ(rep.err, "fbc replay: " + want);
  std::string ls;
  FILE *p = popen(("cd '" + dir.path() + "' && find . | sort").c_str(), "r");
  char buf[512];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;)
    ls.append(buf, n);
  pclose(p);
  EXPECT_EQ(ls, ".\n./bad.fb\n") << message;
  EXPECT_FALSE(exists("/tmp/escape.txt"));
}

TEST(FbcInspect, HostileBundlesAreRefused) {
  std::string m = R"({"schema_version": 1, "tests": []})";
  expectRefused(rawBundle({{"manifest.json", m}, {"../escape.txt", "x"}}),
                "bundle \"bad.fb\": entry \"../escape.txt\": \"..\" component (a bundle entry "
                "may not leave its folder)");
  expectRefused(rawBundle({{"manifest.json", m}, {"spec/../../escape.txt", "x"}}),
                "bundle \"bad.fb\": entry \"spec/../../escape.txt\": \"..\" component (a bundle "
                "entry may not leave its folder)");
  expectRefused(rawBundle({{"/tmp/escape.txt", "x"}, {"manifest.json", m}}),
                "bundle \"bad.fb\": entry \"/tmp/escape.txt\": absolute path (a bundle entry "
                "must be relative)");
  expectRefused(rawBundle({{"manifest.json", m}, {"spec", "", AE_IFLNK, "/tmp"}}),
                "bundle \"bad.fb\": entry \"spec\" is a symbolic link (a bundle holds only "
                "regular files)");
  expectRefused(
      rawBundle({{"manifest.json", m}, {"env.json", "", AE_IFREG, "manifest.json", true}}),
      "bundle \"bad.fb\": entry \"env.json\" is a hard link to \"manifest.json\" (a "
      "bundle holds only regular files)");
  expectRefused(rawBundle({{"manifest.json", m}, {"null", "", AE_IFCHR}}),
                "bundle \"bad.fb\": entry \"null\" is a character device (a bundle holds only "
                "regular files)");
  expectRefused(rawBundle({{"manifest.json", m}, {"disk", "", AE_IFBLK}}),
                "bundle \"bad.fb\": entry \"disk\" is a block device (a bundle holds only regular "
                "files)");
  expectRefused(rawBundle({{"manifest.json", m}, {"manifest.json", m}}),
                "bundle \"bad.fb\": entry \"manifest.json\" appears twice");
  // 300 MiB of zeros (a few kB compressed) against the 256 MiB entry limit.
  expectRefused(
      rawBundle({{"manifest.json", m}, {"trace.json", "", AE_IFREG, "", false, 300 << 20}}),
      "bundle \"bad.fb\": entry \"trace.json\" is larger than the limit of 268435456 "
      "bytes");
  // Incompressible data, so half the file ends inside the entry.
  std::string noise;
  for (uint32_t x = 1; noise.size() < 1000000;) {
    x = x * 1103515245u + 12345u;
    noise += static_cast<char>(x >> 23);
  }
  std::string good = rawBundle({{"manifest.json", m}, {"spec/x.star", noise}});
  expectRefused(good.substr(0, good.size() / 2),
                "bundle \"bad.fb\": entry \"spec/x.star\": corrupted or truncated archive: "
                "Truncated zstd input");
  // A byte flipped in a bundle fbc wrote: a zstd error or, inside an
  // entry's data, the SHA-256 manifest.json lists.
  {
    Spec spec("ops");
    FbcRun r = runFbc({"run", spec.path, "--seed", "1", "--bundle", "ok.fb"}, spec.dir.path());
    std::string bytes = readFile(spec.dir.file("ok.fb"));
    for (size_t at : {bytes.size() / 3, bytes.size() / 2, bytes.size() * 3 / 4}) {
      std::string flipped = bytes;
      flipped[at] ^= 0x5a;
      writeFile(spec.dir.file("bad.fb"), flipped);
      FbcRun bad = runFbc({"inspect", "bad.fb", "--extract", "out"}, spec.dir.path());
      EXPECT_EQ(bad.exit, 1) << at;
      EXPECT_TRUE(RE2::FullMatch(bad.err, R"(fbc inspect: error: bundle "bad.fb": .*\n)"))
          << bad.err;
      EXPECT_FALSE(exists(spec.dir.file("out"))) << at;
    }
  }
  expectRefused("", "bundle \"bad.fb\": not a bundle: empty file");
  expectRefused("just some text, not an archive at all\n",
                "bundle \"bad.fb\": not a bundle: Unrecognized archive format");
  expectRefused(rawBundle({{"spec/x.star", "x"}}),
                "bundle \"bad.fb\" has no manifest.json (not a run bundle?)", false);
  expectRefused(rawBundle({{"manifest.json", R"({"schema_version": 2})"}}),
                "bundle \"bad.fb\": manifest.json: schema_version 2 is not one this fbc reads (it "
                "reads 1)",
                false);
}

TEST(FbcInspect, ExtractionNeverFollowsLinksAlreadyInTheFolder) {
  TempDir dir;
  writeFile(dir.file("ok.fb"), legacyBundle());
  mkdir(dir.file("outside").c_str(), 0755);
  writeFile(dir.file("victim.txt"), "untouched\n");
  mkdir(dir.file("x").c_str(), 0755);
  ASSERT_EQ(symlink("../victim.txt", dir.file("x/manifest.json").c_str()), 0);
  ASSERT_EQ(symlink("../outside", dir.file("x/spec").c_str()), 0);
  FbcRun r = runFbc({"inspect", "ok.fb", "--extract", "x"}, dir.path());
  EXPECT_EQ(r.exit, 1);
  EXPECT_EQ(r.err, "fbc inspect: error: cannot extract \"spec/spec.star\" into \"x\": \"spec\" "
                   "exists and is a symbolic link\n");
  EXPECT_EQ(readFile(dir.file("victim.txt")), "untouched\n");
  EXPECT_FALSE(exists(dir.file("outside/spec.star")));
  // Refused before anything was written: manifest.json (before spec/) is
  // still the link it was.
  struct stat st {};
  ASSERT_EQ(lstat(dir.file("x/manifest.json").c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
  // Without the folder link, manifest.json replaces its link instead of
  // writing through it.
  ASSERT_EQ(unlink(dir.file("x/spec").c_str()), 0);
  r = runFbc({"inspect", "ok.fb", "--extract", "x"}, dir.path());
  EXPECT_EQ(r.exit, 0) << r.err;
  EXPECT_EQ(readFile(dir.file("victim.txt")), "untouched\n");
  ASSERT_EQ(lstat(dir.file("x/manifest.json").c_str(), &st), 0);
  EXPECT_TRUE(S_ISREG(st.st_mode));
}

// A manifest whose spec_entry is not a file under spec/ (shorter than
// "spec/", or elsewhere) is an error, not an uncaught std::out_of_range.
TEST(FbcReplay, ManifestSpecEntryOutsideSpecIsAnError) {
  Spec spec("ops");
  FbcRun r = runFbc({"run", spec.path, "--seed", "1", "--bundle", "ok.fb"}, spec.dir.path());
  bundle::Contents c = readOk(spec.dir.file("ok.fb"));
  for (const char *entryName : {"x", "spec/", "trace.json"}) {
    SCOPED_TRACE(entryName);
    bundle::Contents bad = c;
    for (bundle::Entry &e : bad.entries)
      if (e.name == "manifest.json") {
        std::string from = "\"spec_entry\": \"spec/spec.star\"";
        size_t at = e.data.find(from);
        ASSERT_NE(at, std::string::npos) << e.data;
        e.data.replace(at, from.size(), "\"spec_entry\": \"" + std::string(entryName) + "\"");
      }
    llvm::Expected<std::string> bytes = bundle::encodeArchive(bad.entries);
    ASSERT_TRUE(bool(bytes));
    writeFile(spec.dir.file("bad.fb"), *bytes);
    FbcRun replay = runFbc({"replay", "bad.fb"}, spec.dir.path());
    EXPECT_EQ(replay.exit, 1) << replay.err;
    EXPECT_EQ(replay.err, "fbc replay: error: bundle \"bad.fb\": manifest spec_entry \"" +
                              std::string(entryName) + "\" names no file under spec/\n");
  }
}

} // namespace
} // namespace fbc::rt::e2e
