// The one JSON writer (plan JSON, `fbc ir --format=json`, run reports,
// traces, bundles, inspect): streaming, members in the order written, so
// output is deterministic by construction. Indentation is a choice: `indent`
// spaces per level (the plan's JSON: 2), or 0 for one compact line; an
// object or array begun `inlined` keeps its members on one line, `{"a": 1}`.
// Strings are escaped per RFC 8259 by writeJsonString() below, the one
// escaping rule: ", \, \n, \r, \t, \b, \f by name, other control characters
// as \u00XX, and each invalid UTF-8 byte (ir::validUtf8Length: Go's rules,
// overlongs and surrogates are invalid) as \ufffd, as Starlark's json.encode
// writes it, so the output always parses. Numbers: integers exactly,
// doubles in their shortest round-trip form (formatNumber), a non-finite
// double as null.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace llvm {
class raw_ostream;
}

namespace fbc::ir {

class JsonWriter {
public:
  explicit JsonWriter(llvm::raw_ostream &os, int indent = 2);
  // Appends to `out`.
  explicit JsonWriter(std::string &out, int indent = 0);
  ~JsonWriter();
  JsonWriter(const JsonWriter &) = delete;
  JsonWriter &operator=(const JsonWriter &) = delete;

  // `inlined`: members or elements on one line (use for scalar members).
  JsonWriter &beginObject(bool inlined = false);
  JsonWriter &endObject();
  JsonWriter &beginArray(bool inlined = false);
  JsonWriter &endArray();
  JsonWriter &key(std::string_view k);

  JsonWriter &value(std::string_view s);
  JsonWriter &value(const char *s) { return value(std::string_view(s)); }
  JsonWriter &value(const std::string &s) { return value(std::string_view(s)); }
  JsonWriter &value(int64_t v);
  JsonWriter &value(uint64_t v);
  JsonWriter &value(int v) { return value(static_cast<int64_t>(v)); }
  JsonWriter &value(unsigned v) { return value(static_cast<uint64_t>(v)); }
  JsonWriter &value(double v);
  JsonWriter &value(bool v);
  JsonWriter &null();

  // key(k) followed by a value.
  template <typename T> JsonWriter &field(std::string_view k, const T &v) {
    key(k);
    return value(v);
  }
  JsonWriter &nullField(std::string_view k) { return key(k).null(); }

  // Ends the document with a newline.
  void finish();

private:
  struct Level {
    bool inlined;
    size_t count = 0;
  };
  void separate();
  void beforeValue();
  void close(char c);

  std::unique_ptr<llvm::raw_ostream> ownStream_; // when writing to a string
  llvm::raw_ostream &os_;
  int indent_;
  std::vector<Level> stack_;
  bool afterKey_ = false;
};

// `s` as a JSON string literal (the escaping rule above).
void writeJsonString(llvm::raw_ostream &os, std::string_view s);
void writeJsonString(std::string &out, std::string_view s);

} // namespace fbc::ir
