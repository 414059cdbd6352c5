// bundle/archive: round trip, fixed order, same entries → same bytes, and
// every hostile archive readBundle must refuse (built here with libarchive's
// raw API, which writes whatever it is told).
#include "bundle/archive.h"

#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <sys/sysmacros.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace fbc::bundle {
namespace {

struct RawEntry {
  std::string name;
  std::string data;
  mode_t type = AE_IFREG;
  std::string link = {};     // symlink target
  std::string hardlink = {}; // hard link target
};

la_ssize_t appendCb(archive *, void *client, const void *buf, size_t n) {
  static_cast<std::string *>(client)->append(static_cast<const char *>(buf), n);
  return la_ssize_t(n);
}

// An archive exactly as listed, no checks: what an attacker can produce.
std::string rawArchive(const std::vector<RawEntry> &entries, bool gzip = false,
                       bool compress = true) {
  archive *a = archive_write_new();
  if (compress) {
    if (gzip)
      archive_write_add_filter_gzip(a);
    else
      archive_write_add_filter_zstd(a);
  }
  archive_write_set_format_pax_restricted(a);
  archive_write_set_bytes_in_last_block(a, 1);
  std::string out;
  archive_write_open2(a, &out, nullptr, appendCb, nullptr, nullptr);
  for (const RawEntry &r : entries) {
    archive_entry *e = archive_entry_new();
    archive_entry_set_pathname(e, r.name.c_str());
    archive_entry_set_filetype(e, r.type);
    archive_entry_set_perm(e, 0644);
    if (!r.link.empty())
      archive_entry_set_symlink(e, r.link.c_str());
    if (!r.hardlink.empty())
      archive_entry_set_hardlink(e, r.hardlink.c_str());
    if (r.type == AE_IFCHR)
      archive_entry_set_rdev(e, makedev(1, 3));
    archive_entry_set_size(e, r.type == AE_IFREG ? la_int64_t(r.data.size()) : 0);
    archive_write_header(a, e);
    if (r.type == AE_IFREG && !r.data.empty())
      archive_write_data(a, r.data.data(), r.data.size());
    archive_entry_free(e);
  }
  archive_write_close(a);
  archive_write_free(a);
  return out;
}

std::string readError(const std::string &bytes, const ReadLimits &limits = {}) {
  llvm::Expected<Contents> c = readBundleBytes(bytes, "t.fb", limits);
  if (c)
    return "(no error)";
  return llvm::toString(c.takeError());
}

std::vector<Entry> sample() {
  return {{"spec/b.star", "b = 1\n", 0644},     {"replay.sh", "#!/bin/sh\n", 0755},
          {"services/db.stdout", "up\n", 0644}, {"manifest.json", "{}\n", 0644},
          {"spec/a.star", "a = 1\n", 0644},     {"trace.json", "{\"t\":1}\n", 0644},
          {"plan.json", "{}\n", 0644},          {"env.json", "{}\n", 0644},
          {"services/api.stderr", "", 0644}};
}

TEST(BundleArchive, SortEntriesGivesTheFixedOrder) {
  std::vector<Entry> e = sample();
  sortEntries(e);
  std::vector<std::string> names;
  for (const Entry &x : e)
    names.push_back(x.name);
  EXPECT_EQ(names, (std::vector<std::string>{"manifest.json", "env.json", "trace.json", "plan.json",
                                             "replay.sh", "services/api.stderr",
                                             "services/db.stdout", "spec/a.star", "spec/b.star"}));
}

TEST(BundleArchive, RoundTripKeepsOrderDataAndMode) {
  std::vector<Entry> e = sample();
  sortEntries(e);
  llvm::Expected<std::string> bytes = encodeArchive(e);
  ASSERT_TRUE(bool(bytes)) << llvm::toString(bytes.takeError());
  // zstd frame magic
  ASSERT_GE(bytes->size(), 4u);
  EXPECT_EQ(bytes->substr(0, 4), std::string("\x28\xb5\x2f\xfd", 4));
  llvm::Expected<Contents> c = readBundleBytes(*bytes, "t.fb");
  ASSERT_TRUE(bool(c)) << llvm::toString(c.takeError());
  EXPECT_FALSE(c->legacy);
  ASSERT_EQ(c->entries.size(), e.size());
  for (size_t i = 0; i < e.size(); ++i) {
    EXPECT_EQ(c->entries[i].name, e[i].name);
    EXPECT_EQ(c->entries[i].data, e[i].data);
    EXPECT_EQ(c->entries[i].mode, e[i].mode);
  }
  ASSERT_NE(c->find("replay.sh"), nullptr);
  EXPECT_EQ(c->find("replay.sh")->mode, 0755u);
  EXPECT_EQ(c->find("nope"), nullptr);
}

TEST(BundleArchive, SameEntriesGiveSameBytes) {
  std::vector<Entry> e = sample();
  sortEntries(e);
  llvm::Expected<std::string> a = encodeArchive(e);
  ASSERT_TRUE(bool(a));
  sleep(1); // a writer that stamped the time would now differ
  llvm::Expected<std::string> b = encodeArchive(e);
  ASSERT_TRUE(bool(b));
  EXPECT_EQ(*a, *b);
  llvm::Expected<std::string> g1 = encodeArchive(e, {Compression::Gzip, 6});
  ASSERT_TRUE(bool(g1));
  llvm::Expected<std::string> g2 = encodeArchive(e, {Compression::Gzip, 6});
  ASSERT_TRUE(bool(g2));
  EXPECT_EQ(*g1, *g2);
}

TEST(BundleArchive, LongAndNonAsciiNamesRoundTrip) {
  std::string longName = "spec/" + std::string(150, 'd') + "/" + std::string(120, 'f') + ".star";
  std::vector<Entry> e = {{"manifest.json", "{}"}, {longName, "x"}, {"spec/caf\xc3\xa9.star", "y"}};
  llvm::Expected<std::string> a = encodeArchive(e);
  ASSERT_TRUE(bool(a)) << llvm::toString(a.takeError());
  llvm::Expected<std::string> b = encodeArchive(e);
  ASSERT_TRUE(bool(b));
  EXPECT_EQ(*a, *b);
  llvm::Expected<Contents> c = readBundleBytes(*a, "t.fb");
  ASSERT_TRUE(bool(c)) << llvm::toString(c.takeError());
  ASSERT_EQ(c->entries.size(), 3u);
  EXPECT_EQ(c->entries[1].name, longName);
  EXPECT_EQ(c->entries[2].name, "spec/caf\xc3\xa9.star");
}

TEST(BundleArchive, WriterRefusesUnsafeAndDuplicateNames) {
  llvm::Expected<std::string> a = encodeArchive({{"../x", ""}});
  ASSERT_FALSE(bool(a));
  EXPECT_EQ(llvm::toString(a.takeError()),
            "bundle entry \"../x\": \"..\" component (a bundle entry may not leave its folder)");
  llvm::Expected<std::string> b = encodeArchive({{"a", ""}, {"a", ""}});
  ASSERT_FALSE(bool(b));
  EXPECT_EQ(llvm::toString(b.takeError()), "bundle entry \"a\" given twice");
}

TEST(BundleArchive, LegacyGzipIsReadAndMarked) {
  std::string bytes = rawArchive({{"manifest.json", "{}"}, {"spec/x.star", "x"}}, true);
  llvm::Expected<Contents> c = readBundleBytes(bytes, "old.fb");
  ASSERT_TRUE(bool(c)) << llvm::toString(c.takeError());
  EXPECT_TRUE(c->legacy);
  EXPECT_EQ(c->entries.size(), 2u);
}

TEST(BundleArchive, DirectoryEntriesAndDotSlashNamesAreAccepted) {
  std::string bytes = rawArchive({{"./", "", AE_IFDIR},
                                  {"./spec/", "", AE_IFDIR},
                                  {"./manifest.json", "{}"},
                                  {"./spec/x.star", "x"}},
                                 true);
  llvm::Expected<Contents> c = readBundleBytes(bytes, "old.fb");
  ASSERT_TRUE(bool(c)) << llvm::toString(c.takeError());
  ASSERT_EQ(c->entries.size(), 2u);
  EXPECT_EQ(c->entries[0].name, "manifest.json");
  EXPECT_EQ(c->entries[1].name, "spec/x.star");
}

TEST(BundleArchive, HostileNames) {
  EXPECT_EQ(readError(rawArchive({{"../escape.txt", "x"}})),
            "bundle \"t.fb\": entry \"../escape.txt\": \"..\" component (a bundle entry may not "
            "leave its folder)");
  EXPECT_EQ(readError(rawArchive({{"spec/../../x", "x"}})),
            "bundle \"t.fb\": entry \"spec/../../x\": \"..\" component (a bundle entry may not "
            "leave its folder)");
  EXPECT_EQ(readError(rawArchive({{"/etc/passwd", "x"}})),
            "bundle \"t.fb\": entry \"/etc/passwd\": absolute path (a bundle entry must be "
            "relative)");
  EXPECT_EQ(readError(rawArchive({{"spec//x", "x"}})),
            "bundle \"t.fb\": entry \"spec//x\": empty or \".\" path component");
  EXPECT_EQ(readError(rawArchive({{"a\nb", "x"}})),
            "bundle \"t.fb\": entry \"a\\x0ab\": control character or backslash in the name");
}

TEST(BundleArchive, HostileTypes) {
  EXPECT_EQ(readError(rawArchive({{"spec/link", "", AE_IFLNK, "/etc/passwd"}})),
            "bundle \"t.fb\": entry \"spec/link\" is a symbolic link (a bundle holds only "
            "regular files)");
  EXPECT_EQ(readError(rawArchive({{"a", "x"}, {"spec/h", "", AE_IFREG, "", "a"}})),
            "bundle \"t.fb\": entry \"spec/h\" is a hard link to \"a\" (a bundle holds only "
            "regular files)");
  EXPECT_EQ(readError(rawArchive({{"dev/null", "", AE_IFCHR}})),
            "bundle \"t.fb\": entry \"dev/null\" is a character device (a bundle holds only "
            "regular files)");
  EXPECT_EQ(readError(rawArchive({{"blk", "", AE_IFBLK}})),
            "bundle \"t.fb\": entry \"blk\" is a block device (a bundle holds only regular files)");
  EXPECT_EQ(readError(rawArchive({{"fifo", "", AE_IFIFO}})),
            "bundle \"t.fb\": entry \"fifo\" is a FIFO (a bundle holds only regular files)");
}

TEST(BundleArchive, DuplicateNames) {
  EXPECT_EQ(readError(rawArchive({{"manifest.json", "{}"}, {"manifest.json", "{\"evil\":1}"}})),
            "bundle \"t.fb\": entry \"manifest.json\" appears twice");
  EXPECT_EQ(readError(rawArchive({{"spec/x", "1"}, {"./spec/x", "2"}})),
            "bundle \"t.fb\": entry \"spec/x\" appears twice");
}

TEST(BundleArchive, Limits) {
  ReadLimits small;
  small.maxEntryBytes = 10;
  EXPECT_EQ(readError(rawArchive({{"big", std::string(11, 'x')}}), small),
            "bundle \"t.fb\": entry \"big\" is larger than the limit of 10 bytes");
  EXPECT_EQ(readError(rawArchive({{"ok", std::string(10, 'x')}}), small), "(no error)");
  ReadLimits total;
  total.maxTotalBytes = 15;
  EXPECT_EQ(
      readError(rawArchive({{"a", std::string(10, 'x')}, {"b", std::string(10, 'x')}}), total),
      "bundle \"t.fb\": entries add up to more than the limit of 15 bytes");
  ReadLimits few;
  few.maxEntries = 2;
  EXPECT_EQ(readError(rawArchive({{"a", ""}, {"b", ""}, {"c", ""}}), few),
            "bundle \"t.fb\": more than 2 entries");
}

TEST(BundleArchive, NotABundle) {
  EXPECT_EQ(readError(""), "bundle \"t.fb\": not a bundle: empty file");
  EXPECT_EQ(readError("hello, this is not an archive at all, just some text......"),
            "bundle \"t.fb\": not a bundle: Unrecognized archive format");
  EXPECT_EQ(readError(rawArchive({{"a", "x"}}, false, false)),
            "bundle \"t.fb\": not a bundle: an uncompressed archive (a .fb is tar + zstd)");
}

TEST(BundleArchive, TruncatedAndCorrupted) {
  std::vector<Entry> e = sample();
  sortEntries(e);
  e.push_back({"spec/big.star", std::string(200000, 'q')});
  llvm::Expected<std::string> bytes = encodeArchive(e);
  ASSERT_TRUE(bool(bytes));
  // Every cut must fail, never crash or read as a shorter valid bundle.
  for (size_t cut : {size_t(1), size_t(5), size_t(20), bytes->size() / 3, bytes->size() / 2,
                     bytes->size() - 10, bytes->size() - 1}) {
    std::string err = readError(bytes->substr(0, cut));
    EXPECT_NE(err, "(no error)") << "cut at " << cut;
  }
  std::string flipped = *bytes;
  flipped[flipped.size() / 2] ^= 0x55;
  EXPECT_NE(readError(flipped), "(no error)");
}

TEST(BundleArchive, ReadBundleFromFileAndAtomicWrite) {
  char dir[] = "/tmp/fbc-archive-test-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  std::string path = std::string(dir) + "/run.fb";
  std::vector<Entry> e = sample();
  sortEntries(e);
  llvm::Expected<std::string> bytes = encodeArchive(e);
  ASSERT_TRUE(bool(bytes));
  ASSERT_FALSE(bool(writeFileAtomic(path, *bytes)));
  llvm::Expected<Contents> c = readBundle(path);
  ASSERT_TRUE(bool(c)) << llvm::toString(c.takeError());
  EXPECT_EQ(c->entries.size(), e.size());
  llvm::Expected<Contents> missing = readBundle(std::string(dir) + "/nope.fb");
  ASSERT_FALSE(bool(missing));
  EXPECT_EQ(llvm::toString(missing.takeError()),
            "cannot open bundle \"" + std::string(dir) + "/nope.fb\": No such file or directory");
  llvm::Expected<Contents> isDir = readBundle(dir);
  ASSERT_FALSE(bool(isDir));
  EXPECT_EQ(llvm::toString(isDir.takeError()),
            "bundle \"" + std::string(dir) + "\": not a regular file");
  llvm::Error bad = writeFileAtomic(std::string(dir) + "/no/such/dir/x.fb", "x");
  ASSERT_TRUE(bool(bad));
  EXPECT_EQ(llvm::toString(std::move(bad)), "cannot write \"" + std::string(dir) +
                                                "/no/such/dir/x.fb\": No such file or directory");
  std::remove(path.c_str());
  rmdir(dir);
}

// A second SIGINT/SIGTERM while the bundle is being written: fbc exits at
// once, and abandonAtomicWrite() first removes the half-written temporary
// file (it was left as <bundle>.tmp-PID-N) and names the bundle not written.
TEST(BundleArchive, AnAbandonedAtomicWriteLeavesNothing) {
  char dir[] = "/tmp/fbc-archive-test-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  std::string path = std::string(dir) + "/run.fb";
  std::string big(512u << 20, 'x');
  std::atomic<bool> done{false};
  bool failed = false;
  std::thread writer([&] {
    llvm::Error e = writeFileAtomic(path, big);
    failed = bool(e);
    llvm::consumeError(std::move(e));
    done = true;
  });
  auto tmpFiles = [&] {
    std::vector<std::string> out;
    for (const auto &e : std::filesystem::directory_iterator(dir))
      if (e.path().filename().string().find(".tmp-") != std::string::npos)
        out.push_back(e.path().string());
    return out;
  };
  while (!done && tmpFiles().empty()) {
  }
  std::string abandoned = abandonAtomicWrite();
  writer.join();
  bool raced = abandoned.empty(); // the write finished before we looked
  if (!raced) {
    EXPECT_EQ(abandoned, path);
    EXPECT_TRUE(failed); // its rename found nothing to rename
  }
  EXPECT_TRUE(tmpFiles().empty());
  EXPECT_EQ(abandonAtomicWrite(), "");
  std::filesystem::remove_all(dir);
  if (raced)
    GTEST_SKIP() << "the write ended before it could be abandoned";
}

} // namespace
} // namespace fbc::bundle
