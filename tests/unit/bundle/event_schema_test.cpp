// The typed event schema (runtime/trace/events.def): its tables are
// consistent, every event in the e2e goldens (every JSON report and bundle
// trace the run writes there) has a kind and fields the schema declares, with
// values of the declared types, and the report's event kinds follow from it.
#include "runtime/rules/rules.h"
#include "runtime/trace/event_schema.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace fbc::rt {
namespace {

constexpr size_t kEventKinds = size_t(EventType::Release) + 1;

TEST(EventSchema, NamesAndKeysAreUniqueAndRoundTrip) {
  std::set<std::string_view> types;
  for (size_t i = 0; i < kEventKinds; ++i) {
    auto t = static_cast<EventType>(i);
    EXPECT_TRUE(types.insert(eventTypeName(t)).second) << eventTypeName(t);
    EXPECT_EQ(eventTypeFromName(eventTypeName(t)), t);
    for (EventField f : eventFields(t)) {
      EXPECT_EQ(fieldFromKey(fieldKey(f)), f);
      EXPECT_TRUE(eventHasField(t, fieldKey(f)));
    }
    if (std::optional<EventField> s = eventSuffix(t)) {
      const auto fields = eventFields(t);
      EXPECT_NE(std::find(fields.begin(), fields.end(), *s), fields.end()) << eventTypeName(t);
    }
  }
  EXPECT_FALSE(eventTypeFromName("no_such_event"));
  EXPECT_FALSE(eventHasField(EventType::FaultRemoved, "errno"));
  EXPECT_TRUE(eventHasField(EventType::Stdout, "any_decoder_field"));
}

TEST(EventSchema, DecisionsClassifyByTheirActionKind) {
  for (Action a : {Action::allow(), Action::deny(EIO), Action::deny(4095), Action::delay(500000000),
                   Action::trace()})
    EXPECT_EQ(actionKindOfDecision(describeAction(a)), a.kind) << describeAction(a);
  EXPECT_EQ(actionKindOfDecision("allow (system path)"), ActionKind::Allow);
  EXPECT_FALSE(actionKindOfDecision("denied"));
  EXPECT_EQ(reportKind("syscall", "deny(input/output error)"), "deny");
  EXPECT_EQ(reportKind("syscall", "delay(1s)"), "delay");
  EXPECT_EQ(reportKind("syscall", "trace"), "syscall");
  EXPECT_EQ(reportKind("fault_zero_traffic", ""), "fault");
  EXPECT_EQ(reportKind("proxy_fault_applied", ""), "fault");
  EXPECT_EQ(reportKind("service_stopped", ""), "lifecycle");
  EXPECT_EQ(reportKind("step_recv", ""), "step");
  EXPECT_EQ(reportKind("mock", ""), "other");
  EXPECT_EQ(reportKind("release", ""), "release");
  EXPECT_EQ(reportKind("from_a_newer_fbc", ""), "other");
}

// Whether `v` is a value of type `t` as the outputs write it. Goldens
// replace run-dependent numbers by N.
bool ofType(FieldType t, const std::string &v) {
  static const std::regex count("[0-9]+|N"), number("[0-9]+(\\.[0-9]+)?|N");
  switch (t) {
  case FieldType::Text:
    return true;
  case FieldType::Count:
    return std::regex_match(v, count);
  case FieldType::Flag:
    return v == "true" || v == "false";
  case FieldType::Number:
    return std::regex_match(v, number);
  }
  return false;
}

void checkEvents(simdjson::dom::element e, const std::string &file, size_t &seen) {
  using simdjson::dom::element_type;
  if (e.type() == element_type::ARRAY) {
    for (simdjson::dom::element x : e.get_array())
      checkEvents(x, file, seen);
    return;
  }
  if (e.type() != element_type::OBJECT)
    return;
  std::string_view type;
  simdjson::dom::object fields;
  if (!e["type"].get(type) && !e["fields"].get(fields) && !e["seq"].error()) {
    ++seen;
    std::optional<EventType> t = eventTypeFromName(type);
    ASSERT_TRUE(t) << file << ": unknown event type " << type;
    for (auto [key, value] : fields) {
      EXPECT_TRUE(eventHasField(*t, key)) << file << ": " << type << " has undeclared " << key;
      std::string_view text;
      std::optional<EventField> f = fieldFromKey(key);
      if (f && !value.get(text)) {
        EXPECT_TRUE(ofType(fieldType(*f), std::string(text)))
            << file << ": " << type << "." << key << " = " << text;
      }
    }
    return;
  }
  for (auto [key, value] : e.get_object())
    checkEvents(value, file, seen);
}

TEST(EventSchema, EveryGoldenEventIsDeclared) {
  namespace fs = std::filesystem;
  size_t seen = 0;
  simdjson::dom::parser parser;
  for (const auto &entry : fs::recursive_directory_iterator(FBC_E2E_DIR)) {
    if (entry.path().extension() != ".json")
      continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    // Goldens write run-dependent numbers as a bare N.
    std::string json = std::regex_replace(text.str(), std::regex(": N\\b"), ": 0");
    simdjson::dom::element root;
    if (parser.parse(json).get(root))
      continue; // not a JSON document (a template)
    checkEvents(root, entry.path().string(), seen);
  }
  EXPECT_GT(seen, 500u); // the goldens hold the run's events
}

} // namespace
} // namespace fbc::rt
