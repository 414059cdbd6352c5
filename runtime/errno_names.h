// The errno names a deny() rule may use (the engine reference's table, §7):
// Linux numbers, identical on amd64 and arm64, and the Go strerror text that
// the reference prints in `deny(...)` trace decisions.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace fbc::rt {

struct ErrnoName {
  std::string_view name; // "EIO"
  int number;            // 5
  std::string_view text; // "input/output error"
};

// The supported names, sorted by name.
std::span<const ErrnoName> errnoNames();
// Case-insensitive lookup by name; null if the name is not supported.
const ErrnoName *findErrnoName(std::string_view name);
// Lookup by number; null if the number has no supported name.
const ErrnoName *findErrnoNumber(int number);
// "EACCES, EADDRINUSE, ..." for unknown-errno messages.
std::string supportedErrnoNames();

} // namespace fbc::rt
