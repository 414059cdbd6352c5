// libFuzzer target: the bundle reader (bundle/archive.h: libarchive behind
// fbc's name, type, size and integrity rules). The first input
// byte picks how the rest reaches the reader: as is (the fuzzer mutates the
// compressed bytes), or as a tar stream that this target compresses with
// zstd or gzip first, so mutations reach the tar headers that libarchive
// parses behind the decompressor. Whatever the bytes, the reader returns
// an error or entries that obey the rules it promises.
#include "bundle/archive.h"

#include <archive.h>
#include <archive_entry.h>

#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>

namespace {

la_ssize_t appendCb(archive *, void *client, const void *buf, size_t n) {
  static_cast<std::string *>(client)->append(static_cast<const char *>(buf), n);
  return la_ssize_t(n);
}

// `raw` compressed as one stream (libarchive's "raw" format: no tar added).
std::string compress(std::string_view raw, bool gzip) {
  archive *a = archive_write_new();
  if (gzip)
    archive_write_add_filter_gzip(a);
  else
    archive_write_add_filter_zstd(a);
  archive_write_set_format_raw(a);
  archive_write_set_bytes_in_last_block(a, 1);
  std::string out;
  archive_write_open2(a, &out, nullptr, appendCb, nullptr, nullptr);
  archive_entry *e = archive_entry_new();
  archive_entry_set_filetype(e, AE_IFREG);
  archive_entry_set_pathname(e, "x");
  archive_write_header(a, e);
  archive_write_data(a, raw.data(), raw.size());
  archive_entry_free(e);
  archive_write_close(a);
  archive_write_free(a);
  return out;
}

void check(bool ok, const char *what) {
  if (!ok) {
    std::fprintf(stderr, "bundle_fuzz: broken promise: %s\n", what);
    std::abort();
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  std::string_view rest(reinterpret_cast<const char *>(data) + 1, size - 1);
  std::string bytes;
  switch (data[0] % 3) {
  case 0:
    bytes = rest;
    break;
  case 1:
    bytes = compress(rest, false);
    break;
  default:
    bytes = compress(rest, true);
    break;
  }
  fbc::bundle::ReadLimits limits;
  limits.maxEntryBytes = 1 << 20;
  limits.maxTotalBytes = 4 << 20;
  limits.maxEntries = 1000;
  llvm::Expected<fbc::bundle::Contents> c = fbc::bundle::readBundleBytes(bytes, "fuzz.fb", limits);
  if (!c) {
    llvm::consumeError(c.takeError());
    return 0;
  }
  std::set<std::string> names;
  uint64_t total = 0;
  for (const fbc::bundle::Entry &e : c->entries) {
    std::string why;
    check(fbc::bundle::isSafeEntryName(e.name, why), "an unsafe entry name was returned");
    check(names.insert(e.name).second, "a duplicate entry name was returned");
    check(e.data.size() <= limits.maxEntryBytes, "an entry over the limit was returned");
    check(e.mode == 0644 || e.mode == 0755, "an entry mode other than 0644/0755");
    total += e.data.size();
  }
  check(total <= limits.maxTotalBytes, "entries over the total limit were returned");
  check(c->entries.size() <= limits.maxEntries, "more entries than the limit were returned");
  return 0;
}
