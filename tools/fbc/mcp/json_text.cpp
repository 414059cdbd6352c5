#include "tools/fbc/mcp/json_text.h"

#include "ir/json_writer.h"

#include <simdjson.h>

namespace fbc::tools::mcp {

std::string jsonString(std::string_view s) {
  std::string out;
  ir::writeJsonString(out, s);
  return out;
}

std::string jsonArray(const std::vector<std::string> &items) {
  std::string out = "[";
  for (const std::string &item : items) {
    if (out.size() > 1)
      out += ',';
    out += item;
  }
  out += ']';
  return out;
}

void JsonObject::key(std::string_view k) {
  if (text_.size() > 1)
    text_ += ',';
  text_ += jsonString(k);
  text_ += ':';
}

JsonObject &JsonObject::str(std::string_view k, std::string_view value) {
  key(k);
  text_ += jsonString(value);
  return *this;
}

JsonObject &JsonObject::num(std::string_view k, int64_t value) {
  key(k);
  text_ += std::to_string(value);
  return *this;
}

JsonObject &JsonObject::boolean(std::string_view k, bool value) {
  key(k);
  text_ += value ? "true" : "false";
  return *this;
}

JsonObject &JsonObject::raw(std::string_view k, std::string_view json) {
  key(k);
  text_ += json;
  return *this;
}

std::optional<std::string> minifyJson(std::string_view text, bool objectOnly) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(simdjson::padded_string(text)).get(root))
    return std::nullopt;
  if (objectOnly && !root.is_object())
    return std::nullopt;
  return simdjson::minify(root);
}

} // namespace fbc::tools::mcp
