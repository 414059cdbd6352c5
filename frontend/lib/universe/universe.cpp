// The universe table: None, True, False and the builtin functions, sorted
// by name for binary search. The builtin objects are created once, in a
// process-wide heap, and never change.
#include "frontend/lib/universe/universe.h"

#include "frontend/lib/objects.h"
#include "frontend/lib/universe/universe_builtins.h"
#include "frontend/lib/universe/universe_helpers.h"

#include <algorithm>
#include <array>
#include <cstring>

namespace fbc::star {

namespace {

using Member = std::pair<const char *, Value>;

struct NamedFn {
  const char *name;
  BuiltinFn fn;
};

// Sorted by name (checked when the table is built).
constexpr NamedFn kFunctions[] = {
    {"abs", builtins::abs},
    {"all", builtins::all},
    {"any", builtins::any},
    {"bool", builtins::boolFn},
    {"bytes", builtins::bytes},
    {"chr", builtins::chr},
    {"dict", builtins::dict},
    {"dir", builtins::dir},
    {"enumerate", builtins::enumerate},
    {"fail", builtins::fail},
    {"float", builtins::floatFn},
    {"getattr", builtins::getattr},
    {"hasattr", builtins::hasattr},
    {"hash", builtins::hash},
    {"int", builtins::intFn},
    {"len", builtins::len},
    {"list", builtins::list},
    {"max", builtins::max},
    {"min", builtins::min},
    {"ord", builtins::ord},
    {"print", builtins::print},
    {"range", builtins::range},
    {"repr", builtins::repr},
    {"reversed", builtins::reversed},
    {"set", builtins::set},
    {"sorted", builtins::sorted},
    {"str", builtins::str},
    {"tuple", builtins::tuple},
    {"type", builtins::type},
    {"zip", builtins::zip},
};

std::vector<Member> buildMembers() {
  std::vector<Member> members = {
      {"False", falseValue()},
      {"None", none()},
      {"True", trueValue()},
  };
  Heap &heap = staticHeap();
  for (const NamedFn &f : kFunctions)
    members.emplace_back(f.name, Value::object(heap.make<Builtin>(f.name, f.fn)));
  // Upper case sorts first in byte order, so the constants lead.
  std::sort(members.begin(), members.end(),
            [](const Member &a, const Member &b) { return std::strcmp(a.first, b.first) < 0; });
  return members;
}

const std::vector<Member> &members() {
  static const std::vector<Member> table = buildMembers();
  return table;
}

const Member *find(std::string_view name) {
  const std::vector<Member> &table = members();
  auto it = std::lower_bound(table.begin(), table.end(), name,
                             [](const Member &m, std::string_view n) { return m.first < n; });
  return it != table.end() && it->first == name ? &*it : nullptr;
}

} // namespace

Value lookupUniverse(std::string_view name) {
  const Member *m = find(name);
  return m ? m->second : Value();
}

bool isUniversal(llvm::StringRef name) {
  return find(std::string_view(name)) != nullptr;
}

llvm::ArrayRef<std::pair<const char *, Value>> universeMembers() {
  return members();
}

} // namespace fbc::star
