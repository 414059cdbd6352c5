// The schema checker: see contract_check.h.
#include "runtime/values/contract_check.h"

#include "frontend/eval/thread.h"
#include "frontend/lib/json/json.h"
#include "frontend/lib/numeric.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/printer.h"
#include "ir/quote.h"

#include <algorithm>

namespace fbc::rt {

using star::Value;

namespace {

// The JSON type of a decoded value.
std::string jsonType(Value v) {
  if (v.is(star::Kind::None))
    return "null";
  if (v.as<star::Bool>())
    return "boolean";
  if (v.isInt())
    return "integer";
  if (v.is(star::Kind::Float))
    return "number";
  if (v.as<star::String>())
    return "string";
  if (v.as<star::List>())
    return "array";
  return "object";
}

bool typeFits(const std::string &want, const std::string &got) {
  return want.empty() || want == got || (want == "number" && got == "integer");
}

std::optional<double> number(Value v) {
  if (v.isSmallInt())
    return static_cast<double>(v.smallInt());
  if (auto *f = v.as<star::Float>())
    return f->value;
  return std::nullopt;
}

class Checker {
public:
  Checker(star::Thread &t, const ir::Contract &c) : t_(t), c_(c) {}

  std::string check(const ir::Schema &in, Value v, const std::string &at, int depth) {
    const ir::Schema *s = c_.resolve(in);
    if (!s || depth > 64)
      return "";
    std::string got = jsonType(v);
    if (got == "null") {
      if (s->nullable || s->type.empty())
        return "";
      return at + ": got null, want " + s->type;
    }
    if (!typeFits(s->type, got))
      return at + ": got " + got + ", want " + s->type;
    if (!s->enumJson.empty()) {
      // Compact JSON, as the reader encoded the contract's values.
      std::string mine = star::encodeJson(t_, v);
      if (std::find(s->enumJson.begin(), s->enumJson.end(), mine) == s->enumJson.end()) {
        std::string list;
        for (const std::string &e : s->enumJson)
          list += (list.empty() ? "" : ", ") + e;
        return at + ": " + mine + " is not one of [" + list + "]";
      }
    }
    if (auto n = number(v)) {
      if (s->minimum && *n < *s->minimum)
        return at + ": " + star::str(v) + " is less than the minimum " +
               ir::formatNumber(*s->minimum);
      if (s->maximum && *n > *s->maximum)
        return at + ": " + star::str(v) + " is more than the maximum " +
               ir::formatNumber(*s->maximum);
    }
    if (auto *str = v.as<star::String>()) {
      int64_t len = static_cast<int64_t>(str->view().size());
      if (s->minLength && len < *s->minLength)
        return at + ": string shorter than minLength " + std::to_string(*s->minLength);
      if (s->maxLength && len > *s->maxLength)
        return at + ": string longer than maxLength " + std::to_string(*s->maxLength);
    }
    if (auto *l = v.as<star::List>()) {
      int64_t n = static_cast<int64_t>(l->elems.size());
      if (s->minItems && n < *s->minItems)
        return at + ": " + std::to_string(n) + " items, fewer than minItems " +
               std::to_string(*s->minItems);
      if (s->maxItems && n > *s->maxItems)
        return at + ": " + std::to_string(n) + " items, more than maxItems " +
               std::to_string(*s->maxItems);
      if (s->items)
        for (size_t i = 0; i < l->elems.size(); ++i)
          if (std::string e =
                  check(*s->items, l->elems[i], at + "[" + std::to_string(i) + "]", depth + 1);
              !e.empty())
            return e;
    }
    if (auto *d = v.as<star::Dict>()) {
      auto member = [&](std::string_view key) -> Value {
        for (const star::HashTable::Entry &e : d->table.entries())
          if (auto *k = e.key.as<star::String>(); k && !e.value.isNull() && k->view() == key)
            return e.value;
        return Value();
      };
      for (const std::string &r : s->required)
        if (!member(r))
          return at + ": property " + ir::quote(r) + " is missing";
      for (const auto &[name, ps] : s->properties)
        if (Value m = member(name))
          if (std::string e = check(*ps, m, at + "." + name, depth + 1); !e.empty())
            return e;
      if (s->closed)
        for (const star::HashTable::Entry &e : d->table.entries()) {
          auto *k = e.key.as<star::String>();
          if (!k || e.value.isNull())
            continue;
          bool declared = std::any_of(s->properties.begin(), s->properties.end(),
                                      [&](const auto &p) { return p.first == k->view(); });
          if (!declared)
            return at + ": property " + ir::quote(k->view()) + " is not allowed";
        }
    }
    for (const auto &sub : s->allOf)
      if (std::string e = check(*sub, v, at, depth + 1); !e.empty())
        return e;
    if (!s->anyOf.empty()) {
      bool any = std::any_of(s->anyOf.begin(), s->anyOf.end(), [&](const auto &sub) {
        return check(*sub, v, at, depth + 1).empty();
      });
      if (!any)
        return at + ": matches none of the anyOf schemas";
    }
    if (!s->oneOf.empty()) {
      size_t n = std::count_if(s->oneOf.begin(), s->oneOf.end(), [&](const auto &sub) {
        return check(*sub, v, at, depth + 1).empty();
      });
      if (n != 1)
        return at + ": matches " + std::to_string(n) + " of the oneOf schemas, want exactly 1";
    }
    return "";
  }

private:
  star::Thread &t_;
  const ir::Contract &c_;
};

std::string mediaType(std::string_view contentType) {
  std::string_view ct = contentType.substr(0, contentType.find(';'));
  while (!ct.empty() && ct.back() == ' ')
    ct.remove_suffix(1);
  return ct.empty() ? "application/json" : std::string(ct);
}

// Decodes `body` and checks it against `schema`.
std::string checkJsonBody(star::Thread &t, const ir::Contract &c, const ir::Schema &schema,
                          const std::string &body) {
  Value v;
  try {
    v = star::decodeJson(t, body);
  } catch (const star::EvalError &e) {
    std::string why = e.message();
    if (why.rfind("json.decode: ", 0) == 0)
      why.erase(0, 13);
    return "malformed JSON body: " + why;
  }
  return Checker(t, c).check(schema, v, "body", 0);
}

std::string trimmed(const std::string &s) {
  size_t end = s.find_last_not_of(" \t\r\n");
  return end == std::string::npos ? "" : s.substr(0, end + 1);
}

} // namespace

std::string checkSchema(star::Thread &t, const ir::Contract &c, const ir::Schema &s, Value v,
                        const std::string &at) {
  return Checker(t, c).check(s, v, at, 0);
}

std::string checkResponse(star::Thread &t, const ir::Contract &c, const ir::ContractOperation &op,
                          long status, std::string_view contentType, const std::string &body) {
  if (op.responses.empty())
    return "";
  std::string code = std::to_string(status);
  std::string range = code.size() == 3 ? code.substr(0, 1) + "XX" : "";
  const ir::ContractResponse *r = nullptr;
  for (const std::string &key : {code, range, std::string("default")})
    for (const ir::ContractResponse &x : op.responses)
      if (!r && x.status == key)
        r = &x;
  if (!r) {
    std::string declared;
    for (const ir::ContractResponse &x : op.responses)
      declared += (declared.empty() ? "" : ", ") + x.status;
    return "status " + code + " is not declared for " + op.wire() + " (declared: " + declared + ")";
  }
  if (r->content.empty())
    return ""; // a status-only response: a body anyway is not worth failing over
  std::string ct = mediaType(contentType);
  const ir::ContractResponse::Media *m = nullptr;
  for (const ir::ContractResponse::Media &x : r->content)
    if (x.contentType == ct)
      m = &x;
  if (!m) {
    std::string declared;
    for (const ir::ContractResponse::Media &x : r->content)
      declared += (declared.empty() ? "" : ", ") + x.contentType;
    return "content type " + ir::quote(ct) + " is not declared for " + op.wire() + " " + r->status +
           " (declared: " + declared + ")";
  }
  if (!m->schema || !ir::isJsonMediaType(ct))
    return "";
  std::string b = trimmed(body);
  if (b.empty())
    return "empty body, but " + op.wire() + " " + r->status + " declares a " + ct + " schema";
  return checkJsonBody(t, c, *m->schema, b);
}

std::string checkRequest(star::Thread &t, const ir::Contract &c, const ir::ContractOperation &op,
                         std::string_view contentType, const std::string &body) {
  if (!op.acceptsBody)
    return "";
  std::string b = trimmed(body);
  if (b.empty())
    return op.bodyRequired ? "request body is required" : "";
  if (!op.bodySchema || !ir::isJsonMediaType(mediaType(contentType)))
    return "";
  return checkJsonBody(t, c, *op.bodySchema, b);
}

} // namespace fbc::rt
