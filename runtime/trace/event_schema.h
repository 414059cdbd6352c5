// The typed event schema (runtime/trace/events.def): the event kinds, their
// fields and the fields' types, as enums and lookups. Everything that
// writes, reads or classifies events goes through these: the trace, the
// Starlark view (runtime/values/event_value), outcome classification
// (runtime/trace/outcome), the JSON report, and bundle/'s report data, which
// reads events back from a bundle's trace.json.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string_view>

namespace fbc::rt {

enum class EventType : uint8_t {
#define EVENT(Name, ...) Name,
#include "runtime/trace/events.def"
};

enum class EventField : uint8_t {
#define FIELD(Name, key, Type) Name,
#include "runtime/trace/events.def"
};

// What a field's text holds.
enum class FieldType : uint8_t { Text, Count, Flag, Number };

// How the report groups events (its lanes and filters); a Syscall event is
// further a deny, delay or traced syscall by its decision.
enum class EventClass : uint8_t { Lifecycle, Fault, Step, Syscall, Other };

// "service_started", "syscall", "step_recv", ...
std::string_view eventTypeName(EventType t);
// The kind whose eventTypeName() is `name`; nullopt for a name this version
// does not know (a bundle from a newer fbc).
std::optional<EventType> eventTypeFromName(std::string_view name);
// "lifecycle.started"; "syscall", "step_send", "unmediated_io" are followed
// by "." and their eventSuffix() field's value.
std::string_view eventDottedName(EventType t);
std::optional<EventField> eventSuffix(EventType t);
EventClass eventClass(EventType t);
// "lifecycle", "fault", "step", "syscall", "other".
std::string_view eventClassName(EventClass c);
// The declared fields of `t`, in the order a syscall event writes them.
std::initializer_list<EventField> eventFields(EventType t);
// Whether `t` may carry fields events.def does not list.
bool eventIsOpen(EventType t);
// Whether an event of kind `t` may carry a field named `key`.
bool eventHasField(EventType t, std::string_view key);

// How the report shows an event whose `type` and (for a syscall) decision
// text are these, as a bundle's trace.json has them: its class's name, a
// syscall's "deny" or "delay" when a rule denied or delayed it, "release"
// for an explored leaf's release, "other" for a type it does not know.
std::string_view reportKind(std::string_view type, std::string_view decision);

std::string_view fieldKey(EventField f); // "hits"
FieldType fieldType(EventField f);
std::optional<EventField> fieldFromKey(std::string_view key);

} // namespace fbc::rt
