// Every public frontend header compiles on its own.
#include "frontend/eval/thread.h"
#include "frontend/lib/args.h"
#include "frontend/lib/heap.h"
#include "frontend/lib/methods.h"
#include "frontend/lib/numeric.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/printer.h"
#include "frontend/lib/value.h"
#include "frontend/resolve/resolver.h"
#include "frontend/syntax/ast.h"
#include "frontend/syntax/parser.h"

#include <gtest/gtest.h>

TEST(Headers, SmallIntRoundTrip) {
  using fbc::star::Value;
  for (int64_t v : {int64_t(0), int64_t(-1), Value::kMinSmall, Value::kMaxSmall}) {
    Value x = Value::small(v);
    EXPECT_TRUE(x.isSmallInt());
    EXPECT_EQ(x.smallInt(), v);
  }
  EXPECT_FALSE(Value::fitsSmall(Value::kMaxSmall + 1));
}
