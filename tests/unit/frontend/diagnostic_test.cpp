#include "frontend/source/diagnostic.h"

#include <gtest/gtest.h>
#include <llvm/Support/raw_ostream.h>

using namespace fbc::frontend;

static std::string render(const Diagnostic &d) {
  std::string out;
  llvm::raw_string_ostream os(out);
  printDiagnostic(os, d);
  return os.str();
}

TEST(SourceFile, LineText) {
  SourceFile f("a.star", "one\ntwo\r\nthree");
  EXPECT_EQ(f.lineCount(), 3u);
  EXPECT_EQ(f.lineText(1), "one");
  EXPECT_EQ(f.lineText(2), "two");
  EXPECT_EQ(f.lineText(3), "three");
  EXPECT_EQ(f.lineText(4), "");
  EXPECT_EQ(f.lineText(0), "");
}

TEST(Diagnostic, CaretUnderColumn) {
  SourceFile f("spec.star", "x = 1\ny = )\n");
  EXPECT_EQ(render({Severity::Error, &f, {2, 5}, "got ')', want primary expression"}),
            "spec.star:2:5: error: got ')', want primary expression\n"
            "y = )\n"
            "    ^\n");
}

TEST(Diagnostic, CaretCountsCodePointsAndKeepsTabs) {
  SourceFile f("u.star", "\ts = \"héllo\" +\n");
  EXPECT_EQ(render({Severity::Warning, &f, {1, 14}, "w"}), "u.star:1:14: warning: w\n"
                                                           "\ts = \"héllo\" +\n"
                                                           "\t            ^\n");
}

TEST(Diagnostic, NoLocation) {
  EXPECT_EQ(render({Severity::Error, nullptr, {}, "no spec"}), "fbc: error: no spec\n");
}

TEST(DiagnosticList, CountsErrorsOnly) {
  SourceFile f("a.star", "x\n");
  DiagnosticList list;
  list.warning(&f, {1, 1}, "w");
  EXPECT_FALSE(list.hasErrors());
  list.error(&f, {1, 1}, "e");
  EXPECT_TRUE(list.hasErrors());
  EXPECT_EQ(list.all().size(), 2u);
}

TEST(Diagnostic, ControlCharactersInTheSourceLinePrintAsQuestionMarks) {
  SourceFile f("bin.star", "\x7f"
                           "ELF\x02\x01\x1b[31m\tx");
  EXPECT_EQ(render({Severity::Error, &f, {1, 1}, "unexpected input character '\\x7f'"}),
            "bin.star:1:1: error: unexpected input character '\\x7f'\n"
            "?ELF???[31m\tx\n"
            "^\n");
}
