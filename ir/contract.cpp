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

std::string Contract::id() const {
  return kind + ":" + path + (version.empty() ? "" : "@" + version);
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

void synthesize(const Contract &c, const Schema &in, int depth, JsonWriter &w);

// Writes compact JSON text as a value of `w` (an example kept as JSON).
void rawValue(JsonWriter &w, const std::string &json);

} // namespace

std::string synthesizeJson(const Contract &c, const Schema &s, int depth) {
  std::string out;
  {
    JsonWriter w(out, 0);
    synthesize(c, s, depth, w);
  }
  return out;
}

namespace {

void synthesize(const Contract &c, const Schema &in, int depth, JsonWriter &w) {
  const Schema *s = c.resolve(in);
  if (!s || depth > 16) {
    w.beginObject().endObject();
    return;
  }
  if (!s->defaultJson.empty())
    return rawValue(w, s->defaultJson);
  if (!s->exampleJson.empty())
    return rawValue(w, s->exampleJson);
  if (!s->enumJson.empty())
    return rawValue(w, s->enumJson.front());
  if (s->type == "string") {
    w.value("");
  } else if (s->type == "integer" || s->type == "number") {
    w.value(int64_t(0));
  } else if (s->type == "boolean") {
    w.value(false);
  } else if (s->type == "array") {
    w.beginArray();
    if (s->items)
      synthesize(c, *s->items, depth + 1, w);
    w.endArray();
  } else if (s->type == "object" || !s->properties.empty()) {
    std::vector<const std::pair<std::string, std::shared_ptr<Schema>> *> props;
    for (const auto &p : s->properties)
      props.push_back(&p);
    std::sort(props.begin(), props.end(), [](auto *a, auto *b) { return a->first < b->first; });
    w.beginObject();
    for (const auto *p : props) {
      w.key(p->first);
      synthesize(c, *p->second, depth + 1, w);
    }
    w.endObject();
  } else if (!s->allOf.empty()) {
    synthesize(c, *s->allOf.front(), depth + 1, w);
  } else if (!s->anyOf.empty() || !s->oneOf.empty()) {
    synthesize(c, *(s->anyOf.empty() ? s->oneOf : s->anyOf).front(), depth + 1, w);
  } else {
    w.beginObject().endObject();
  }
}

// JsonWriter has no raw-value call; re-emit the example token by token.
class RawJson {
public:
  RawJson(JsonWriter &w, const std::string &s) : w_(w), s_(s) {}
  // The text of a JSON string token.
  static std::string decodeString(const std::string &json) {
    std::string unused;
    JsonWriter w(unused, 0);
    RawJson r(w, json);
    return r.string();
  }
  void value() {
    skip();
    if (i_ >= s_.size())
      return void(w_.null());
    char c = s_[i_];
    if (c == '{') {
      ++i_;
      w_.beginObject();
      for (skip(); i_ < s_.size() && s_[i_] != '}'; skip()) {
        if (s_[i_] == ',') {
          ++i_;
          continue;
        }
        w_.key(string());
        skip();
        ++i_; // ':'
        value();
      }
      ++i_;
      w_.endObject();
    } else if (c == '[') {
      ++i_;
      w_.beginArray();
      for (skip(); i_ < s_.size() && s_[i_] != ']'; skip()) {
        if (s_[i_] == ',') {
          ++i_;
          continue;
        }
        value();
      }
      ++i_;
      w_.endArray();
    } else if (c == '"') {
      w_.value(string());
    } else if (s_.compare(i_, 4, "null") == 0) {
      i_ += 4;
      w_.null();
    } else if (s_.compare(i_, 4, "true") == 0) {
      i_ += 4;
      w_.value(true);
    } else if (s_.compare(i_, 5, "false") == 0) {
      i_ += 5;
      w_.value(false);
    } else {
      size_t j = i_;
      bool integral = true;
      while (j < s_.size() &&
             std::string_view("+-0123456789.eE").find(s_[j]) != std::string_view::npos) {
        integral &= s_[j] != '.' && s_[j] != 'e' && s_[j] != 'E';
        ++j;
      }
      std::string num = s_.substr(i_, j - i_);
      i_ = j;
      if (integral)
        w_.value(static_cast<int64_t>(std::strtoll(num.c_str(), nullptr, 10)));
      else
        w_.value(std::strtod(num.c_str(), nullptr));
    }
  }

private:
  void skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_])))
      ++i_;
  }
  // A JSON string at i_ (escapes decoded; \u kept as UTF-8 for the BMP).
  std::string string() {
    std::string out;
    ++i_; // '"'
    while (i_ < s_.size() && s_[i_] != '"') {
      char c = s_[i_++];
      if (c != '\\' || i_ >= s_.size()) {
        out += c;
        continue;
      }
      char e = s_[i_++];
      switch (e) {
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      case 'r':
        out += '\r';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'u': {
        unsigned cp = static_cast<unsigned>(std::strtoul(s_.substr(i_, 4).c_str(), nullptr, 16));
        i_ += 4;
        if (cp < 0x80) {
          out += static_cast<char>(cp);
        } else if (cp < 0x800) {
          out += static_cast<char>(0xC0 | (cp >> 6));
          out += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
          out += static_cast<char>(0xE0 | (cp >> 12));
          out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
          out += static_cast<char>(0x80 | (cp & 0x3F));
        }
        break;
      }
      default:
        out += e;
      }
    }
    ++i_; // '"'
    return out;
  }

  JsonWriter &w_;
  const std::string &s_;
  size_t i_ = 0;
};

void rawValue(JsonWriter &w, const std::string &json) {
  RawJson(w, json).value();
}

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
  if (r->content.empty())
    return out;
  const ContractResponse::Media *m = &r->content.front();
  for (const ContractResponse::Media &x : r->content)
    if (x.contentType == "application/json")
      m = &x;
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
  // A non-JSON media type serves a string example as it is.
  if (m->contentType.find("json") == std::string::npos && json.size() >= 2 && json[0] == '"')
    json = RawJson::decodeString(json);
  out.body = std::move(json);
  return out;
}

} // namespace fbc::ir
