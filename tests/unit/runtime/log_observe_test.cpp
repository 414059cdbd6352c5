// The log decoders (runtime/trace/log_observe.h): the fields each makes of a line.
#include "runtime/trace/log_observe.h"

#include <gtest/gtest.h>

namespace fbc::rt {
namespace {

LogFields decode(const char *decoder, std::string_view line, const char *pattern = "") {
  ir::ObserveSource src;
  src.stream = "stdout";
  src.decoder = decoder;
  src.pattern = pattern;
  return LineDecoder(src).decode(line);
}

using F = LogFields;

TEST(LogDecoder, JsonObjectMembersInOrderThenData) {
  EXPECT_EQ(decode("json", R"({"level":"warn","n":3,"ok":true,"x":null,"o":{"a":[1]}})"),
            (F{{"level", "warn"},
               {"n", "3"},
               {"ok", "true"},
               {"x", "null"},
               {"o", R"({"a":[1]})"},
               {"data", R"({"level":"warn","n":3,"ok":true,"x":null,"o":{"a":[1]}})"}}));
}

TEST(LogDecoder, JsonThatIsNotAnObjectIsOnlyData) {
  EXPECT_EQ(decode("json", "plain text"), (F{{"data", "plain text"}}));
  EXPECT_EQ(decode("json", "[1, 2]"), (F{{"data", "[1, 2]"}}));
}

TEST(LogDecoder, LogfmtPairsQuotedValuesAndData) {
  EXPECT_EQ(decode("logfmt", R"(level=info msg="order created" id=7 id=8)"),
            (F{{"level", "info"},
               {"msg", "order created"},
               {"id", "8"},
               {"data", R"({"level": "info", "msg": "order created", "id": "8"})"}}));
  // A key runs to the next '=', so a stray word joins it (the reference's
  // reading); text without '=' ends the pairs.
  EXPECT_EQ(decode("logfmt", "a=1 oops b=2 tail"),
            (F{{"a", "1"}, {"oops b", "2"}, {"data", R"({"a": "1", "oops b": "2"})"}}));
}

TEST(LogDecoder, RegexNamedGroupsInPatternOrderElseRaw) {
  const char *p = R"(^(?P<level>[A-Z]+) (?P<msg>.*)$)";
  EXPECT_EQ(decode("regex", "ERROR disk full", p),
            (F{{"level", "ERROR"},
               {"msg", "disk full"},
               {"data", R"({"level": "ERROR", "msg": "disk full"})"}}));
  EXPECT_EQ(decode("regex", "no match here", p), (F{{"raw", "no match here"}}));
}

TEST(LogDecoder, NoDecoderIsRaw) {
  EXPECT_EQ(decode("", R"({"a":1})"), (F{{"raw", R"({"a":1})"}}));
}

} // namespace
} // namespace fbc::rt
