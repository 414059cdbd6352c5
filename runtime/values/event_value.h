// A trace event as the test body sees it (events(), assert_eventually(),
// assert_never()): .seq (int), .type ("syscall", "step_recv", ...),
// .event_type ("syscall.write", "lifecycle.started", ...), .service,
// .fields (dict of strings), and any field by name (.syscall, .decision,
// .path, .status_code, ...; "" when absent, as in the reference).
#pragma once

#include "frontend/lib/objects.h"
#include "runtime/trace/trace.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace fbc::rt {

struct FlatEvent {
  uint64_t seq = 0;
  int64_t timeNs = 0; // since the trace's start
  std::string type, eventType, service;
  std::vector<std::pair<std::string, std::string>> fields;
  const std::string *field(std::string_view name) const;
};

// `e` with its service named by `names` (ServiceId -> name; "test" for the
// test's own events): the one flat form of an event, used by the JSON
// report and the body's event queries.
FlatEvent flattenEvent(const TraceEvent &e, const std::vector<std::string> &names);

// A filter pattern with a glob character is matched as a glob (fnmatch),
// otherwise exactly.
bool matchPattern(const std::string &pattern, const std::string &value);

using Filters = std::vector<std::pair<std::string, std::string>>;
// Where the two kinds of criteria differ: the body's events() filters never
// match a field the event lacks; a match.event() matcher (the reference's)
// matches it as "" and skips an empty pattern.
enum class Criteria { Filter, Matcher };
// `type` matches the short or the dotted type, `service` the service name,
// any other key the event's field of that name.
bool matchesFilters(const FlatEvent &f, const Filters &filters, Criteria kind = Criteria::Filter);

class EventValue final : public star::Object {
public:
  static constexpr star::Kind kKind = star::Kind::Host;
  static constexpr bool kNeedsDestroy = true;
  static constexpr std::string_view kTypeName = "event";
  explicit EventValue(FlatEvent e) : star::Object(star::Kind::Host), ev(std::move(e)) { freeze(); }
  std::string_view typeName() const override { return kTypeName; }
  void repr(star::Printer &p) const override;
  star::Value attr(star::Thread &t, std::string_view name) override;
  void attrNames(std::vector<std::string> &out) const override;

  FlatEvent ev;
  // A monitor's or the trace object's event (the reference's EventVal): a
  // missing field is an error (`event has no attribute "x"`), not "".
  bool strict = false;
};

} // namespace fbc::rt
