// The lookups of event_schema.h, generated from events.def.
#include "runtime/trace/event_schema.h"

#include "runtime/rules/rules.h"

#include <algorithm>
#include <array>
#include <iterator>

namespace fbc::rt {
namespace {

struct FieldInfo {
  std::string_view key;
  FieldType type;
};

constexpr FieldInfo kFields[] = {
#define FIELD(Name, key, Type) {key, FieldType::Type},
#include "runtime/trace/events.def"
};

struct EventInfo {
  std::string_view type;
  std::string_view dotted;
  std::optional<EventField> suffix;
  EventClass cls;
  bool open;
  std::initializer_list<EventField> fields;
};

namespace table {
using enum EventField;
constexpr std::optional<EventField> NoSuffix;
constexpr bool Open = true, Closed = false;

const EventInfo kEvents[] = {
#define EVENT(Name, type, dotted, Suffix, Class, IsOpen, ...)                                      \
  {type, dotted, Suffix, EventClass::Class, IsOpen, {__VA_ARGS__}},
#include "runtime/trace/events.def"
};
} // namespace table

const EventInfo &info(EventType t) {
  return table::kEvents[static_cast<size_t>(t)];
}

} // namespace

std::string_view eventTypeName(EventType t) {
  return info(t).type;
}

std::optional<EventType> eventTypeFromName(std::string_view name) {
  for (size_t i = 0; i < std::size(table::kEvents); ++i)
    if (table::kEvents[i].type == name)
      return static_cast<EventType>(i);
  return std::nullopt;
}

std::string_view eventDottedName(EventType t) {
  return info(t).dotted;
}
std::optional<EventField> eventSuffix(EventType t) {
  return info(t).suffix;
}
EventClass eventClass(EventType t) {
  return info(t).cls;
}

std::string_view eventClassName(EventClass c) {
  static constexpr std::array<std::string_view, 5> kNames = {"lifecycle", "fault", "step",
                                                             "syscall", "other"};
  return kNames[static_cast<size_t>(c)];
}

std::string_view reportKind(std::string_view type, std::string_view decision) {
  std::optional<EventType> t = eventTypeFromName(type);
  if (!t)
    return eventClassName(EventClass::Other);
  // A release of a held call (fbc run --explore): the schedule the report
  // lays out in release order.
  if (*t == EventType::Release)
    return "release";
  if (eventClass(*t) == EventClass::Syscall) {
    std::optional<ActionKind> k = actionKindOfDecision(decision);
    if (k == ActionKind::Deny || k == ActionKind::Delay)
      return actionWord(*k);
  }
  return eventClassName(eventClass(*t));
}

std::initializer_list<EventField> eventFields(EventType t) {
  return info(t).fields;
}
bool eventIsOpen(EventType t) {
  return info(t).open;
}

bool eventHasField(EventType t, std::string_view key) {
  if (info(t).open)
    return true;
  std::optional<EventField> f = fieldFromKey(key);
  return f && std::find(info(t).fields.begin(), info(t).fields.end(), *f) != info(t).fields.end();
}

std::string_view fieldKey(EventField f) {
  return kFields[static_cast<size_t>(f)].key;
}
FieldType fieldType(EventField f) {
  return kFields[static_cast<size_t>(f)].type;
}

std::optional<EventField> fieldFromKey(std::string_view key) {
  for (size_t i = 0; i < std::size(kFields); ++i)
    if (kFields[i].key == key)
      return static_cast<EventField>(i);
  return std::nullopt;
}

} // namespace fbc::rt
