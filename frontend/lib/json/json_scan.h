// A byte-at-a-time JSON syntax checker with the error messages of Go's
// encoding/json ("invalid character 'x' looking for beginning of value",
// "unexpected end of JSON input"). json.indent is built on it, and
// json.decode uses it to report malformed string literals as Go does.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fbc::star::json {

class Scanner {
public:
  // What a byte means to a consumer such as the indenter.
  enum class Op : uint8_t {
    Continue,     // inside a literal (string, number, true/false/null)
    BeginLiteral, // first byte of a literal
    BeginObject,  // {
    ObjectKey,    // : after a key
    ObjectValue,  // , after a member
    EndObject,    // }
    BeginArray,   // [
    ArrayValue,   // , after an element
    EndArray,     // ]
    SkipSpace,    // insignificant white space
    End,          // the top-level value is complete (this byte is not part of it)
    Error,
  };

  Op step(unsigned char c);
  // Signals the end of input; Error if the value is incomplete.
  Op eof();
  // The error message, without the "json.indent: " style prefix.
  const std::string &error() const { return error_; }

private:
  enum class State : uint8_t {
    BeginValue,
    BeginValueOrEmpty,
    BeginString,
    BeginStringOrEmpty,
    EndValue,
    EndTop,
    InString,
    InStringEsc,
    InStringEscU,
    InStringEscU1,
    InStringEscU12,
    InStringEscU123,
    Neg,
    One,  // in the integer part after a non-zero digit
    Zero, // after a leading 0
    Dot,
    DotDigits,
    Exp,
    ExpSign,
    ExpDigits,
    Literal, // inside true/false/null; see literal_
    Failed,
  };
  enum class Container : uint8_t { ObjectKey, ObjectValue, ArrayValue };

  Op beginValue(unsigned char c);
  Op endValue(unsigned char c);
  Op push(unsigned char c, Container k, State next, Op op);
  void pop();
  Op fail(unsigned char c, std::string_view context);

  State state_ = State::BeginValue;
  std::vector<Container> stack_;
  bool endTop_ = false;
  std::string_view literal_; // the rest of "true"/"false"/"null" to match
  std::string_view literalName_;
  std::string error_;
};

// Go's json.Indent: re-indents valid JSON. Returns false with the error in
// `error` if src is not valid JSON.
bool indent(std::string_view src, std::string_view prefix, std::string_view indentUnit,
            std::string &out, std::string &error);

} // namespace fbc::star::json
