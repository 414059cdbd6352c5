// Loading specs end to end: builtins -> ir::Spec -> verifier -> printers.
#include "frontend/eval/function.h"
#include "ir/load/load_spec.h"
#include "ir/print/print.h"

#include <gtest/gtest.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

namespace fbc::ir {
namespace {

namespace fs = std::filesystem;

class LoadSpecTest : public testing::Test {
protected:
  void SetUp() override {
    dir_ =
        fs::temp_directory_path() / ("fbc-ir-test-" + std::to_string(::getpid()) + "-" +
                                     testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string &name, const std::string &text) {
    fs::path p = dir_ / name;
    std::ofstream(p) << text;
    return p.string();
  }

  std::unique_ptr<LoadedSpec> load(const std::string &text) {
    LoadOptions opts;
    opts.print = [this](std::string_view s) { printed_.emplace_back(s); };
    return loadSpec(write("spec.star", text), opts);
  }

  static std::string diagnostics(const LoadedSpec &l) {
    std::string out;
    llvm::raw_string_ostream os(out);
    l.printDiagnostics(os);
    return os.str();
  }

  fs::path dir_;
  std::vector<std::string> printed_;
};

constexpr const char *kSpec = R"(
db = service("db", "/bin/db", interface("main", "postgres", 5432),
             healthcheck = tcp("localhost:5432", timeout = "2s"))
api = service("api", "/bin/api", interface("public", "http", 8080),
              env = {"DB_ADDR": db.main.addr}, depends_on = [db])
down = fault_assumption("db_down", target = db, connect = deny("ECONNREFUSED"))

def checkout():
    return api.public.post(path = "/checkout")

fault_scenario("checkout_db_down", scenario = checkout, faults = down,
               expect = expect_error_within(ms = 500))

def test_retry():
    n = choose("retries", [1, 2, 3])
    fault(db, write = deny("EIO"), run = checkout)

print("loaded", choose([7, 8]))
)";

TEST_F(LoadSpecTest, BuildsTheIr) {
  auto l = load(kSpec);
  ASSERT_TRUE(l->ok()) << diagnostics(*l);
  const Spec &s = l->spec();
  ASSERT_EQ(s.services.size(), 2u);
  EXPECT_EQ(s.services[0].name, "db"); // dependencies first
  EXPECT_EQ(s.services[1].env,
            (std::vector<std::pair<std::string, std::string>>{{"DB_ADDR", "localhost:5432"}}));
  EXPECT_EQ(s.services[0].healthcheck->target, "tcp://localhost:5432");
  EXPECT_EQ(s.services[0].healthcheck->timeoutNs, 2000000000);
  EXPECT_EQ(s.services[1].globals, std::vector<std::string>{"api"});
  ASSERT_EQ(s.assumptions.size(), 1u);
  EXPECT_EQ(s.assumptions[0].rules[0].syscalls, std::vector<std::string>{"connect"});
  ASSERT_EQ(s.tests.size(), 2u);
  EXPECT_EQ(s.tests[0].name, "test_checkout_db_down");
  EXPECT_EQ(s.tests[0].expect->display(), "expect_error_within(ms=500)");
  EXPECT_EQ(s.tests[1].name, "test_retry");
  EXPECT_EQ(printed_, std::vector<std::string>{"loaded 7"}); // load-time choose(): first
}

TEST_F(LoadSpecTest, TestBodiesKeepTheirSyntax) {
  auto l = load(kSpec);
  ASSERT_TRUE(l->ok()) << diagnostics(*l);
  for (const ir::Test &t : l->spec().tests) {
    ASSERT_NE(t.body.syntax, nullptr) << t.name;
    auto *fn = t.body.value.as<star::Function>();
    ASSERT_NE(fn, nullptr);
    EXPECT_EQ(fn->code->syntax, t.body.syntax);
  }
  const ir::Test &retry = l->spec().tests[1];
  EXPECT_EQ(retry.body.syntax->name, "test_retry");
  EXPECT_EQ(retry.body.syntax->body.size(), 2u); // the statements a plan pass will walk
}

TEST_F(LoadSpecTest, OutputIsByteIdenticalAcrossLoads) {
  std::string first, second;
  for (std::string *out : {&first, &second}) {
    auto l = load(kSpec);
    ASSERT_TRUE(l->ok());
    llvm::raw_string_ostream os(*out);
    printSpecText(l->spec(), os);
    printSpecJson(l->spec(), os);
  }
  EXPECT_EQ(first, second);
}

TEST_F(LoadSpecTest, RuntimeErrorPointsAtTheArgument) {
  auto l = load("x = 1\ny = deny(\"EIO\",\n         max_fires = 0, probability = 0.5)\n");
  EXPECT_FALSE(l->ok());
  ASSERT_TRUE(l->runtimeError().has_value());
  std::string d = diagnostics(*l);
  EXPECT_EQ(d, l->rootFile()->path() + ":3:22: error: deny(): max_fires must be > 0, got 0\n" +
                   "         max_fires = 0, probability = 0.5)\n" + "                     ^\n");
}

TEST_F(LoadSpecTest, MissingFileIsADiagnostic) {
  auto l = loadSpec((dir_ / "nope.star").string());
  EXPECT_FALSE(l->ok());
  EXPECT_EQ(l->rootFile(), nullptr);
  EXPECT_EQ(diagnostics(*l),
            "fbc: error: " + (dir_ / "nope.star").string() + ": No such file or directory\n");
}

TEST_F(LoadSpecTest, LoadedModulesRegisterToo) {
  write("lib.star", "def make(name):\n    return service(name, \"/bin/\" + name)\n");
  auto l = load("load(\"lib.star\", \"make\")\ncache = make(\"cache\")\n");
  ASSERT_TRUE(l->ok()) << diagnostics(*l);
  ASSERT_EQ(l->spec().services.size(), 1u);
  EXPECT_EQ(l->spec().services[0].loc.file->path(), (dir_ / "lib.star").string());
  EXPECT_EQ(l->spec().services[0].globals, std::vector<std::string>{"cache"});
}

} // namespace
} // namespace fbc::ir
