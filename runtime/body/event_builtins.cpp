// The body-time builtins that query the test's trace: events(),
// assert_eventually(), assert_never() and assert_before().
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "ir/builtins/binder.h"
#include "ir/quote.h"
#include "runtime/body/builtin_args.h"
#include "runtime/driver/executor.h"
#include "runtime/supervisor/supervisor.h"
#include "runtime/values/event_value.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace fbc::rt {

using star::Value;

namespace {

// syscall="write", service="db"
std::string filterText(const Filters &filters) {
  std::string out;
  for (const auto &[k, v] : filters) {
    out += out.empty() ? "" : ", ";
    out += k + "=" + ir::quote(v);
  }
  return out;
}

} // namespace

std::vector<std::string> Executor::serviceNames() const {
  std::vector<std::string> names;
  for (const ir::Service &svc : loaded_.spec().services)
    names.push_back(svc.name);
  for (const ir::Client &c : loaded_.spec().clients) // their trace ids follow the services'
    names.push_back(c.name);
  return names;
}

Value Executor::queryEvents(star::Thread &t, std::string_view who, const star::Args &args) {
  std::string w(who);
  if (!args.positional.empty())
    failBadArgument(
        t, w + "(): takes only keyword arguments (filters such as syscall=\"write\", or where=)");
  Filters filters;
  Value where;
  // where=, and every other keyword a filter on an event field.
  ir::builtins::bindKeywords(
      ir::builtins::BindCall(t, args, {w}), {{"where"}, {ir::builtins::kOtherKeywords}},
      [&](size_t i, const ir::builtins::Arg &a) {
        if (i == 0) {
          if (!a.value.isObject() || !a.value.obj()->callable())
            failBadArgument(t, w + "(): where= must be a callable, got " +
                                   std::string(star::typeName(a.value)));
          where = a.value;
          return;
        }
        std::string key(a.name);
        filters.emplace_back(key, strArg(t, a.value, w + "(): " + key + "="));
      });
  sup_->pumpObservedOutput();
  std::vector<std::string> names = serviceNames();
  std::vector<Value> found;
  std::optional<FlatEvent> first;
  for (const TraceEvent &e : sup_->trace().events()) {
    FlatEvent f = flattenEvent(e, names);
    if (!matchesFilters(f, filters))
      continue;
    Value ev = Value::object(t.heap.make<EventValue>(f));
    if (where && !star::truth(star::call(t, where, llvm::ArrayRef<Value>{ev})))
      continue;
    if (!first)
      first = f;
    found.push_back(ev);
    if (who == "assert_never")
      break;
  }
  if (who == "assert_eventually" && found.empty())
    t.fail(filters.empty() && where ? "assert_eventually: no event matched where= predicate"
                                    : "assert_eventually: no matching event found (filters: " +
                                          filterText(filters) + ")");
  if (who == "assert_never" && first) {
    std::string what = "service=" + first->service;
    for (const char *k : {"syscall", "decision", "path"})
      if (const std::string *v = first->field(k))
        what += std::string(" ") + k + "=" + *v;
    // An observed log line names the line itself (runtime/trace/log_observe.h).
    if (first->type == "stdout" || first->type == "stderr")
      for (const char *k : {"raw", "data"})
        if (const std::string *v = first->field(k))
          what += " " + first->type + "=" + *v;
    if (where && filters.empty())
      t.fail("assert_never: found matching event #" + std::to_string(first->seq) +
             " via where= predicate");
    t.fail("assert_never: found matching event #" + std::to_string(first->seq) + " (" + what + ")");
  }
  if (who != "events")
    return star::none();
  return Value::object(t.heap.make<star::List>(std::move(found)));
}

// assert_before(first={...}, then={...}): the first syscall event matching
// `first` comes before the first one matching `then`.
Value Executor::assertBefore(star::Thread &t, std::string_view, const star::Args &args) {
  constexpr std::string_view kRequires =
      "assert_before: requires first={...} and then={...} keyword arguments";
  if (!args.positional.empty())
    failBadArgument(t, std::string(kRequires));
  Value first, then;
  ir::builtins::bindKeywords(
      ir::builtins::BindCall(
          t, args,
          ir::builtins::Wording::own("assert_before",
                                     [](std::string_view fn, std::string_view k) {
                                       return std::string(fn) + ": unexpected keyword " +
                                              ir::quote(k) + " (want first= and then=)";
                                     })),
      {{"first", ir::builtins::Required, kRequires}, {"then", ir::builtins::Required, kRequires}},
      [&](size_t i, const ir::builtins::Arg &a) { (i == 0 ? first : then) = a.value; });
  auto filtersOf = [&](const char *which, Value v) {
    auto *d = v.as<star::Dict>();
    if (!d)
      failBadArgument(t, std::string("assert_before: ") + which +
                             "= must be a dict of filters, got " + std::string(star::typeName(v)));
    Filters out;
    for (const auto &e : d->table.entries())
      if (e.value)
        out.emplace_back(strArg(t, e.key, std::string("assert_before: ") + which + "= key"),
                         strArg(t, e.value, std::string("assert_before: ") + which + "= value"));
    return out;
  };
  Filters a = filtersOf("first", first), b = filtersOf("then", then);
  std::vector<std::string> names = serviceNames();
  std::optional<uint64_t> seqA, seqB;
  for (const TraceEvent &e : sup_->trace().events()) {
    if (e.type != EventType::Syscall)
      continue;
    FlatEvent f = flattenEvent(e, names);
    if (!seqA && matchesFilters(f, a))
      seqA = f.seq;
    if (!seqB && matchesFilters(f, b))
      seqB = f.seq;
  }
  if (!seqA)
    t.fail("assert_before: no event matching 'first' filters (" + filterText(a) + ")");
  if (!seqB)
    t.fail("assert_before: no event matching 'then' filters (" + filterText(b) + ")");
  if (*seqA >= *seqB)
    t.fail("assert_before: 'first' event (seq=" + std::to_string(*seqA) +
           ") did not occur before 'then' event (seq=" + std::to_string(*seqB) + ")");
  return star::none();
}

} // namespace fbc::rt
