#include "runtime/os/helper_binary.h"

#include <unistd.h>

#include <climits>

namespace fbc::rt {

std::string helperBinaryPath(std::string_view name) {
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  std::string dir = n > 0 ? std::string(self, static_cast<size_t>(n)) : "";
  return dir.substr(0, dir.rfind('/') + 1) + std::string(name);
}

std::string helperBinary(std::string_view name, std::string_view needed, std::string &error) {
  std::string path = helperBinaryPath(name);
  if (access(path.c_str(), X_OK) != 0) {
    error = std::string(needed) + " need " + std::string(name) + " next to fbc (" + path +
            "): it is built with fbc";
    return "";
  }
  return path;
}

} // namespace fbc::rt
