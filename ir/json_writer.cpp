// The JSON writer and the string escaping rule: see json_writer.h.
#include "ir/json_writer.h"

#include "ir/quote.h"

#include <llvm/Support/raw_ostream.h>

#include <cmath>

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

void writeJsonString(std::string &out, std::string_view s) {
  llvm::raw_string_ostream os(out);
  writeJsonString(os, s);
  os.flush();
}

JsonWriter::JsonWriter(llvm::raw_ostream &os, int indent) : os_(os), indent_(indent) {}

// raw_string_ostream writes through to `out` unbuffered.
JsonWriter::JsonWriter(std::string &out, int indent)
    : ownStream_(std::make_unique<llvm::raw_string_ostream>(out)), os_(*ownStream_),
      indent_(indent) {}

JsonWriter::~JsonWriter() {
  os_.flush();
}

// The separator before a member or an element of the innermost level.
void JsonWriter::separate() {
  Level &l = stack_.back();
  if (l.inlined) {
    if (l.count > 0)
      os_ << ", ";
  } else {
    if (l.count > 0)
      os_ << ',';
    if (indent_ > 0) {
      os_ << '\n';
      os_.indent(unsigned(stack_.size() * size_t(indent_)));
    }
  }
  ++l.count;
}

void JsonWriter::beforeValue() {
  if (afterKey_) {
    afterKey_ = false;
    return;
  }
  if (!stack_.empty())
    separate();
}

JsonWriter &JsonWriter::key(std::string_view k) {
  separate();
  writeJsonString(os_, k);
  os_ << (indent_ > 0 || stack_.back().inlined ? ": " : ":");
  afterKey_ = true;
  return *this;
}

JsonWriter &JsonWriter::beginObject(bool inlined) {
  beforeValue();
  os_ << '{';
  stack_.push_back({inlined});
  return *this;
}

JsonWriter &JsonWriter::beginArray(bool inlined) {
  beforeValue();
  os_ << '[';
  stack_.push_back({inlined});
  return *this;
}

void JsonWriter::close(char c) {
  Level l = stack_.back();
  stack_.pop_back();
  if (l.count > 0 && !l.inlined && indent_ > 0) {
    os_ << '\n';
    os_.indent(unsigned(stack_.size() * size_t(indent_)));
  }
  os_ << c;
}

JsonWriter &JsonWriter::endObject() {
  close('}');
  return *this;
}

JsonWriter &JsonWriter::endArray() {
  close(']');
  return *this;
}

JsonWriter &JsonWriter::value(std::string_view s) {
  beforeValue();
  writeJsonString(os_, s);
  return *this;
}

JsonWriter &JsonWriter::value(int64_t v) {
  beforeValue();
  os_ << v;
  return *this;
}

JsonWriter &JsonWriter::value(uint64_t v) {
  beforeValue();
  os_ << v;
  return *this;
}

JsonWriter &JsonWriter::value(double v) {
  if (!std::isfinite(v))
    return null();
  beforeValue();
  os_ << formatNumber(v);
  return *this;
}

JsonWriter &JsonWriter::value(bool v) {
  beforeValue();
  os_ << (v ? "true" : "false");
  return *this;
}

JsonWriter &JsonWriter::null() {
  beforeValue();
  os_ << "null";
  return *this;
}

void JsonWriter::finish() {
  os_ << '\n';
}

} // namespace fbc::ir
