#include "ir/load/stdlib.h"

#include <algorithm>

namespace fbc::ir {

const StdlibModule *findStdlibModule(std::string_view path) {
  const StdlibModule *end = kStdlibModules + kStdlibModuleCount;
  const StdlibModule *it =
      std::lower_bound(kStdlibModules, end, path, [](const StdlibModule &m, std::string_view p) {
        return std::string_view(m.path) < p;
      });
  return it != end && it->path == path ? it : nullptr;
}

// The reference says `load "@faultbox/x.star": not found in faultbox stdlib
// (run 'faultbox recipes list' ...)`; fbc has no such command, so the
// message lists the modules instead.
std::string stdlibNotFound(std::string_view path) {
  std::string msg = "load \"" + std::string(path) + "\": not found in fbc's stdlib (it has ";
  for (size_t i = 0; i < kStdlibModuleCount; ++i)
    msg += (i ? ", " : "") + std::string(kStdlibModules[i].path);
  return msg + ")";
}

} // namespace fbc::ir
