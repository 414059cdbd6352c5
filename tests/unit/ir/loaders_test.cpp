// load_file(), load_json(), load_yaml(): what the goldens cannot show
// (a file over the size cap, paths relative to the spec's folder wherever
// fbc runs from, the data file kept with the spec's sources).
#include "ir/load/load_spec.h"

#include <gtest/gtest.h>
#include <llvm/Support/raw_ostream.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace fbc::ir {
namespace {

namespace fs = std::filesystem;

class LoadersTest : public testing::Test {
protected:
  void SetUp() override {
    dir_ =
        fs::temp_directory_path() / ("fbc-loaders-" + std::to_string(::getpid()) + "-" +
                                     testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_ / "spec");
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string &name, const std::string &text) {
    fs::path p = dir_ / "spec" / name;
    std::ofstream(p) << text;
    return p.string();
  }

  std::string loadError(const std::string &spec) {
    auto l = loadSpec(write("spec.star", spec), quiet());
    EXPECT_FALSE(l->ok());
    std::string out;
    llvm::raw_string_ostream os(out);
    l->printDiagnostics(os);
    return os.str();
  }

  static LoadOptions quiet() {
    LoadOptions o;
    o.print = [](std::string_view) {};
    return o;
  }

  fs::path dir_;
};

TEST_F(LoadersTest, FileOverTheCapIsRefusedBeforeItIsRead) {
  // Sparse: 50 MiB + 1 byte on disk costs nothing, and the cap is checked
  // on the size before a byte is read.
  fs::path big = dir_ / "spec" / "big.json";
  std::ofstream(big).close();
  fs::resize_file(big, 50ull * 1024 * 1024 + 1);
  std::string err = loadError("x = load_json(\"big.json\")\n");
  EXPECT_NE(err.find("load_json(\"big.json\"): 52428801 bytes exceeds the 52428800-byte "
                     "limit on data files"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("spec.star:1:15: error:"), std::string::npos) << err;
}

TEST_F(LoadersTest, FileAtTheCapIsRead) {
  fs::path big = dir_ / "spec" / "cap.txt";
  std::ofstream(big).close();
  fs::resize_file(big, 50ull * 1024 * 1024);
  auto l = loadSpec(write("spec.star", "x = load_file(\"cap.txt\")\n"), quiet());
  ASSERT_TRUE(l->ok());
  ASSERT_EQ(l->spec().dataFiles.size(), 1u);
  EXPECT_EQ(l->spec().dataFiles[0].bytes, 50ull * 1024 * 1024);
}

TEST_F(LoadersTest, PathsAreRelativeToTheSpecFolderNotTheWorkingDirectory) {
  write("cfg.json", "{\"port\": 8080}");
  std::string spec = write("spec.star", "cfg = load_json(\"cfg.json\")\n"
                                        "svc = service(\"svc\", \"/bin/svc\", "
                                        "interface(\"main\", \"http\", cfg[\"port\"]))\n");
  fs::path cwd = fs::current_path();
  fs::current_path(dir_); // not the spec's folder
  auto l = loadSpec(spec, quiet());
  fs::current_path(cwd);
  ASSERT_TRUE(l->ok());
  EXPECT_EQ(l->spec().services[0].interfaces[0].port, 8080);
}

TEST_F(LoadersTest, DataFilesAreKeptWithTheSpecSources) {
  // The run bundle snapshots sources().files(): the data file must be there
  // with the bytes the spec read, once however often it is loaded.
  write("seed.sql", "INSERT 1;\n");
  auto l = loadSpec(
      write("spec.star", "a = load_file(\"seed.sql\")\nb = load_file(\"seed.sql\")\n"), quiet());
  ASSERT_TRUE(l->ok());
  size_t seen = 0;
  for (const frontend::SourceFile *f : l->sources().files())
    if (fs::path(f->path()).filename() == "seed.sql") {
      ++seen;
      EXPECT_EQ(f->text(), "INSERT 1;\n");
    }
  EXPECT_EQ(seen, 1u);
  EXPECT_EQ(l->spec().dataFiles.size(), 2u);
}

TEST_F(LoadersTest, YamlAliasBombIsRefused) {
  // Each level doubles: 2^30 values from a few hundred bytes.
  std::string yaml = "a0: &a0 [x, x]\n";
  for (int i = 1; i <= 30; ++i) {
    std::string n = std::to_string(i), prev = std::to_string(i - 1);
    yaml.append("a").append(n).append(": &a").append(n);
    yaml.append(" [*a").append(prev).append(", *a").append(prev).append("]\n");
  }
  write("bomb.yaml", yaml);
  std::string err = loadError("x = load_yaml(\"bomb.yaml\")\n");
  EXPECT_NE(err.find("load_yaml(\"bomb.yaml\"): the document expands to more than 1000000 "
                     "values (aliases)"),
            std::string::npos)
      << err;
}

TEST_F(LoadersTest, JsonKeepsTheFilesKeyOrder) {
  write("o.json", "{\"z\": 1, \"a\": 2, \"m\": 3}");
  auto l = loadSpec(write("spec.star", "o = load_json(\"o.json\")\n"
                                       "assert_keys = fail(\"order\") if list(o.keys()) != "
                                       "[\"z\", \"a\", \"m\"] else None\n"),
                    quiet());
  EXPECT_TRUE(l->ok());
}

} // namespace
} // namespace fbc::ir
