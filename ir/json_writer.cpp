#include "ir/json_writer.h"

#include "ir/quote.h"

#include <llvm/Support/raw_ostream.h>

#include <charconv>

namespace fbc::ir {

void writeJsonString(llvm::raw_ostream &os, std::string_view s) {
  static const char hex[] = "0123456789abcdef";
  os << '"';
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n = validUtf8Length(s, i);
    if (n == 0) {
      os << "\\ufffd";
      ++i;
      continue;
    }
    if (n > 1) {
      os << s.substr(i, n);
      i += n;
      continue;
    }
    ++i;
    switch (c) {
    case '"':
      os << "\\\"";
      break;
    case '\\':
      os << "\\\\";
      break;
    case '\n':
      os << "\\n";
      break;
    case '\r':
      os << "\\r";
      break;
    case '\t':
      os << "\\t";
      break;
    case '\b':
      os << "\\b";
      break;
    case '\f':
      os << "\\f";
      break;
    default:
      if (c < 0x20)
        os << "\\u00" << hex[c >> 4] << hex[c & 15];
      else
        os << static_cast<char>(c);
    }
  }
  os << '"';
}

void JsonWriter::newline(size_t depth) {
  os_ << '\n';
  for (size_t i = 0; i < depth; ++i)
    os_ << "  ";
}

void JsonWriter::beforeValue() {
  if (afterKey_) {
    afterKey_ = false;
    return;
  }
  if (stack_.empty())
    return;
  Level &l = stack_.back();
  if (l.inlined) {
    if (l.count > 0)
      os_ << ", ";
  } else {
    if (l.count > 0)
      os_ << ',';
    newline(stack_.size());
  }
  ++l.count;
}

void JsonWriter::key(std::string_view k) {
  Level &l = stack_.back();
  if (l.inlined) {
    if (l.count > 0)
      os_ << ", ";
  } else {
    if (l.count > 0)
      os_ << ',';
    newline(stack_.size());
  }
  ++l.count;
  writeJsonString(os_, k);
  os_ << ": ";
  afterKey_ = true;
}

void JsonWriter::beginObject(bool inlined) {
  beforeValue();
  os_ << '{';
  stack_.push_back({true, inlined});
}

void JsonWriter::beginArray(bool inlined) {
  beforeValue();
  os_ << '[';
  stack_.push_back({false, inlined});
}

void JsonWriter::close(char c) {
  Level l = stack_.back();
  stack_.pop_back();
  if (l.count > 0 && !l.inlined)
    newline(stack_.size());
  os_ << c;
}

void JsonWriter::endObject() {
  close('}');
}
void JsonWriter::endArray() {
  close(']');
}

void JsonWriter::string(std::string_view s) {
  beforeValue();
  writeJsonString(os_, s);
}

void JsonWriter::number(int64_t v) {
  beforeValue();
  os_ << v;
}

void JsonWriter::number(double v) {
  beforeValue();
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v); // shortest round-trip form
  os_ << std::string_view(buf, static_cast<size_t>(r.ptr - buf));
}

void JsonWriter::boolean(bool v) {
  beforeValue();
  os_ << (v ? "true" : "false");
}

void JsonWriter::null() {
  beforeValue();
  os_ << "null";
}

void JsonWriter::finish() {
  os_ << '\n';
}

} // namespace fbc::ir
