// The diagnostic-code table (ir/diagnostic_codes.h): names are unique and
// UPPER_SNAKE, every code has a suggestion, and docs/diagnostics.md lists
// each row exactly as the table has it.
#include "ir/diagnostic_codes.h"

#include <gtest/gtest.h>

#include <cctype>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace fbc::ir {
namespace {

TEST(DiagnosticCodes, NamesAreUniqueUpperSnakeWithASuggestion) {
  std::set<std::string_view> names;
  for (const DiagCodeInfo &c : diagnosticCodes()) {
    EXPECT_TRUE(names.insert(c.name).second) << c.name;
    for (char ch : c.name)
      EXPECT_TRUE(std::isupper(static_cast<unsigned char>(ch)) || ch == '_') << c.name;
    EXPECT_FALSE(c.suggestion.empty()) << c.name;
    EXPECT_EQ(c.suggestion.find('\n'), std::string_view::npos) << c.name;
    EXPECT_EQ(&codeInfo(c.code), &c);
    EXPECT_EQ(findDiagCode(c.name), &c);
  }
  EXPECT_EQ(findDiagCode("NO_SUCH_CODE"), nullptr);
}

TEST(DiagnosticCodes, DocsListEveryCode) {
  std::ifstream in(std::string(FBC_DOCS_DIR) + "/diagnostics.md");
  ASSERT_TRUE(in) << "docs/diagnostics.md";
  std::stringstream text;
  text << in.rdbuf();
  for (const DiagCodeInfo &c : diagnosticCodes()) {
    std::string row = "| `" + std::string(c.name) + "` | " +
                      (c.stage == DiagStage::Check ? "check" : "run") + " | " +
                      std::string(c.meaning) + " | " + std::string(c.suggestion) + " |\n";
    EXPECT_NE(text.str().find(row), std::string::npos) << "docs/diagnostics.md lacks:\n" << row;
  }
}

} // namespace
} // namespace fbc::ir
