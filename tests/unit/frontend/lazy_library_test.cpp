// support::LazyLibrary against real libraries: libm.so.6 (present wherever
// fbc runs), a soname no system has, and a symbol libm does not define.
#include "frontend/support/lazy_library.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

using fbc::support::LazyLibrary;

namespace {

struct Math {
  double (*cos)(double) = nullptr;
  double (*sqrt)(double) = nullptr;
  double (*missing)(double) = nullptr;
};

std::atomic<int> bindCalls{0};

Math math;
constinit LazyLibrary libm("libm.so.6", "libc6");
void bindMath(LazyLibrary &l) {
  ++bindCalls;
  l.bind("cos", math.cos);
  l.bind("sqrt", math.sqrt);
}

Math partial;
constinit LazyLibrary libmPartial("libm.so.6", "libc6");
void bindPartial(LazyLibrary &l) {
  l.bind("cos", partial.cos);
  l.bind("fbc_no_such_function", partial.missing);
  l.bind("fbc_nor_this_one", partial.missing);
  l.bind("sqrt", partial.sqrt);
}

Math absent;
constinit LazyLibrary libAbsent("libfbc-no-such-library.so.1", "fbc-none");
std::atomic<int> absentBindCalls{0};
void bindAbsent(LazyLibrary &l) {
  ++absentBindCalls;
  l.bind("cos", absent.cos);
}

} // namespace

TEST(LazyLibrary, BindsAPresentLibraryOnceAcrossThreads) {
  std::vector<std::thread> threads;
  std::atomic<int> loaded{0};
  for (int i = 0; i < 8; ++i)
    threads.emplace_back([&] { loaded += libm.load(bindMath) ? 1 : 0; });
  for (auto &t : threads)
    t.join();
  EXPECT_EQ(loaded, 8);
  EXPECT_TRUE(libm.load(bindMath));
  EXPECT_EQ(bindCalls, 1);
  EXPECT_EQ(libm.error(), "");
  ASSERT_NE(math.cos, nullptr);
  ASSERT_NE(math.sqrt, nullptr);
  EXPECT_EQ(math.cos(0.0), 1.0);
  EXPECT_EQ(math.sqrt(49.0), 7.0);
}

TEST(LazyLibrary, MissingSonameNamesItsPackageAndDlerror) {
  EXPECT_FALSE(libAbsent.load(bindAbsent));
  EXPECT_EQ(libAbsent.error(),
            "libfbc-no-such-library.so.1 could not be loaded (Debian package fbc-none): "
            "libfbc-no-such-library.so.1: cannot open shared object file: No such file or "
            "directory");
  // Nothing to bind from a library that is not there, and no second try;
  // load(bindAll, error) hands the same line to a loader's caller.
  EXPECT_FALSE(libAbsent.load(bindAbsent));
  std::string error;
  EXPECT_FALSE(libAbsent.load(bindAbsent, error));
  EXPECT_EQ(error, libAbsent.error());
  EXPECT_EQ(absentBindCalls, 0);
  EXPECT_EQ(absent.cos, nullptr);
}

TEST(LazyLibrary, MissingSymbolNamesTheFirstOneMissing) {
  EXPECT_FALSE(libmPartial.load(bindPartial));
  EXPECT_EQ(libmPartial.error(), "libm.so.6 has no symbol fbc_no_such_function");
  EXPECT_EQ(partial.missing, nullptr);
  // The others are still bound; callers check load() before using any.
  ASSERT_NE(partial.sqrt, nullptr);
  EXPECT_EQ(partial.sqrt(4.0), 2.0);
}
