#include "frontend/eval/thread.h"

#include <gtest/gtest.h>

using namespace fbc::star;

namespace {

EvalError errorIn(std::vector<TraceFrame> frames) {
  EvalError e("key \"k\" not in dict");
  e.frames = std::move(frames);
  return e;
}

} // namespace

TEST(Backtrace, FrameLinesFoldTheInnermostBuiltin) {
  EvalError e = errorIn({{"spec.star", {6, 11}, "test_x"},
                         {"<builtin>", {}, "fault"},
                         {"spec.star", {3, 13}, "lambda"},
                         {"<builtin>", {}, "send"}});
  EXPECT_EQ(e.frameLines(),
            (std::vector<std::string>{"spec.star:6:11: in test_x", "<builtin>: in fault",
                                      "spec.star:3:13: in lambda"}));
  EXPECT_EQ(e.frameLines(/*keepBuiltin=*/true).back(), "<builtin>: in send");
  EXPECT_EQ(e.backtrace(), "Traceback (most recent call last):\n"
                           "  spec.star:6:11: in test_x\n"
                           "  <builtin>: in fault\n"
                           "  spec.star:3:13: in lambda\n"
                           "Error in send: key \"k\" not in dict");
  EXPECT_EQ(e.backtrace(/*errorLine=*/false), "Traceback (most recent call last):\n"
                                              "  spec.star:6:11: in test_x\n"
                                              "  <builtin>: in fault\n"
                                              "  spec.star:3:13: in lambda");
}

TEST(Backtrace, NoFrames) {
  EvalError e = errorIn({});
  EXPECT_TRUE(e.frameLines().empty());
  EXPECT_EQ(e.backtrace(), "Traceback (most recent call last):\nError: key \"k\" not in dict");
}
