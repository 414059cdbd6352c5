#include "runtime/values/response_value.h"

#include "frontend/eval/thread.h"
#include "frontend/lib/attr_table.h"
#include "frontend/lib/json/json.h"
#include "frontend/lib/printer.h"
#include "ir/quote.h"
#include "runtime/values/fixed_attribute.h"

namespace fbc::rt {

using star::Value;

namespace {

Value jsonMethod(star::Thread &t, Value self, const star::Args &args) {
  if (!args.positional.empty() || !args.kwargs.empty())
    t.fail("json: got " + std::to_string(args.positional.size() + args.kwargs.size()) +
           " arguments, want 0");
  auto *r = asResponse(self);
  return star::decodeJson(t, r ? r->resp.body : "");
}

} // namespace

ResponseValue *asResponse(Value v) {
  if (!v.isObject() || v.kind() != star::Kind::Host ||
      v.obj()->typeName() != ResponseValue::kTypeName)
    return nullptr;
  return static_cast<ResponseValue *>(v.obj());
}

void ResponseValue::repr(star::Printer &p) const {
  if (resp.ok) {
    p.write("<response status=" + std::to_string(resp.status) + ">");
    return;
  }
  p.write("<response error=" + ir::quote(resp.error) + ">");
}

namespace {

using Self = ResponseValue;
constexpr star::Attribute<Self> kAttributes[] = {
    {"body", [](Self &r, star::Thread &t) { return star::makeString(t.heap, r.resp.body); }},
    {"client", [](Self &r, star::Thread &t) { return star::makeString(t.heap, r.client); }},
    {"contract_error",
     [](Self &r, star::Thread &t) { return star::makeString(t.heap, r.contractError); }},
    {"contract_ok", [](Self &r, star::Thread &) { return star::boolean(r.contractOk); }},
    {"data",
     [](Self &r, star::Thread &t) {
       try {
         return star::decodeJson(t, r.resp.body);
       } catch (const star::EvalError &) {
         return star::makeString(t.heap, r.resp.body);
       }
     }},
    {"duration_ms", [](Self &r, star::Thread &) { return Value::small(r.resp.durationMs); }},
    {"error", [](Self &r, star::Thread &t) { return star::makeString(t.heap, r.resp.error); }},
    {"headers",
     [](Self &r, star::Thread &t) {
       auto *d = t.heap.make<star::Dict>();
       for (const auto &[k, v] : r.resp.headers)
         d->table.set(t, star::makeString(t.heap, k), star::makeString(t.heap, v));
       return Value::object(d);
     }},
    {"json",
     [](Self &r, star::Thread &t) {
       return Value::object(t.heap.make<star::Builtin>("json", jsonMethod, Value::object(&r)));
     }},
    {"ok", [](Self &r, star::Thread &) { return star::boolean(r.resp.ok); }},
    {"operation", [](Self &r, star::Thread &t) { return star::makeString(t.heap, r.operation); }},
    {"status", [](Self &r, star::Thread &) { return Value::small(r.resp.status); }},
};

} // namespace

Value ResponseValue::attr(star::Thread &t, std::string_view name) {
  return fixedAttribute<Self>(kAttributes, *this, t, name);
}

void ResponseValue::attrNames(std::vector<std::string> &out) const {
  star::attributeNames<Self>(kAttributes, out);
}

} // namespace fbc::rt
