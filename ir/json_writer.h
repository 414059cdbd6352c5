// A small streaming JSON writer with stable, pretty output: two-space
// indentation, members in the order written, arrays of scalars optionally
// on one line. Strings are escaped per RFC 8259; each invalid UTF-8 byte
// (Go's rules: overlongs and surrogates are invalid) becomes the escape
// \ufffd, as Starlark's json.encode writes it, so the output is always
// valid JSON.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace llvm {
class raw_ostream;
}

namespace fbc::ir {

class JsonWriter {
public:
  explicit JsonWriter(llvm::raw_ostream &os) : os_(os) {}

  // `inlined`: members or elements on one line, `{"a": 1}`, `[1, 2]` (use
  // for scalar members only).
  void beginObject(bool inlined = false);
  void endObject();
  void beginArray(bool inlined = false);
  void endArray();
  void key(std::string_view k);

  void string(std::string_view s);
  void number(int64_t v);
  void number(double v);
  void boolean(bool v);
  void null();

  // key(k) followed by a value.
  void field(std::string_view k, std::string_view v) { key(k), string(v); }
  void field(std::string_view k, const char *v) { key(k), string(v); }
  void field(std::string_view k, int64_t v) { key(k), number(v); }
  void field(std::string_view k, double v) { key(k), number(v); }
  void field(std::string_view k, bool v) { key(k), boolean(v); }
  void nullField(std::string_view k) { key(k), null(); }

  // Ends the document with a newline.
  void finish();

private:
  struct Level {
    bool object;
    bool inlined;
    size_t count = 0;
  };
  void beforeValue();
  void newline(size_t depth);
  void close(char c);

  llvm::raw_ostream &os_;
  std::vector<Level> stack_;
  bool afterKey_ = false;
};

// `s` as a JSON string literal.
void writeJsonString(llvm::raw_ostream &os, std::string_view s);

} // namespace fbc::ir
