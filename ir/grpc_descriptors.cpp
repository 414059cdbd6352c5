// A gRPC contract from a FileDescriptorSet: see grpc_descriptors.h. This
// part is linked into fbc; libprotobuf's is the module it loads.
#include "ir/grpc_descriptors.h"

#include "frontend/support/lazy_library.h"

#include <unistd.h>

#include <algorithm>
#include <climits>
#include <set>

namespace fbc::ir {

namespace {

// The module beside fbc's executable (where the build puts it).
const std::string &modulePath() {
  static const std::string path = [] {
    char self[PATH_MAX];
    ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
    std::string exe = n > 0 ? std::string(self, static_cast<size_t>(n)) : "";
    return exe.substr(0, exe.rfind('/') + 1) + kGrpcDescriptorsModule;
  }();
  return path;
}

GrpcDescriptorsReader reader = nullptr;

void bindAll(support::LazyLibrary &l) {
  l.bind(kGrpcDescriptorsReader, reader);
}

} // namespace

std::shared_ptr<const GrpcDescriptors> GrpcDescriptors::read(std::string_view bytes,
                                                             std::string &error) {
  static support::LazyLibrary module(modulePath().c_str(), "libprotobuf32, and fbc's own "
                                                           "libfbc-protobuf.so beside fbc");
  if (!module.load(bindAll, error))
    return nullptr;
  return std::shared_ptr<const GrpcDescriptors>(reader(bytes, error));
}

const GrpcMethod *GrpcDescriptors::findMethod(std::string_view path) const {
  auto it = std::lower_bound(methods_.begin(), methods_.end(), path,
                             [](const GrpcMethod &m, std::string_view p) { return m.path < p; });
  return it != methods_.end() && it->path == path ? &*it : nullptr;
}

std::vector<std::string> GrpcDescriptors::services() const {
  std::set<std::string> names;
  for (const GrpcMethod &m : methods_)
    names.insert(m.service);
  return {names.begin(), names.end()};
}

} // namespace fbc::ir
