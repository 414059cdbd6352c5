// The contract IR's helpers: see contract.h.
#include "ir/contract.h"

#include "ir/json_writer.h"

#include <algorithm>
#include <cctype>

namespace fbc::ir {

std::string ContractOperation::signature() const {
  std::vector<std::string> required, optional;
  for (const ContractParam &p : params)
    (p.required ? required : optional).push_back(p.required ? p.name : p.name + "=…");
  if (acceptsBody)
    (bodyRequired ? required : optional).push_back(bodyRequired ? "body" : "body=…");
  std::string out = name + "(";
  bool first = true;
  for (const auto *list : {&required, &optional})
    for (const std::string &a : *list) {
      out += (first ? "" : ", ") + a;
      first = false;
    }
  return out + ")";
}

const ContractResponse::Media *preferredMedia(const std::vector<ContractResponse::Media> &content) {
  for (const ContractResponse::Media &m : content)
    if (m.contentType == "application/json")
      return &m;
  return content.empty() ? nullptr : &content.front();
}

std::string Contract::id() const {
  return kind + ":" + path + (service.empty() ? "" : "#" + service) +
         (version.empty() ? "" : "@" + version);
}

const ContractOperation *Contract::find(std::string_view name) const {
  auto it =
      std::lower_bound(operations.begin(), operations.end(), name,
                       [](const ContractOperation &op, std::string_view n) { return op.name < n; });
  return it != operations.end() && it->name == name ? &*it : nullptr;
}

const ContractOperation *Contract::findByContractName(std::string_view name) const {
  for (const ContractOperation &op : operations)
    if (op.contractName == name)
      return &op;
  return nullptr;
}

const Schema *Contract::resolve(const Schema &s) const {
  const Schema *cur = &s;
  for (int hops = 0; cur && !cur->ref.empty() && hops < 32; ++hops) {
    auto it = schemas.find(cur->ref);
    cur = it == schemas.end() ? nullptr : it->second.get();
  }
  return cur && cur->ref.empty() ? cur : nullptr;
}

std::string canonicalName(std::string_view raw) {
  auto upper = [](char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; };
  auto lower = [](char c) { return std::islower(static_cast<unsigned char>(c)) != 0; };
  auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
  std::vector<std::string> words;
  std::string cur;
  auto flush = [&] {
    if (!cur.empty())
      words.push_back(std::move(cur));
    cur.clear();
  };
  for (size_t i = 0; i < raw.size(); ++i) {
    char c = raw[i];
    if (upper(c)) {
      // A word starts at an upper-case letter after a lower-case one or a
      // digit, or at the last capital of a run followed by a lower-case
      // letter (HTTPServer: http|server).
      if (!cur.empty()) {
        char prev = raw[i - 1];
        bool nextLower = i + 1 < raw.size() && lower(raw[i + 1]);
        if (lower(prev) || digit(prev) || (upper(prev) && nextLower))
          flush();
      }
      cur += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (lower(c) || digit(c)) {
      cur += c;
    } else {
      flush();
    }
  }
  flush();
  std::string out;
  for (const std::string &w : words)
    out += (out.empty() ? "" : "_") + w;
  if (!out.empty() && digit(out[0]))
    out = "op_" + out;
  return out;
}

namespace {

// Compact JSON, spliced from text: examples are JSON already.
void synthesize(const Contract &c, const Schema &in, int depth, std::string &out) {
  const Schema *s = c.resolve(in);
  if (!s || depth > 16) {
    out += "{}";
    return;
  }
  if (!s->defaultJson.empty() || !s->exampleJson.empty() || !s->enumJson.empty()) {
    out += !s->defaultJson.empty()   ? s->defaultJson
           : !s->exampleJson.empty() ? s->exampleJson
                                     : s->enumJson.front();
  } else if (s->type == "string") {
    out += "\"\"";
  } else if (s->type == "integer" || s->type == "number") {
    out += "0";
  } else if (s->type == "boolean") {
    out += "false";
  } else if (s->type == "array") {
    out += "[";
    if (s->items)
      synthesize(c, *s->items, depth + 1, out);
    out += "]";
  } else if (s->type == "object" || !s->properties.empty()) {
    std::vector<const std::pair<std::string, std::shared_ptr<Schema>> *> props;
    for (const auto &p : s->properties)
      props.push_back(&p);
    std::sort(props.begin(), props.end(), [](auto *a, auto *b) { return a->first < b->first; });
    out += "{";
    for (const auto *p : props) {
      if (out.back() != '{')
        out += ",";
      writeJsonString(out, p->first);
      out += ":";
      synthesize(c, *p->second, depth + 1, out);
    }
    out += "}";
  } else if (!s->allOf.empty()) {
    synthesize(c, *s->allOf.front(), depth + 1, out);
  } else if (!s->anyOf.empty() || !s->oneOf.empty()) {
    synthesize(c, *(s->anyOf.empty() ? s->oneOf : s->anyOf).front(), depth + 1, out);
  } else {
    out += "{}";
  }
}

} // namespace

std::string synthesizeJson(const Contract &c, const Schema &s, int depth) {
  std::string out;
  synthesize(c, s, depth, out);
  return out;
}

namespace {

// The primary response: 200, 201, 202, 203, 204, default, any 2XX, the first.
const ContractResponse *primaryResponse(const ContractOperation &op) {
  for (const char *k : {"200", "201", "202", "203", "204", "default"})
    for (const ContractResponse &r : op.responses)
      if (r.status == k)
        return &r;
  for (const ContractResponse &r : op.responses)
    if (r.status.starts_with("2"))
      return &r;
  return op.responses.empty() ? nullptr : &op.responses.front();
}

int64_t statusOf(const std::string &key) {
  int64_t n = 0;
  for (char c : key) {
    if (c < '0' || c > '9')
      return 200;
    n = n * 10 + (c - '0');
  }
  return n == 0 ? 200 : n;
}

} // namespace

std::optional<ContractExample> contractExample(const Contract &c, const ContractOperation &op,
                                               std::string_view examples, std::string &error) {
  const ContractResponse *r = primaryResponse(op);
  if (!r) {
    error = op.wire() + ": operation has no responses";
    return std::nullopt;
  }
  ContractExample out;
  out.status = statusOf(r->status);
  const ContractResponse::Media *m = preferredMedia(r->content);
  if (!m)
    return out;
  out.contentType = m->contentType;
  std::string json;
  if (!examples.empty() && examples != "first" && examples != "synthesize") {
    auto it = m->examples.find(std::string(examples));
    if (it != m->examples.end())
      json = it->second;
  }
  if (json.empty())
    json = !m->exampleJson.empty() ? m->exampleJson
           : !m->examples.empty()  ? m->examples.begin()->second
                                   : "";
  if (json.empty() && examples == "synthesize" && m->schema)
    json = synthesizeJson(c, *m->schema);
  if (json.empty()) {
    error = op.wire() + ": no example declared (set examples=\"synthesize\" to fall back to "
                        "schema-based values)";
    return std::nullopt;
  }
  out.body = std::move(json);
  return out;
}

} // namespace fbc::ir
