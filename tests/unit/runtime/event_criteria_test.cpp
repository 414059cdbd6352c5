// The one criteria matcher (runtime/values/event_value.h matchesFilters) in its two
// kinds: the body's events() filters and match.event() matchers, which
// differ only on an absent field and an empty pattern.
#include "runtime/values/event_value.h"

#include <gtest/gtest.h>

namespace fbc::rt {
namespace {

FlatEvent event() {
  FlatEvent e;
  e.type = "stdout";
  e.eventType = "stdout.line";
  e.service = "api";
  e.fields = {{"event", "payment"}, {"count", "12"}};
  return e;
}

bool filter(const Filters &f) {
  return matchesFilters(event(), f, Criteria::Filter);
}

bool matcher(const Filters &f) {
  return matchesFilters(event(), f, Criteria::Matcher);
}

TEST(EventCriteria, TypeServiceAndFieldsInBothKinds) {
  for (auto match : {filter, matcher}) {
    EXPECT_TRUE(match({{"type", "stdout"}}));
    EXPECT_TRUE(match({{"type", "stdout.line"}}));
    EXPECT_TRUE(match({{"type", "std*"}, {"service", "api"}, {"event", "pay*"}}));
    EXPECT_FALSE(match({{"type", "stdout"}, {"service", "db"}}));
    EXPECT_FALSE(match({{"count", "1"}}));
    EXPECT_TRUE(match({{"count", "1?"}}));
    EXPECT_TRUE(match({}));
  }
}

TEST(EventCriteria, AnAbsentFieldIsEmptyOnlyToAMatcher) {
  EXPECT_FALSE(filter({{"missing", "*"}}));
  EXPECT_TRUE(matcher({{"missing", "*"}}));
  EXPECT_FALSE(matcher({{"missing", "x*"}}));
}

TEST(EventCriteria, AnEmptyPatternIsSkippedOnlyByAMatcher) {
  EXPECT_FALSE(filter({{"service", ""}}));
  EXPECT_TRUE(matcher({{"service", ""}, {"type", "stdout"}}));
  EXPECT_FALSE(matcher({{"service", ""}, {"type", "stderr"}}));
}

} // namespace
} // namespace fbc::rt
