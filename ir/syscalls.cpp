#include "ir/syscalls.h"

#include "frontend/lib/spellcheck.h"
#include "ir/quote.h"

#include <seccomp.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <memory>

namespace fbc::ir {

namespace {

constexpr std::array<std::string_view, 16> kKeywords = {
    "write", "read",  "connect",  "openat",  "fsync",     "sendto",  "recvfrom", "writev",
    "readv", "close", "pwrite64", "pread64", "fdatasync", "sendmsg", "recvmsg",  "open",
};

struct Family {
  std::string_view keyword;
  std::span<const std::string_view> members;
};

constexpr std::string_view kWrite[] = {"write", "writev", "pwrite64", "pwritev", "pwritev2"};
constexpr std::string_view kRead[] = {"read", "readv", "pread64", "preadv", "preadv2"};
constexpr std::string_view kOpen[] = {"open", "openat", "openat2", "creat"};
constexpr std::string_view kFsync[] = {"fsync", "fdatasync"};
constexpr std::string_view kSendto[] = {"sendto", "sendmsg", "sendmmsg"};
constexpr std::string_view kRecvfrom[] = {"recvfrom", "recvmsg", "recvmmsg"};

constexpr Family kFamilies[] = {
    {"write", kWrite}, {"read", kRead},     {"open", kOpen},
    {"fsync", kFsync}, {"sendto", kSendto}, {"recvfrom", kRecvfrom},
};

// Sorted by name.
constexpr ErrnoInfo kErrnos[] = {
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
};

} // namespace

llvm::ArrayRef<std::string_view> syscallKeywords() {
  return kKeywords;
}

bool isSyscallKeyword(std::string_view name) {
  return std::find(kKeywords.begin(), kKeywords.end(), name) != kKeywords.end();
}

bool isSyscallName(std::string_view name) {
  if (isSyscallKeyword(name))
    return true;
  if (name.empty() || name.size() > 64)
    return false;
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
      return false;
  return syscallNumber(name) >= 0;
}

std::span<const std::string_view> syscallFamily(std::string_view keyword) {
  for (const Family &f : kFamilies)
    if (f.keyword == keyword)
      return f.members;
  return {};
}

std::vector<std::string> expandSyscallFamily(std::string_view keyword) {
  std::span<const std::string_view> members = syscallFamily(keyword);
  if (members.empty())
    return {std::string(keyword)};
  return {members.begin(), members.end()};
}

int syscallNumber(std::string_view name) {
  std::string z(name); // libseccomp wants a NUL-terminated name
  int nr = seccomp_syscall_resolve_name_arch(SCMP_ARCH_NATIVE, z.c_str());
  // Pseudo-syscalls (negative numbers) exist only inside libseccomp.
  return nr >= 0 ? nr : -1;
}

std::string syscallNameOf(int nr) {
  // libseccomp allocates the name.
  std::unique_ptr<char, decltype(&std::free)> name(
      nr >= 0 ? seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr) : nullptr, &std::free);
  return name ? std::string(name.get()) : "syscall_" + std::to_string(nr);
}

std::vector<int> syscallNumbers(std::string_view keyword) {
  std::vector<int> nrs;
  for (const std::string &m : expandSyscallFamily(keyword))
    if (int nr = syscallNumber(m); nr >= 0 && std::find(nrs.begin(), nrs.end(), nr) == nrs.end())
      nrs.push_back(nr);
  return nrs;
}

std::string syscallFilterText(std::string_view keyword) {
  std::string out;
  for (int nr : syscallNumbers(keyword)) {
    if (!out.empty())
      out += ',';
    out += syscallNameOf(nr);
  }
  return out;
}

bool isDestinationSyscall(std::string_view name) {
  return name == "connect" || name == "sendto" || name == "sendmsg" || name == "sendmmsg";
}

llvm::ArrayRef<ErrnoInfo> errnoTable() {
  return kErrnos;
}

const ErrnoInfo *findErrno(std::string_view name) {
  std::string upper(name);
  for (char &c : upper)
    if (c >= 'a' && c <= 'z')
      c = static_cast<char>(c - 'a' + 'A');
  for (const ErrnoInfo &e : kErrnos)
    if (e.name == upper)
      return &e;
  return nullptr;
}

const ErrnoInfo *findErrnoNumber(int number) {
  for (const ErrnoInfo &e : kErrnos)
    if (e.number == number)
      return &e;
  return nullptr;
}

std::string supportedErrnoList() {
  std::string out;
  for (const ErrnoInfo &e : kErrnos) {
    if (!out.empty())
      out += ", ";
    out += e.name;
  }
  return out;
}

std::string unknownErrnoMessage(std::string_view name) {
  std::vector<std::string_view> names;
  for (const ErrnoInfo &e : kErrnos)
    names.push_back(e.name);
  std::string msg = "deny(): unknown errno " + quote(name);
  std::string_view near = star::nearestName(name, names);
  if (!near.empty())
    msg += " (did you mean " + quote(near) + "?)";
  return msg + "; supported: " + supportedErrnoList();
}

std::string syscallKeywordList() {
  std::string out;
  for (std::string_view s : syscallKeywords()) {
    if (s == "open")
      continue;
    out += out.empty() ? "" : ", ";
    out += s;
  }
  return out;
}

std::string unknownFaultKeywordMessage(std::string_view who, std::string_view key,
                                       std::string_view service, llvm::ArrayRef<std::string> ops) {
  std::vector<std::string_view> candidates(syscallKeywords().begin(), syscallKeywords().end());
  for (const std::string &op : ops)
    candidates.push_back(op);
  std::string msg = std::string(who) + "() unknown keyword " + quote(key) + " for service " +
                    quote(service) + ". Valid syscalls: " + syscallKeywordList();
  if (!ops.empty()) {
    msg += ". Named operations on " + std::string(service) + ":";
    for (size_t i = 0; i < ops.size(); ++i)
      msg += (i ? ", " : " ") + ops[i];
  }
  std::string_view near = star::nearestName(key, candidates);
  if (!near.empty())
    msg += " (did you mean " + quote(near) + "?)";
  return msg;
}

std::string unknownTraceSyscallMessage(std::string_view who, std::string_view name) {
  std::string msg = std::string(who) + "(): unknown syscall " + quote(name) +
                    ". Valid syscalls: " + syscallKeywordList();
  std::string_view near = star::nearestName(name, syscallKeywords());
  if (!near.empty())
    msg += " (did you mean " + quote(near) + "?)";
  return msg;
}

} // namespace fbc::ir
