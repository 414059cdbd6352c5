#include "ir/duration.h"

#include <gtest/gtest.h>

namespace fbc::ir {
namespace {

int64_t parseOk(std::string_view s) {
  std::string error;
  std::optional<int64_t> d = parseDuration(s, error);
  EXPECT_TRUE(d.has_value()) << s << ": " << error;
  return d.value_or(-1);
}

std::string parseError(std::string_view s) {
  std::string error;
  EXPECT_FALSE(parseDuration(s, error).has_value()) << s;
  return error;
}

constexpr int64_t kMs = 1000000;

TEST(Duration, ParsesGoForms) {
  EXPECT_EQ(parseOk("0"), 0);
  EXPECT_EQ(parseOk("500ms"), 500 * kMs);
  EXPECT_EQ(parseOk("1.5s"), 1500 * kMs);
  EXPECT_EQ(parseOk("1m30s"), 90 * kSecond);
  EXPECT_EQ(parseOk("2h"), 7200 * kSecond);
  EXPECT_EQ(parseOk("+5s"), 5 * kSecond);
  EXPECT_EQ(parseOk("-1.5h"), -5400 * kSecond);
  EXPECT_EQ(parseOk("100ns"), 100);
  EXPECT_EQ(parseOk("3us"), 3000);
  EXPECT_EQ(parseOk("3\xC2\xB5s"), 3000); // U+00B5
  EXPECT_EQ(parseOk("3\xCE\xBCs"), 3000); // U+03BC
  EXPECT_EQ(parseOk(".5s"), 500 * kMs);
  EXPECT_EQ(parseOk("1.s"), kSecond);
  EXPECT_EQ(parseOk("1h2m3.004005006s"), 3723004005006);
  EXPECT_EQ(parseOk("9223372036854775807ns"), INT64_MAX);
  EXPECT_EQ(parseOk("-9223372036854775808ns"), INT64_MIN);
}

TEST(Duration, RejectsWithGoMessages) {
  EXPECT_EQ(parseError(""), "time: invalid duration \"\"");
  EXPECT_EQ(parseError("soon"), "time: invalid duration \"soon\"");
  EXPECT_EQ(parseError("5"), "time: missing unit in duration \"5\"");
  EXPECT_EQ(parseError("3d"), "time: unknown unit \"d\" in duration \"3d\"");
  EXPECT_EQ(parseError("."), "time: invalid duration \".\"");
  EXPECT_EQ(parseError("-"), "time: invalid duration \"-\"");
  EXPECT_EQ(parseError("1s 2s"), "time: unknown unit \"s \" in duration \"1s 2s\"");
  EXPECT_EQ(parseError("9223372036854775808ns"),
            "time: invalid duration \"9223372036854775808ns\"");
  EXPECT_EQ(parseError("3\xC3\xA9"), "time: unknown unit \"\\xc3\\xa9\" in duration "
                                     "\"3\\xc3\\xa9\"");
}

TEST(Duration, FormatsAsGo) {
  EXPECT_EQ(formatDuration(0), "0s");
  EXPECT_EQ(formatDuration(1), "1ns");
  EXPECT_EQ(formatDuration(1100), "1.1\xC2\xB5s");
  EXPECT_EQ(formatDuration(500 * kMs), "500ms");
  EXPECT_EQ(formatDuration(1500 * kMs), "1.5s");
  EXPECT_EQ(formatDuration(60 * kSecond), "1m0s");
  EXPECT_EQ(formatDuration(90 * kSecond), "1m30s");
  EXPECT_EQ(formatDuration(7200 * kSecond), "2h0m0s");
  EXPECT_EQ(formatDuration(3723004005006), "1h2m3.004005006s");
  EXPECT_EQ(formatDuration(-1500 * kMs), "-1.5s");
  EXPECT_EQ(formatDuration(INT64_MIN), "-2562047h47m16.854775808s");
}

TEST(Duration, RoundTrips) {
  for (int64_t ns : {int64_t(1), int64_t(999), 1234 * kMs, 61 * kSecond, 3601 * kSecond + 1})
    EXPECT_EQ(parseOk(formatDuration(ns)), ns);
}

} // namespace
} // namespace fbc::ir
