// The method registry: each core kind's table, sorted by name.
#include "frontend/lib/methods.h"

#include <algorithm>
#include <string_view>

namespace fbc::star {

llvm::ArrayRef<Method> methodsOf(Kind k) {
  switch (k) {
  case Kind::String:
    return stringMethods();
  case Kind::Bytes:
    return bytesMethods();
  case Kind::List:
    return listMethods();
  case Kind::Dict:
    return dictMethods();
  case Kind::Set:
    return setMethods();
  default:
    return {};
  }
}

const Method *findMethod(Kind k, std::string_view name) {
  llvm::ArrayRef<Method> table = methodsOf(k);
  auto it = std::lower_bound(table.begin(), table.end(), name,
                             [](const Method &m, std::string_view n) { return m.name < n; });
  return it != table.end() && it->name == name ? it : nullptr;
}

} // namespace fbc::star
