// fbc's own Starlark modules, load()ed as "@faultbox/<path>": the .star files
// under ir/stdlib/, embedded in the binary at build time
// (cmake/EmbedStdlib.cmake), so they resolve with no network and no install
// path. Same public names and signatures as the reference tool's modules;
// the code is fbc's.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace fbc::ir {

struct StdlibModule {
  const char *path;      // "@faultbox/mocks/redis.star"
  std::string_view text; // the module's source
};

// Sorted by path (generated).
extern const StdlibModule kStdlibModules[];
extern const size_t kStdlibModuleCount;

inline constexpr std::string_view kStdlibPrefix = "@faultbox/";

// True for a load() name fbc resolves from its own modules.
inline bool isStdlibPath(std::string_view path) {
  return path.starts_with(kStdlibPrefix);
}

// The module's source, or null when fbc has no such module.
const StdlibModule *findStdlibModule(std::string_view path);

// "cannot load ...: not found" message naming what fbc ships.
std::string stdlibNotFound(std::string_view path);

} // namespace fbc::ir
