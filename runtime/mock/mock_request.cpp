#include "runtime/mock/mock_request.h"

#include "frontend/eval/thread.h"
#include "frontend/lib/attr_table.h"
#include "frontend/lib/json/json.h"
#include "frontend/lib/printer.h"
#include "ir/quote.h"

namespace fbc::rt {

using star::Value;

namespace {

Value dictOf(star::Thread &t, const std::vector<std::pair<std::string, std::string>> &kv) {
  auto *d = t.heap.make<star::Dict>();
  for (const auto &[k, v] : kv)
    d->table.set(t, star::makeString(t.heap, k), star::makeString(t.heap, v));
  return Value::object(d);
}

MockRequestValue *self(Value v) {
  return static_cast<MockRequestValue *>(v.obj());
}

Value jsonMethod(star::Thread &t, Value s, const star::Args &args) {
  if (!args.positional.empty() || !args.kwargs.empty())
    t.fail("json: got " + std::to_string(args.positional.size() + args.kwargs.size()) +
           " arguments, want 0");
  return star::decodeJson(t, self(s)->req.body);
}

// req.get(key, default=None), as on the reference's request dict.
Value getMethod(star::Thread &t, Value s, const star::Args &args) {
  if (args.positional.empty() || args.positional.size() > 2 || !args.kwargs.empty())
    t.fail("get: want 1 or 2 positional arguments");
  Value v = self(s)->attr(t, args.positional[0].as<star::String>()
                                 ? args.positional[0].as<star::String>()->view()
                                 : std::string_view());
  if (v && !v.as<star::Builtin>())
    return v;
  return args.positional.size() == 2 ? args.positional[1] : star::none();
}

} // namespace

std::string canonicalHeaderName(std::string_view name) {
  std::string out(name);
  bool upper = true;
  for (char &c : out) {
    if (upper && c >= 'a' && c <= 'z')
      c = static_cast<char>(c - 'a' + 'A');
    else if (!upper && c >= 'A' && c <= 'Z')
      c = static_cast<char>(c - 'A' + 'a');
    upper = c == '-';
  }
  return out;
}

void MockRequestValue::repr(star::Printer &p) const {
  p.write("<mock_request " + req.method + " " + ir::quote(req.path) + ">");
}

namespace {

using Req = MockRequestValue;
constexpr star::Attribute<Req> kAttributes[] = {
    {"body", [](Req &r, star::Thread &t) { return star::makeString(t.heap, r.req.body); }},
    {"get",
     [](Req &r, star::Thread &t) {
       return Value::object(t.heap.make<star::Builtin>("get", getMethod, Value::object(&r)));
     }},
    {"headers", [](Req &r, star::Thread &t) { return dictOf(t, r.req.headers); }},
    {"json",
     [](Req &r, star::Thread &t) {
       return Value::object(t.heap.make<star::Builtin>("json", jsonMethod, Value::object(&r)));
     }},
    {"method", [](Req &r, star::Thread &t) { return star::makeString(t.heap, r.req.method); }},
    {"path", [](Req &r, star::Thread &t) { return star::makeString(t.heap, r.req.path); }},
    {"query", [](Req &r, star::Thread &t) { return dictOf(t, r.req.query); }},
};

} // namespace

Value MockRequestValue::attr(star::Thread &t, std::string_view name) {
  return star::lookupAttribute<Req>(kAttributes, *this, t, name);
}

void MockRequestValue::attrNames(std::vector<std::string> &out) const {
  star::attributeNames<Req>(kAttributes, out);
}

Value MockRequestValue::index(star::Thread &t, Value key) {
  auto *k = key.as<star::String>();
  static const std::string_view fields[] = {"method", "path", "body", "query", "headers"};
  if (k)
    for (std::string_view f : fields)
      if (k->view() == f)
        return attr(t, f);
  t.fail("mock_request has no field " + star::repr(key) +
         " (fields: method, path, query, headers, body)");
}

} // namespace fbc::rt
