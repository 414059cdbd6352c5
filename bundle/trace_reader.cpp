// trace.json's rows: see trace_reader.h.
#include "bundle/trace_reader.h"

#include "ir/quote.h"

#include <simdjson.h>

namespace fbc::bundle {

namespace {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::object;

llvm::Error fail(const std::string &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", msg.c_str());
}

std::string text(element v) {
  std::string_view s;
  if (!v.get(s))
    return std::string(s);
  return simdjson::minify(v);
}

std::string stringAt(object o, const char *key) {
  std::string_view s;
  return o[key].get(s) ? std::string() : std::string(s);
}

TraceEventRow eventOf(object e) {
  TraceEventRow ev;
  ev.service = stringAt(e, "service");
  ev.type = stringAt(e, "type");
  ev.eventType = stringAt(e, "event_type");
  object fields;
  if (!e["fields"].get(fields))
    for (auto [k, v] : fields)
      ev.fields.emplace_back(std::string(k), text(v));
  return ev;
}

// "operations": {service: [{syscall, target, calls}]}.
void readOperations(object t, TraceRow &row) {
  object ops;
  if (t["operations"].get(ops))
    return;
  for (auto [svc, list] : ops) {
    array a;
    if (list.get(a))
      continue;
    std::vector<TraceOperation> &out = row.operations[std::string(svc)];
    for (element x : a) {
      object o;
      TraceOperation op;
      if (x.get(o) || o["calls"].get(op.calls))
        continue;
      op.syscall = stringAt(o, "syscall");
      op.target = stringAt(o, "target");
      out.push_back(std::move(op));
    }
  }
}

} // namespace

std::string_view TraceEventRow::field(std::string_view key) const {
  for (const auto &[k, v] : fields)
    if (k == key)
      return v;
  return {};
}

llvm::Expected<std::vector<TraceRow>> readTraceRows(const OpenedBundle &b) {
  const Entry *trace = b.contents.find("trace.json");
  if (!trace)
    return fail("bundle " + ir::quote(b.path) + " has no trace.json");
  simdjson::dom::parser parser;
  element root;
  array tests;
  if (parser.parse(trace->data).get(root) || root["tests"].get(tests))
    return fail("bundle " + ir::quote(b.path) + ": trace.json is not a run report");
  std::vector<TraceRow> rows;
  for (element e : tests) {
    object t;
    std::string_view name, leaf;
    if (e.get(t) || t["name"].get(name))
      return fail("bundle " + ir::quote(b.path) + ": a trace.json test has no name");
    TraceRow row;
    row.name = std::string(name);
    if (!t["leaf_id"].get(leaf))
      row.leafId = std::string(leaf);
    row.result = stringAt(t, "result");
    array events;
    if (!t["events"].get(events))
      for (element x : events) {
        object o;
        if (!x.get(o))
          row.events.push_back(eventOf(o));
      }
    readOperations(t, row);
    rows.push_back(std::move(row));
  }
  return rows;
}

} // namespace fbc::bundle
