#include "runtime/values/response_value.h"

#include "frontend/eval/printer.h"
#include "frontend/eval/thread.h"
#include "frontend/lib/json.h"
#include "ir/quote.h"

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

Value ResponseValue::attr(star::Thread &t, std::string_view name) {
  if (name == "status")
    return Value::small(resp.status);
  if (name == "body")
    return star::makeString(t.heap, resp.body);
  if (name == "ok")
    return star::boolean(resp.ok);
  if (name == "error")
    return star::makeString(t.heap, resp.error);
  if (name == "duration_ms")
    return Value::small(resp.durationMs);
  if (name == "headers") {
    auto *d = t.heap.make<star::Dict>();
    for (const auto &[k, v] : resp.headers)
      d->table.set(t, star::makeString(t.heap, k), star::makeString(t.heap, v));
    return Value::object(d);
  }
  if (name == "data") {
    try {
      return star::decodeJson(t, resp.body);
    } catch (const star::EvalError &) {
      return star::makeString(t.heap, resp.body);
    }
  }
  if (name == "client")
    return star::makeString(t.heap, client);
  if (name == "operation")
    return star::makeString(t.heap, operation);
  if (name == "contract_ok")
    return star::boolean(contractOk);
  if (name == "contract_error")
    return star::makeString(t.heap, contractError);
  if (name == "json")
    return Value::object(t.heap.make<star::Builtin>("json", jsonMethod, Value::object(this)));
  return Value();
}

void ResponseValue::attrNames(std::vector<std::string> &out) const {
  out.insert(out.end(), {"body", "client", "contract_error", "contract_ok", "data", "duration_ms",
                         "error", "headers", "json", "ok", "operation", "status"});
}

} // namespace fbc::rt
