// backend::selectTests: --test by name, without test_, glob, ~regex, and a
// fault_matrix by its plan name.
#include "backend/test_filter.h"

#include "ir/load/load_spec.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace fbc {
namespace {

std::vector<std::string> names(const std::vector<const ir::Test *> &tests) {
  std::vector<std::string> out;
  for (const ir::Test *t : tests)
    out.push_back(t->name);
  return out;
}

class TestFilter : public ::testing::Test {
protected:
  void SetUp() override {
    char dir[] = "/tmp/fbc-test-filter-XXXXXX";
    ASSERT_TRUE(mkdtemp(dir));
    dir_ = dir;
    std::ofstream(dir_ + "/spec.star") << R"(
svc = service("svc", "/bin/true", interface("main", "http", 8080))
disk = fault_assumption("disk", target = svc, write = deny("EIO"))
def alpha():
    pass
scenario(alpha)
fault_matrix(scenarios = [alpha], faults = [disk])
def test_alpha():
    pass
def test_beta():
    pass
def test_alphabet():
    pass
)";
    loaded_ = ir::loadSpec(dir_ + "/spec.star");
    ASSERT_TRUE(loaded_->ok());
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::vector<std::string> select(const std::string &filter, std::string &error) {
    std::vector<const ir::Test *> out;
    error.clear();
    if (!backend::selectTests(loaded_->spec(), filter, out, error))
      return {};
    return names(out);
  }
  std::string dir_;
  std::unique_ptr<ir::LoadedSpec> loaded_;
};

TEST_F(TestFilter, NameWithOrWithoutPrefixGlobAndRegex) {
  std::string error;
  EXPECT_EQ(select("", error), (std::vector<std::string>{"test_alpha", "test_alphabet", "test_beta",
                                                         "test_matrix_alpha_disk"}));
  EXPECT_EQ(select("test_alpha", error), (std::vector<std::string>{"test_alpha"}));
  EXPECT_EQ(select("beta", error), (std::vector<std::string>{"test_beta"}));
  EXPECT_EQ(select("alpha*", error), (std::vector<std::string>{"test_alpha", "test_alphabet"}));
  EXPECT_EQ(select("~bet$", error), (std::vector<std::string>{"test_alphabet"}));
}

TEST_F(TestFilter, AMatrixCellMatchesByItsPlanName) {
  std::string error;
  EXPECT_EQ(select("matrix_alpha", error), (std::vector<std::string>{"test_matrix_alpha_disk"}));
}

TEST_F(TestFilter, ErrorsNameTheFilterAndTheTests) {
  std::string error;
  EXPECT_TRUE(select("~(", error).empty());
  EXPECT_EQ(error.rfind("bad --test regex (: ", 0), 0u) << error;
  EXPECT_TRUE(select("gamma", error).empty());
  EXPECT_EQ(error, "no test matched filter \"gamma\" (available: test_alpha, test_alphabet, "
                   "test_beta, test_matrix_alpha_disk)");
}

} // namespace
} // namespace fbc
