// Every public frontend header compiles on its own.
#include "frontend/eval/args.h"
#include "frontend/eval/heap.h"
#include "frontend/eval/methods.h"
#include "frontend/eval/numeric.h"
#include "frontend/eval/objects.h"
#include "frontend/eval/ops.h"
#include "frontend/eval/printer.h"
#include "frontend/eval/thread.h"
#include "frontend/eval/value.h"
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
