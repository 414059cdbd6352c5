#include "runtime/json_writer.h"

#include "frontend/lib/utf8.h"

#include <cmath>
#include <cstdio>

namespace fbc::rt {

void JsonWriter::newline() {
  if (indent_ <= 0)
    return;
  out_ += '\n';
  out_.append(stack_.size() * static_cast<size_t>(indent_), ' ');
}

void JsonWriter::beforeValue() {
  if (afterKey_) {
    afterKey_ = false;
    return;
  }
  if (stack_.empty())
    return;
  if (!stack_.back().empty)
    out_ += ',';
  stack_.back().empty = false;
  newline();
}

JsonWriter &JsonWriter::beginObject() {
  beforeValue();
  out_ += '{';
  stack_.push_back({false, true});
  return *this;
}

JsonWriter &JsonWriter::endObject() {
  bool empty = stack_.back().empty;
  stack_.pop_back();
  if (!empty)
    newline();
  out_ += '}';
  return *this;
}

JsonWriter &JsonWriter::beginArray() {
  beforeValue();
  out_ += '[';
  stack_.push_back({true, true});
  return *this;
}

JsonWriter &JsonWriter::endArray() {
  bool empty = stack_.back().empty;
  stack_.pop_back();
  if (!empty)
    newline();
  out_ += ']';
  return *this;
}

JsonWriter &JsonWriter::key(std::string_view k) {
  beforeValue();
  escape(out_, k);
  out_ += indent_ > 0 ? ": " : ":";
  afterKey_ = true;
  return *this;
}

JsonWriter &JsonWriter::value(std::string_view s) {
  beforeValue();
  escape(out_, s);
  return *this;
}

JsonWriter &JsonWriter::value(int64_t v) {
  beforeValue();
  out_ += std::to_string(v);
  return *this;
}

JsonWriter &JsonWriter::value(uint64_t v) {
  beforeValue();
  out_ += std::to_string(v);
  return *this;
}

JsonWriter &JsonWriter::value(double v) {
  beforeValue();
  if (!std::isfinite(v)) {
    out_ += "null";
    return *this;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  out_ += buf;
  return *this;
}

JsonWriter &JsonWriter::value(bool v) {
  beforeValue();
  out_ += v ? "true" : "false";
  return *this;
}

JsonWriter &JsonWriter::null() {
  beforeValue();
  out_ += "null";
  return *this;
}

void JsonWriter::escape(std::string &out, std::string_view s) {
  out += '"';
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
      }
      ++i;
      continue;
    }
    // One UTF-8 sequence (the frontend's decoder): copied whole, or an
    // invalid byte written as \ufffd, as ir::writeJsonString and Starlark's
    // json.encode do.
    star::utf8::Decoded d = star::utf8::decode(s.substr(i));
    if (d.rune == star::utf8::kRuneError && d.size == 1) {
      out += "\\ufffd";
      ++i;
    } else {
      out.append(s.substr(i, d.size));
      i += d.size;
    }
  }
  out += '"';
}

} // namespace fbc::rt
