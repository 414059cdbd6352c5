// libarchive, loaded on first use: this file defines the libarchive
// functions fbc calls (bundle writing and reading, and the tests that craft
// bundles) and forwards each to the library, which it dlopen()s the first
// time one is called.
//
// Why: libarchive pulls in libxml2 (and through it ICU), nettle, zstd, lzma,
// bz2, lz4 and acl; mapping and relocating them costs every fbc process
// about 1.5 MB of resident memory, although only the commands that write or
// read a bundle use them (`fbc plan` on the 1,000-service spec of bench/plan
// must stay within Go's peak RSS). fbc links -ldl instead of -larchive; the
// headers and libarchive.so.13 come from the same Debian package
// (libarchive-dev, libarchive13).
//
// The library is a hard dependency of bundles, as it was when fbc linked it:
// if it or one of its functions is missing, the first call prints which and
// exits with status 1.
#include "frontend/support/lazy_library.h"

#include <archive.h>
#include <archive_entry.h>

#include <cstdio>
#include <cstdlib>

// Every libarchive function fbc uses: X(return type, name, (parameters),
// (arguments)).
#define FBC_ARCHIVE_FUNCTIONS(X)                                                                   \
  X(int, archive_version_number, (void), ())                                                       \
  X(const char *, archive_error_string, (struct archive * a), (a))                                 \
  X(int, archive_filter_code, (struct archive * a, int n), (a, n))                                 \
  X(int, archive_filter_count, (struct archive * a), (a))                                          \
  X(struct archive *, archive_read_new, (void), ())                                                \
  X(int, archive_read_free, (struct archive * a), (a))                                             \
  X(int, archive_read_support_filter_gzip, (struct archive * a), (a))                              \
  X(int, archive_read_support_filter_zstd, (struct archive * a), (a))                              \
  X(int, archive_read_support_format_tar, (struct archive * a), (a))                               \
  X(int, archive_read_open_fd, (struct archive * a, int fd, size_t block), (a, fd, block))         \
  X(int, archive_read_open_memory, (struct archive * a, const void *buf, size_t size),             \
    (a, buf, size))                                                                                \
  X(int, archive_read_next_header, (struct archive * a, struct archive_entry * *e), (a, e))        \
  X(la_ssize_t, archive_read_data, (struct archive * a, void *buf, size_t size), (a, buf, size))   \
  X(struct archive *, archive_write_new, (void), ())                                               \
  X(int, archive_write_free, (struct archive * a), (a))                                            \
  X(int, archive_write_close, (struct archive * a), (a))                                           \
  X(int, archive_write_add_filter_gzip, (struct archive * a), (a))                                 \
  X(int, archive_write_add_filter_zstd, (struct archive * a), (a))                                 \
  X(int, archive_write_set_filter_option,                                                          \
    (struct archive * a, const char *m, const char *o, const char *v), (a, m, o, v))               \
  X(int, archive_write_set_format_pax_restricted, (struct archive * a), (a))                       \
  X(int, archive_write_set_format_raw, (struct archive * a), (a))                                  \
  X(int, archive_write_set_bytes_in_last_block, (struct archive * a, int n), (a, n))               \
  X(int, archive_write_open2,                                                                      \
    (struct archive * a, void *data, archive_open_callback *o, archive_write_callback *w,          \
     archive_close_callback *c, archive_free_callback *f),                                         \
    (a, data, o, w, c, f))                                                                         \
  X(int, archive_write_header, (struct archive * a, struct archive_entry * e), (a, e))             \
  X(la_ssize_t, archive_write_data, (struct archive * a, const void *buf, size_t size),            \
    (a, buf, size))                                                                                \
  X(struct archive_entry *, archive_entry_new, (void), ())                                         \
  X(void, archive_entry_free, (struct archive_entry * e), (e))                                     \
  X(__LA_MODE_T, archive_entry_filetype, (struct archive_entry * e), (e))                          \
  X(__LA_MODE_T, archive_entry_perm, (struct archive_entry * e), (e))                              \
  X(const char *, archive_entry_hardlink, (struct archive_entry * e), (e))                         \
  X(const char *, archive_entry_pathname, (struct archive_entry * e), (e))                         \
  X(const char *, archive_entry_pathname_utf8, (struct archive_entry * e), (e))                    \
  X(la_int64_t, archive_entry_size, (struct archive_entry * e), (e))                               \
  X(int, archive_entry_size_is_set, (struct archive_entry * e), (e))                               \
  X(void, archive_entry_set_filetype, (struct archive_entry * e, unsigned int t), (e, t))          \
  X(void, archive_entry_set_perm, (struct archive_entry * e, __LA_MODE_T p), (e, p))               \
  X(void, archive_entry_set_uid, (struct archive_entry * e, la_int64_t id), (e, id))               \
  X(void, archive_entry_set_gid, (struct archive_entry * e, la_int64_t id), (e, id))               \
  X(void, archive_entry_set_size, (struct archive_entry * e, la_int64_t s), (e, s))                \
  X(void, archive_entry_set_rdev, (struct archive_entry * e, dev_t d), (e, d))                     \
  X(void, archive_entry_set_mtime, (struct archive_entry * e, time_t s, long ns), (e, s, ns))      \
  X(void, archive_entry_set_pathname, (struct archive_entry * e, const char *p), (e, p))           \
  X(void, archive_entry_set_pathname_utf8, (struct archive_entry * e, const char *p), (e, p))      \
  X(void, archive_entry_set_hardlink, (struct archive_entry * e, const char *p), (e, p))           \
  X(void, archive_entry_set_symlink, (struct archive_entry * e, const char *p), (e, p))

namespace {

struct Archive {
  FBC_ARCHIVE_FUNCTIONS(FBC_LAZY_POINTER)
};

Archive fns;
constinit fbc::support::LazyLibrary lib("libarchive.so.13", "libarchive13");

void bindAll(fbc::support::LazyLibrary &l) {
  FBC_ARCHIVE_FUNCTIONS(FBC_LAZY_BIND)
}

const Archive &functions() {
  if (!lib.load(bindAll)) {
    std::fprintf(stderr, "fbc: error: bundles need libarchive: %s\n", lib.error().c_str());
    std::exit(1);
  }
  return fns;
}

} // namespace

extern "C" {
#define FBC_FORWARD(ret, name, params, args)                                                       \
  ret name params {                                                                                \
    return functions().name args;                                                                  \
  }
FBC_ARCHIVE_FUNCTIONS(FBC_FORWARD)
#undef FBC_FORWARD
}
