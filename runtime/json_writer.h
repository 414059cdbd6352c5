// A small streaming JSON writer: keys come out in the order the caller
// writes them, so output is deterministic by construction. Strings are
// escaped per RFC 8259 (control characters as \u00XX; each invalid UTF-8
// byte becomes the escape \ufffd, as in ir/json_writer.h, so the output
// always parses).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fbc::rt {

class JsonWriter {
public:
  explicit JsonWriter(std::string &out, int indent = 0) : out_(out), indent_(indent) {}

  JsonWriter &beginObject();
  JsonWriter &endObject();
  JsonWriter &beginArray();
  JsonWriter &endArray();
  JsonWriter &key(std::string_view k);

  JsonWriter &value(std::string_view s);
  JsonWriter &value(const char *s) { return value(std::string_view(s)); }
  JsonWriter &value(int64_t v);
  JsonWriter &value(uint64_t v);
  JsonWriter &value(int v) { return value(static_cast<int64_t>(v)); }
  JsonWriter &value(unsigned v) { return value(static_cast<uint64_t>(v)); }
  JsonWriter &value(double v);
  JsonWriter &value(bool v);
  JsonWriter &null();

  // key(k).value(v) in one call.
  template <typename T> JsonWriter &field(std::string_view k, const T &v) {
    key(k);
    return value(v);
  }

  static void escape(std::string &out, std::string_view s);

private:
  void beforeValue();
  void newline();

  std::string &out_;
  int indent_;
  struct Level {
    bool array;
    bool empty;
  };
  std::vector<Level> stack_;
  bool afterKey_ = false;
};

} // namespace fbc::rt
