#include "frontend/lib/json/json_scan.h"

#include "frontend/lib/utf8.h"

namespace fbc::star::json {

namespace {

// Go's encoding/json nesting limit.
constexpr size_t kMaxDepth = 10000;

bool isSpace(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}
bool isDigit(unsigned char c) {
  return c >= '0' && c <= '9';
}
bool isHex(unsigned char c) {
  return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

} // namespace

Scanner::Op Scanner::fail(unsigned char c, std::string_view context) {
  state_ = State::Failed;
  error_ = "invalid character ";
  utf8::appendQuotedRune(error_, c);
  error_ += ' ';
  error_ += context;
  return Op::Error;
}

Scanner::Op Scanner::push(unsigned char c, Container k, State next, Op op) {
  state_ = next;
  stack_.push_back(k);
  if (stack_.size() > kMaxDepth)
    return fail(c, "exceeded max depth");
  return op;
}

void Scanner::pop() {
  stack_.pop_back();
  if (stack_.empty()) {
    state_ = State::EndTop;
    endTop_ = true;
  } else {
    state_ = State::EndValue;
  }
}

Scanner::Op Scanner::beginValue(unsigned char c) {
  if (isSpace(c))
    return Op::SkipSpace;
  switch (c) {
  case '{':
    return push(c, Container::ObjectKey, State::BeginStringOrEmpty, Op::BeginObject);
  case '[':
    return push(c, Container::ArrayValue, State::BeginValueOrEmpty, Op::BeginArray);
  case '"':
    state_ = State::InString;
    return Op::BeginLiteral;
  case '-':
    state_ = State::Neg;
    return Op::BeginLiteral;
  case '0':
    state_ = State::Zero;
    return Op::BeginLiteral;
  case 't':
    state_ = State::Literal;
    literalName_ = "true";
    literal_ = literalName_.substr(1);
    return Op::BeginLiteral;
  case 'f':
    state_ = State::Literal;
    literalName_ = "false";
    literal_ = literalName_.substr(1);
    return Op::BeginLiteral;
  case 'n':
    state_ = State::Literal;
    literalName_ = "null";
    literal_ = literalName_.substr(1);
    return Op::BeginLiteral;
  default:
    if (c >= '1' && c <= '9') {
      state_ = State::One;
      return Op::BeginLiteral;
    }
    return fail(c, "looking for beginning of value");
  }
}

Scanner::Op Scanner::endValue(unsigned char c) {
  if (stack_.empty()) {
    // The top-level value ended before this byte.
    state_ = State::EndTop;
    endTop_ = true;
    return step(c);
  }
  if (isSpace(c)) {
    state_ = State::EndValue;
    return Op::SkipSpace;
  }
  switch (stack_.back()) {
  case Container::ObjectKey:
    if (c == ':') {
      stack_.back() = Container::ObjectValue;
      state_ = State::BeginValue;
      return Op::ObjectKey;
    }
    return fail(c, "after object key");
  case Container::ObjectValue:
    if (c == ',') {
      stack_.back() = Container::ObjectKey;
      state_ = State::BeginString;
      return Op::ObjectValue;
    }
    if (c == '}') {
      pop();
      return Op::EndObject;
    }
    return fail(c, "after object key:value pair");
  case Container::ArrayValue:
    if (c == ',') {
      state_ = State::BeginValue;
      return Op::ArrayValue;
    }
    if (c == ']') {
      pop();
      return Op::EndArray;
    }
    return fail(c, "after array element");
  }
  __builtin_unreachable();
}

Scanner::Op Scanner::step(unsigned char c) {
  switch (state_) {
  case State::BeginValue:
    return beginValue(c);
  case State::BeginValueOrEmpty:
    if (isSpace(c))
      return Op::SkipSpace;
    if (c == ']')
      return endValue(c);
    return beginValue(c);
  case State::BeginStringOrEmpty:
    if (isSpace(c))
      return Op::SkipSpace;
    if (c == '}') {
      stack_.back() = Container::ObjectValue;
      return endValue(c);
    }
    [[fallthrough]];
  case State::BeginString:
    if (isSpace(c))
      return Op::SkipSpace;
    if (c == '"') {
      state_ = State::InString;
      return Op::BeginLiteral;
    }
    return fail(c, "looking for beginning of object key string");
  case State::EndValue:
    return endValue(c);
  case State::EndTop:
    if (!isSpace(c)) {
      // Go reports the stray byte on the next call; this byte still ends
      // the value as far as the consumer is concerned.
      fail(c, "after top-level value");
    }
    return Op::End;
  case State::InString:
    if (c == '"') {
      state_ = State::EndValue;
      return Op::Continue;
    }
    if (c == '\\') {
      state_ = State::InStringEsc;
      return Op::Continue;
    }
    if (c < 0x20)
      return fail(c, "in string literal");
    return Op::Continue;
  case State::InStringEsc:
    switch (c) {
    case 'b':
    case 'f':
    case 'n':
    case 'r':
    case 't':
    case '\\':
    case '/':
    case '"':
      state_ = State::InString;
      return Op::Continue;
    case 'u':
      state_ = State::InStringEscU;
      return Op::Continue;
    default:
      return fail(c, "in string escape code");
    }
  case State::InStringEscU:
  case State::InStringEscU1:
  case State::InStringEscU12:
  case State::InStringEscU123:
    if (!isHex(c))
      return fail(c, "in \\u hexadecimal character escape");
    state_ = state_ == State::InStringEscU123 ? State::InString
                                              : static_cast<State>(static_cast<int>(state_) + 1);
    return Op::Continue;
  case State::Neg:
    if (c == '0') {
      state_ = State::Zero;
      return Op::Continue;
    }
    if (c >= '1' && c <= '9') {
      state_ = State::One;
      return Op::Continue;
    }
    return fail(c, "in numeric literal");
  case State::One:
    if (isDigit(c))
      return Op::Continue;
    [[fallthrough]];
  case State::Zero:
    if (c == '.') {
      state_ = State::Dot;
      return Op::Continue;
    }
    if (c == 'e' || c == 'E') {
      state_ = State::Exp;
      return Op::Continue;
    }
    return endValue(c);
  case State::Dot:
    if (isDigit(c)) {
      state_ = State::DotDigits;
      return Op::Continue;
    }
    return fail(c, "after decimal point in numeric literal");
  case State::DotDigits:
    if (isDigit(c))
      return Op::Continue;
    if (c == 'e' || c == 'E') {
      state_ = State::Exp;
      return Op::Continue;
    }
    return endValue(c);
  case State::Exp:
    if (c == '+' || c == '-') {
      state_ = State::ExpSign;
      return Op::Continue;
    }
    [[fallthrough]];
  case State::ExpSign:
    if (isDigit(c)) {
      state_ = State::ExpDigits;
      return Op::Continue;
    }
    return fail(c, "in exponent of numeric literal");
  case State::ExpDigits:
    if (isDigit(c))
      return Op::Continue;
    return endValue(c);
  case State::Literal:
    if (c == static_cast<unsigned char>(literal_.front())) {
      literal_.remove_prefix(1);
      if (literal_.empty())
        state_ = State::EndValue;
      return Op::Continue;
    }
    return fail(c, "in literal " + std::string(literalName_) + " (expecting '" +
                       std::string(1, literal_.front()) + "')");
  case State::Failed:
    return Op::Error;
  }
  __builtin_unreachable();
}

Scanner::Op Scanner::eof() {
  if (state_ == State::Failed)
    return Op::Error;
  if (endTop_)
    return Op::End;
  step(' ');
  if (endTop_)
    return Op::End;
  if (error_.empty())
    error_ = "unexpected end of JSON input";
  state_ = State::Failed;
  return Op::Error;
}

namespace {

void newline(std::string &out, std::string_view prefix, std::string_view unit, int depth) {
  out.push_back('\n');
  out.append(prefix);
  for (int i = 0; i < depth; ++i)
    out.append(unit);
}

} // namespace

bool indent(std::string_view src, std::string_view prefix, std::string_view unit, std::string &out,
            std::string &error) {
  Scanner scan;
  using Op = Scanner::Op;
  bool needIndent = false; // after { or [, until we know it is not empty
  int depth = 0;
  for (unsigned char c : src) {
    Op op = scan.step(c);
    if (op == Op::SkipSpace)
      continue;
    if (op == Op::Error)
      break;
    if (needIndent && op != Op::EndObject && op != Op::EndArray) {
      needIndent = false;
      newline(out, prefix, unit, ++depth);
    }
    if (op == Op::Continue) {
      out.push_back(static_cast<char>(c));
      continue;
    }
    switch (c) {
    case '{':
    case '[':
      needIndent = true;
      out.push_back(static_cast<char>(c));
      break;
    case ',':
      out.push_back(static_cast<char>(c));
      newline(out, prefix, unit, depth);
      break;
    case ':':
      out += ": ";
      break;
    case '}':
    case ']':
      if (needIndent)
        needIndent = false; // an empty object or array stays {} or []
      else
        newline(out, prefix, unit, --depth);
      out.push_back(static_cast<char>(c));
      break;
    default:
      out.push_back(static_cast<char>(c));
      break;
    }
  }
  if (scan.eof() == Op::Error) {
    error = scan.error();
    return false;
  }
  return true;
}

} // namespace fbc::star::json
