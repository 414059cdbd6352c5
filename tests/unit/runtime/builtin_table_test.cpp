// The runtime's body-time builtin table (runtime/body/body_builtins.cpp) is
// sorted (callBuiltin binary-searches it) and names exactly what the spec
// binds as body-time (ir/builtins/install.cpp) plus choose, which the spec
// binds itself and forwards to the runtime inside a test body.
#include "ir/builtins/install.h"
#include "runtime/driver/executor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace fbc::rt {
namespace {

TEST(BuiltinTable, SortedAndUnique) {
  llvm::ArrayRef<Executor::Builtin> table = Executor::builtinTable();
  ASSERT_FALSE(table.empty());
  for (size_t i = 1; i < table.size(); ++i)
    EXPECT_LT(table[i - 1].name, table[i].name) << "at " << i;
  for (const Executor::Builtin &b : table)
    EXPECT_NE(b.fn, nullptr) << b.name;
}

TEST(BuiltinTable, NamesTheSpecsBodyTimeBuiltins) {
  std::vector<std::string> want;
  for (std::string_view n : ir::builtins::bodyTimeBuiltinNames())
    want.emplace_back(n);
  for (const char *forwarded : {"choose", "monitor", "eventually", "always"})
    want.emplace_back(forwarded);
  std::sort(want.begin(), want.end());
  std::vector<std::string> have;
  for (const Executor::Builtin &b : Executor::builtinTable())
    have.emplace_back(b.name);
  EXPECT_EQ(have, want);
}

} // namespace
} // namespace fbc::rt
