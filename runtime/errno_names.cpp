#include "runtime/errno_names.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace fbc::rt {
namespace {

// Sorted by name so errnoNames() is already in the order messages list it.
constexpr std::array<ErrnoName, 29> kErrnos{{
    {"EACCES", 13, "permission denied"},
    {"EADDRINUSE", 98, "address already in use"},
    {"EADDRNOTAVAIL", 99, "cannot assign requested address"},
    {"EAGAIN", 11, "resource temporarily unavailable"},
    {"EBUSY", 16, "device or resource busy"},
    {"ECONNABORTED", 103, "software caused connection abort"},
    {"ECONNREFUSED", 111, "connection refused"},
    {"ECONNRESET", 104, "connection reset by peer"},
    {"EDEADLK", 35, "resource deadlock avoided"},
    {"EDQUOT", 122, "disk quota exceeded"},
    {"EEXIST", 17, "file exists"},
    {"EFBIG", 27, "file too large"},
    {"EHOSTUNREACH", 113, "no route to host"},
    {"EINTR", 4, "interrupted system call"},
    {"EINVAL", 22, "invalid argument"},
    {"EIO", 5, "input/output error"},
    {"ELOOP", 40, "too many levels of symbolic links"},
    {"EMFILE", 24, "too many open files"},
    {"ENETUNREACH", 101, "network is unreachable"},
    {"ENFILE", 23, "too many open files in system"},
    {"ENOENT", 2, "no such file or directory"},
    {"ENOLCK", 37, "no locks available"},
    {"ENOMEM", 12, "cannot allocate memory"},
    {"ENOSPC", 28, "no space left on device"},
    {"ENOSYS", 38, "function not implemented"},
    {"ENOTEMPTY", 39, "directory not empty"},
    {"EPERM", 1, "operation not permitted"},
    {"EROFS", 30, "read-only file system"},
    {"ETIMEDOUT", 110, "connection timed out"},
}};

bool equalsUpper(std::string_view name, std::string_view upper) {
  if (name.size() != upper.size())
    return false;
  for (size_t i = 0; i < name.size(); ++i)
    if (std::toupper(static_cast<unsigned char>(name[i])) != upper[i])
      return false;
  return true;
}

} // namespace

std::span<const ErrnoName> errnoNames() {
  return kErrnos;
}

const ErrnoName *findErrnoName(std::string_view name) {
  for (const ErrnoName &e : kErrnos)
    if (equalsUpper(name, e.name))
      return &e;
  return nullptr;
}

const ErrnoName *findErrnoNumber(int number) {
  for (const ErrnoName &e : kErrnos)
    if (e.number == number)
      return &e;
  return nullptr;
}

std::string supportedErrnoNames() {
  std::string out;
  for (const ErrnoName &e : kErrnos) {
    if (!out.empty())
      out += ", ";
    out += e.name;
  }
  return out;
}

} // namespace fbc::rt
