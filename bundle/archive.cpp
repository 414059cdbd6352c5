// libarchive does the tar, zstd and gzip work (docs/architecture.md says
// why); this file adds what a bundle needs on top: the name rules, the type
// and size limits, and deterministic entry metadata.
#include "bundle/archive.h"

#include "bundle/integrity.h"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <locale.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <memory>
#include <mutex>
#include <set>
#include <utility>
#include <vector>

namespace fbc::bundle {
namespace {

llvm::Error fail(const std::string &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

std::string quoted(std::string_view s) {
  // Names come from the archive: show control bytes, not raw terminal input.
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c < 0x20 || c == 0x7f || c == '"' || c == '\\') {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

struct ReadDeleter {
  void operator()(archive *a) const { archive_read_free(a); }
};
struct WriteDeleter {
  void operator()(archive *a) const { archive_write_free(a); }
};
using ReadArchive = std::unique_ptr<archive, ReadDeleter>;
using WriteArchive = std::unique_ptr<archive, WriteDeleter>;

std::string archiveError(archive *a) {
  const char *s = archive_error_string(a);
  return s && *s ? s : "unreadable archive";
}

const char *typeName(mode_t type) {
  switch (type) {
  case AE_IFLNK:
    return "a symbolic link";
  case AE_IFCHR:
    return "a character device";
  case AE_IFBLK:
    return "a block device";
  case AE_IFIFO:
    return "a FIFO";
  case AE_IFSOCK:
    return "a socket";
  default:
    return "not a regular file";
  }
}

// Entry names are UTF-8 whatever the process locale is. libarchive converts
// names through the locale's charset; under the C locale a non-ASCII name
// fails to convert (and the pax writer then crashes on the missing name).
// uselocale() switches this thread only, for the guard's lifetime.
class Utf8Locale {
public:
  Utf8Locale() : loc_(newlocale(LC_CTYPE_MASK, "C.UTF-8", locale_t(0))) {
    if (loc_)
      old_ = uselocale(loc_);
  }
  ~Utf8Locale() {
    if (loc_) {
      uselocale(old_);
      freelocale(loc_);
    }
  }
  Utf8Locale(const Utf8Locale &) = delete;
  Utf8Locale &operator=(const Utf8Locale &) = delete;

private:
  locale_t loc_;
  locale_t old_ = locale_t(0);
};

// Reads every entry of an opened archive; `where` prefixes errors.
llvm::Expected<Contents> readEntries(archive *a, const std::string &where,
                                     const ReadLimits &limits) {
  Contents out;
  std::set<std::string, std::less<>> seen;
  uint64_t total = 0;
  size_t count = 0;
  for (;;) {
    archive_entry *e = nullptr;
    int r = archive_read_next_header(a, &e);
    if (r == ARCHIVE_EOF)
      break;
    if (r != ARCHIVE_OK && r != ARCHIVE_WARN)
      return fail(where + ": corrupted or truncated archive: " + archiveError(a));
    if (++count > limits.maxEntries)
      return fail(where + ": more than " + std::to_string(limits.maxEntries) + " entries");
    // Names are UTF-8 (pax "path") whatever the process locale is.
    const char *raw = archive_entry_pathname_utf8(e);
    if (!raw)
      raw = archive_entry_pathname(e);
    if (!raw)
      return fail(where + ": an entry has no readable name");
    std::string name = raw;
    mode_t type = archive_entry_filetype(e);
    // `tar -C dir -czf x .` writes "./name" and "dir/" forms; both mean the
    // same relative path.
    while (name.rfind("./", 0) == 0)
      name.erase(0, 2);
    if (type == AE_IFDIR)
      while (!name.empty() && name.back() == '/')
        name.pop_back();
    if (type == AE_IFDIR && name.empty())
      continue; // "./" itself
    std::string why;
    if (!isSafeEntryName(name, why))
      return fail(where + ": entry " + quoted(raw) + ": " + why);
    if (archive_entry_hardlink(e))
      return fail(where + ": entry " + quoted(name) + " is a hard link to " +
                  quoted(archive_entry_hardlink(e)) + " (a bundle holds only regular files)");
    if (type == AE_IFDIR)
      continue;
    if (type != AE_IFREG)
      return fail(where + ": entry " + quoted(name) + " is " + typeName(type) +
                  " (a bundle holds only regular files)");
    if (!seen.insert(name).second)
      return fail(where + ": entry " + quoted(name) + " appears twice");
    auto tooBig = [&] {
      return fail(where + ": entry " + quoted(name) + " is larger than the limit of " +
                  std::to_string(limits.maxEntryBytes) + " bytes");
    };
    if (archive_entry_size_is_set(e) && archive_entry_size(e) > 0 &&
        uint64_t(archive_entry_size(e)) > limits.maxEntryBytes)
      return tooBig();
    Entry entry;
    entry.name = name;
    entry.mode = (archive_entry_perm(e) & 0111) ? 0755 : 0644;
    char buf[64 * 1024];
    for (;;) {
      la_ssize_t n = archive_read_data(a, buf, sizeof buf);
      if (n == 0)
        break;
      if (n < 0)
        return fail(where + ": entry " + quoted(name) +
                    ": corrupted or truncated archive: " + archiveError(a));
      if (entry.data.size() + size_t(n) > limits.maxEntryBytes)
        return tooBig();
      total += uint64_t(n);
      if (total > limits.maxTotalBytes)
        return fail(where + ": entries add up to more than the limit of " +
                    std::to_string(limits.maxTotalBytes) + " bytes");
      entry.data.append(buf, size_t(n));
    }
    out.entries.push_back(std::move(entry));
  }
  // Which filters the archive went through: zstd is a .fb, gzip the
  // reference tool's layout; a bare tar is neither.
  bool zstd = false, gzip = false;
  for (int i = 0; i < archive_filter_count(a); ++i) {
    zstd |= archive_filter_code(a, i) == ARCHIVE_FILTER_ZSTD;
    gzip |= archive_filter_code(a, i) == ARCHIVE_FILTER_GZIP;
  }
  if (!zstd && !gzip)
    return fail(where + ": not a bundle: an uncompressed archive (a .fb is tar + zstd)");
  out.legacy = gzip;
  if (llvm::Error err = checkIntegrity(out, where))
    return err;
  return out;
}

ReadArchive newReader() {
  ReadArchive a(archive_read_new());
  archive_read_support_filter_zstd(a.get());
  archive_read_support_filter_gzip(a.get());
  archive_read_support_format_tar(a.get());
  return a;
}

int rank(std::string_view name) {
  static const char *const fixed[] = {"manifest.json", "env.json",  "trace.json",
                                      "plan.json",     "junit.xml", "replay.sh"};
  for (int i = 0; i < 6; ++i)
    if (name == fixed[i])
      return i;
  if (name.rfind("services/", 0) == 0)
    return 6;
  if (name.rfind("spec/", 0) == 0)
    return 7;
  return 8;
}

la_ssize_t appendCallback(archive *, void *client, const void *buf, size_t n) {
  static_cast<std::string *>(client)->append(static_cast<const char *>(buf), n);
  return la_ssize_t(n);
}

} // namespace

const Entry *Contents::find(std::string_view name) const {
  for (const Entry &e : entries)
    if (e.name == name)
      return &e;
  return nullptr;
}

bool isSafeEntryName(std::string_view name, std::string &why) {
  if (name.empty()) {
    why = "empty name";
    return false;
  }
  if (name.front() == '/') {
    why = "absolute path (a bundle entry must be relative)";
    return false;
  }
  for (unsigned char c : name)
    if (c < 0x20 || c == 0x7f || c == '\\') {
      why = "control character or backslash in the name";
      return false;
    }
  size_t start = 0;
  while (start <= name.size()) {
    size_t end = name.find('/', start);
    if (end == std::string_view::npos)
      end = name.size();
    std::string_view part = name.substr(start, end - start);
    if (part == "..") {
      why = "\"..\" component (a bundle entry may not leave its folder)";
      return false;
    }
    if (part.empty() || part == ".") {
      why = "empty or \".\" path component";
      return false;
    }
    start = end + 1;
  }
  return true;
}

llvm::Expected<Contents> readBundle(const std::string &path, const ReadLimits &limits) {
  Utf8Locale utf8;
  std::string where = "bundle \"" + path + "\"";
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return fail("cannot open " + where + ": " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return fail(where + ": not a regular file");
  }
  if (st.st_size == 0) {
    ::close(fd);
    return fail(where + ": not a bundle: empty file");
  }
  ReadArchive a = newReader();
  if (archive_read_open_fd(a.get(), fd, 64 * 1024) != ARCHIVE_OK) {
    std::string msg = where + ": not a bundle: " + archiveError(a.get());
    a.reset();
    ::close(fd);
    return fail(msg);
  }
  llvm::Expected<Contents> out = readEntries(a.get(), where, limits);
  a.reset();
  ::close(fd);
  return out;
}

llvm::Expected<Contents> readBundleBytes(std::string_view bytes, const std::string &displayName,
                                         const ReadLimits &limits) {
  Utf8Locale utf8;
  std::string where = "bundle \"" + displayName + "\"";
  if (bytes.empty())
    return fail(where + ": not a bundle: empty file");
  ReadArchive a = newReader();
  if (archive_read_open_memory(a.get(), bytes.data(), bytes.size()) != ARCHIVE_OK)
    return fail(where + ": not a bundle: " + archiveError(a.get()));
  return readEntries(a.get(), where, limits);
}

void sortEntries(std::vector<Entry> &entries) {
  std::stable_sort(entries.begin(), entries.end(), [](const Entry &x, const Entry &y) {
    int rx = rank(x.name), ry = rank(y.name);
    return rx != ry ? rx < ry : x.name < y.name;
  });
}

llvm::Expected<std::string> encodeArchive(const std::vector<Entry> &entries,
                                          const WriteOptions &opts) {
  Utf8Locale utf8;
  std::set<std::string_view> seen;
  for (const Entry &e : entries) {
    std::string why;
    if (!isSafeEntryName(e.name, why))
      return fail("bundle entry " + quoted(e.name) + ": " + why);
    if (!seen.insert(e.name).second)
      return fail("bundle entry " + quoted(e.name) + " given twice");
  }
  WriteArchive a(archive_write_new());
  std::string out;
  bool zstd = opts.compression == Compression::Zstd;
  int r = zstd ? archive_write_add_filter_zstd(a.get()) : archive_write_add_filter_gzip(a.get());
  if (r != ARCHIVE_OK)
    return fail("bundle: " + archiveError(a.get()));
  std::string level = std::to_string(opts.level);
  if (zstd && archive_write_set_filter_option(a.get(), "zstd", "compression-level",
                                              level.c_str()) != ARCHIVE_OK)
    return fail("bundle: " + archiveError(a.get()));
  // pax_restricted is plain ustar unless a name needs more (long or non-
  // ASCII: a pax "path" record in UTF-8); both are what `tar -tf` reads.
  if (archive_write_set_format_pax_restricted(a.get()) != ARCHIVE_OK)
    return fail("bundle: " + archiveError(a.get()));
  // No padding after the compressed stream: zstd(1) rejects trailing zeros.
  archive_write_set_bytes_in_last_block(a.get(), 1);
  if (archive_write_open2(a.get(), &out, nullptr, appendCallback, nullptr, nullptr) != ARCHIVE_OK)
    return fail("bundle: " + archiveError(a.get()));
  for (const Entry &e : entries) {
    std::unique_ptr<archive_entry, void (*)(archive_entry *)> entry(archive_entry_new(),
                                                                    archive_entry_free);
    archive_entry_set_pathname_utf8(entry.get(), e.name.c_str());
    archive_entry_set_filetype(entry.get(), AE_IFREG);
    archive_entry_set_perm(entry.get(), e.mode & 0777);
    archive_entry_set_size(entry.get(), la_int64_t(e.data.size()));
    archive_entry_set_mtime(entry.get(), 0, 0);
    archive_entry_set_uid(entry.get(), 0);
    archive_entry_set_gid(entry.get(), 0);
    if (archive_write_header(a.get(), entry.get()) != ARCHIVE_OK)
      return fail("bundle entry " + quoted(e.name) + ": " + archiveError(a.get()));
    size_t done = 0;
    while (done < e.data.size()) {
      la_ssize_t n = archive_write_data(a.get(), e.data.data() + done, e.data.size() - done);
      if (n <= 0)
        return fail("bundle entry " + quoted(e.name) + ": " + archiveError(a.get()));
      done += size_t(n);
    }
  }
  if (archive_write_close(a.get()) != ARCHIVE_OK)
    return fail("bundle: " + archiveError(a.get()));
  return out;
}

namespace {

// The write under way (abandonAtomicWrite): its temporary and final paths.
std::mutex gWriteMu;
std::vector<std::pair<std::string, std::string>> gWrites;

struct WriteUnderWay {
  std::string tmp;
  WriteUnderWay(const std::string &t, const std::string &path) : tmp(t) {
    std::lock_guard lock(gWriteMu);
    gWrites.emplace_back(tmp, path);
  }
  ~WriteUnderWay() {
    std::lock_guard lock(gWriteMu);
    std::erase_if(gWrites, [&](const auto &w) { return w.first == tmp; });
  }
};

} // namespace

std::string abandonAtomicWrite() {
  std::lock_guard lock(gWriteMu);
  std::string paths;
  for (const auto &[tmp, path] : gWrites) {
    ::unlink(tmp.c_str());
    paths += (paths.empty() ? "" : ", ") + path;
  }
  return paths;
}

llvm::Error writeFileAtomic(const std::string &path, std::string_view bytes, unsigned mode) {
  static std::atomic<unsigned> counter{0};
  std::string tmp =
      path + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter.fetch_add(1));
  WriteUnderWay underWay(tmp, path);
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
  if (fd < 0)
    return fail("cannot write \"" + path + "\": " + std::strerror(errno));
  size_t done = 0;
  int err = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      err = n < 0 ? errno : EIO;
      break;
    }
    done += size_t(n);
  }
  if (::close(fd) != 0 && !err)
    err = errno;
  if (!err && ::rename(tmp.c_str(), path.c_str()) != 0)
    err = errno;
  if (err) {
    ::unlink(tmp.c_str());
    return fail("cannot write \"" + path + "\": " + std::strerror(err));
  }
  return llvm::Error::success();
}

} // namespace fbc::bundle
