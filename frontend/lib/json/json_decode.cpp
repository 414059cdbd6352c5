// json.decode. Valid RFC 8259 input is parsed by simdjson (DOM API) and
// converted to Starlark values. Anything simdjson rejects goes through a
// second decoder that reproduces Go's starlarkjson byte for byte: its
// exact error messages ("json.decode: at offset 4, unexpected character
// 'f' after value") and its leniencies (invalid UTF-8 and lone surrogates
// become U+FFFD, "1." is a float, integers of any size, raw control
// characters in plain strings).
//
// Numbers with a '.', 'e' or 'E' are floats, others ints, in both paths.
#include "frontend/lib/json/json.h"
#include "frontend/lib/json/json_scan.h"
#include "frontend/lib/numeric.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/utf8.h"

#include <llvm/ADT/APInt.h>
#include <llvm/ADT/StringRef.h>

#include <simdjson.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <locale.h>
#include <string>
#include <vector>

namespace fbc::star {

namespace {

Value makeList(Heap &h, std::vector<Value> elems) {
  return Value::object(h.make<List>(std::move(elems)));
}

// Decimal digits with an optional '-' to an int of any size.
Value parseDecimalInt(Heap &h, std::string_view digits) {
  int64_t small;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), small);
  if (ec == std::errc() && ptr == digits.data() + digits.size())
    return makeInt(h, small);
  // 4 bits per decimal digit is more than enough, plus one for the sign.
  llvm::APInt big(static_cast<unsigned>(digits.size() * 4 + 2), llvm::StringRef(digits), 10);
  unsigned bits = std::max(64u, big.getMinSignedBits());
  return makeInt(h, big.sextOrTrunc(bits));
}

// ---- the fast path ----------------------------------------------------

class FastDecoder {
public:
  explicit FastDecoder(Thread &t) : t_(t) {}

  Value convert(simdjson::dom::element e) {
    Heap &h = t_.heap;
    switch (e.type()) {
    case simdjson::dom::element_type::ARRAY: {
      simdjson::dom::array array = e.get_array().value_unsafe();
      std::vector<Value> elems;
      elems.reserve(array.size());
      for (simdjson::dom::element child : array)
        elems.push_back(convert(child));
      return makeList(h, std::move(elems));
    }
    case simdjson::dom::element_type::OBJECT: {
      simdjson::dom::object object = e.get_object().value_unsafe();
      Dict *d = h.make<Dict>();
      for (simdjson::dom::key_value_pair kv : object) {
        Value key = makeString(h, kv.key);
        d->put(t_, key, convert(kv.value));
      }
      return Value::object(d);
    }
    case simdjson::dom::element_type::INT64:
      return makeInt(h, e.get_int64().value_unsafe());
    case simdjson::dom::element_type::UINT64: {
      llvm::APInt v(65, e.get_uint64().value_unsafe(), /*isSigned=*/false);
      return makeInt(h, v);
    }
    case simdjson::dom::element_type::DOUBLE:
      return makeFloat(h, e.get_double().value_unsafe());
    case simdjson::dom::element_type::STRING:
      return makeString(h, e.get_string().value_unsafe());
    case simdjson::dom::element_type::BOOL:
      return boolean(e.get_bool().value_unsafe());
    case simdjson::dom::element_type::NULL_VALUE:
      return none();
    }
    __builtin_unreachable();
  }

private:
  Thread &t_;
};

// Null if simdjson rejects the input.
Value decodeFast(Thread &t, std::string_view s) {
  // One parser per thread: it keeps its buffers between calls.
  static thread_local simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(s.data(), s.size()).get(root) != simdjson::SUCCESS)
    return Value();
  return FastDecoder(t).convert(root);
}

// ---- Go's decoder -----------------------------------------------------

class GoDecoder {
public:
  GoDecoder(Thread &t, std::string_view s) : t_(t), s_(s) {}

  Value decodeAll() {
    Value x = parse(0);
    if (skipSpace())
      fail("unexpected character " + quoted(s_[i_]) + " after value");
    return x;
  }

private:
  // Deeper nesting than this would exhaust the C++ stack; Go has no limit.
  static constexpr int kMaxDepth = 10000;

  [[noreturn]] void fail(const std::string &msg) {
    t_.fail("json.decode: at offset " + std::to_string(i_) + ", " + msg);
  }
  static std::string quoted(char c) {
    std::string out;
    utf8::appendQuotedRune(out, static_cast<unsigned char>(c));
    return out;
  }
  static bool isDigit(char c) { return c >= '0' && c <= '9'; }

  // Skips white space; false at end of input.
  bool skipSpace() {
    for (; i_ < s_.size(); ++i_) {
      char c = s_[i_];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
        return true;
    }
    return false;
  }
  char next() {
    if (!skipSpace())
      fail("unexpected end of file");
    return s_[i_];
  }

  Value parse(int depth) {
    if (depth > kMaxDepth)
      fail("nesting too deep");
    Heap &h = t_.heap;
    char c = next();
    switch (c) {
    case '"':
      return parseString();
    case 'n':
      if (s_.substr(i_).starts_with("null")) {
        i_ += 4;
        return none();
      }
      break;
    case 't':
      if (s_.substr(i_).starts_with("true")) {
        i_ += 4;
        return trueValue();
      }
      break;
    case 'f':
      if (s_.substr(i_).starts_with("false")) {
        i_ += 5;
        return falseValue();
      }
      break;
    case '[': {
      ++i_;
      std::vector<Value> elems;
      if (next() != ']') {
        for (;;) {
          elems.push_back(parse(depth + 1));
          char d = next();
          if (d == ']')
            break;
          if (d != ',')
            fail("got " + quoted(d) + ", want ',' or ']'");
          ++i_;
        }
      }
      ++i_;
      return makeList(h, std::move(elems));
    }
    case '{': {
      ++i_;
      Dict *dict = h.make<Dict>();
      if (next() != '}') {
        for (;;) {
          Value key = parse(depth + 1);
          if (!key.as<String>())
            fail("got " + std::string(key.isSmallInt() ? "int" : key.obj()->typeName()) +
                 " for object key, want string");
          char d = next();
          if (d != ':')
            fail("after object key, got " + quoted(d) + ", want ':' ");
          ++i_;
          Value value = parse(depth + 1);
          dict->put(t_, key, value);
          d = next();
          if (d == '}')
            break;
          if (d != ',')
            fail("in object, got " + quoted(d) + ", want ',' or '}'");
          ++i_;
        }
      }
      ++i_;
      return Value::object(dict);
    }
    default:
      if (isDigit(c) || c == '-')
        return parseNumber();
      break;
    }
    fail("unexpected character " + quoted(c));
  }

  Value parseString() {
    // Find the closing quote; plain ASCII without escapes is taken as is.
    bool plain = true, closed = false;
    size_t j = i_ + 1;
    for (; j < s_.size(); ++j) {
      unsigned char b = static_cast<unsigned char>(s_[j]);
      if (b == '\\') {
        plain = false;
        ++j;
      } else if (b == '"') {
        closed = true;
        ++j;
        break;
      } else if (b >= 0x80) {
        plain = false;
      }
    }
    if (!closed)
      fail("unclosed string literal");
    std::string_view token = s_.substr(i_, j - i_);
    i_ = j;
    if (plain)
      return makeString(t_.heap, token.substr(1, token.size() - 2));
    // Validate as Go's encoding/json does, for its error messages.
    json::Scanner scan;
    for (char c : token)
      if (scan.step(static_cast<unsigned char>(c)) == json::Scanner::Op::Error)
        break;
    if (scan.eof() == json::Scanner::Op::Error)
      fail(scan.error());
    return makeString(t_.heap, unquote(token.substr(1, token.size() - 2)));
  }

  static int hex4(std::string_view s) {
    if (s.size() < 4)
      return -1;
    int v = 0;
    for (char c : s.substr(0, 4)) {
      int d = c >= '0' && c <= '9'   ? c - '0'
              : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                     : -1;
      if (d < 0)
        return -1;
      v = v * 16 + d;
    }
    return v;
  }

  // Decodes the body of a validated string literal. Invalid UTF-8 and
  // unpaired surrogates become U+FFFD.
  static std::string unquote(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size();) {
      unsigned char b = static_cast<unsigned char>(s[i]);
      if (b == '\\') {
        char e = s[i + 1];
        i += 2;
        switch (e) {
        case 'b':
          out.push_back('\b');
          break;
        case 'f':
          out.push_back('\f');
          break;
        case 'n':
          out.push_back('\n');
          break;
        case 'r':
          out.push_back('\r');
          break;
        case 't':
          out.push_back('\t');
          break;
        case 'u': {
          uint32_t r = static_cast<uint32_t>(hex4(s.substr(i)));
          i += 4;
          if (r >= 0xD800 && r < 0xE000) {
            int lo = s.substr(i).starts_with("\\u") ? hex4(s.substr(i + 2)) : -1;
            if (r < 0xDC00 && lo >= 0xDC00 && lo < 0xE000) {
              r = 0x10000 + ((r - 0xD800) << 10) + (static_cast<uint32_t>(lo) - 0xDC00);
              i += 6;
            } else {
              r = utf8::kRuneError;
            }
          }
          utf8::encode(out, r);
          break;
        }
        default: // " \ /
          out.push_back(e);
          break;
        }
        continue;
      }
      if (b < 0x80) {
        out.push_back(static_cast<char>(b));
        ++i;
        continue;
      }
      utf8::Decoded d = utf8::decode(s.substr(i));
      if (d.rune == utf8::kRuneError && d.size == 1)
        utf8::encode(out, utf8::kRuneError);
      else
        out.append(s.substr(i, d.size));
      i += d.size;
    }
    return out;
  }

  // A number: '-' or a digit followed by any of [0-9.eE+-], checked for a
  // leading zero, then parsed as a float if it has any of ".eE+-" after
  // the first byte, else as an int.
  Value parseNumber() {
    bool isFloat = false;
    size_t j = i_ + 1;
    for (; j < s_.size(); ++j) {
      char b = s_[j];
      if (isDigit(b))
        continue;
      if (b == '.' || b == 'e' || b == 'E' || b == '+' || b == '-')
        isFloat = true;
      else
        break;
    }
    std::string_view num = s_.substr(i_, j - i_);
    i_ = j;
    std::string_view digits = num[0] == '-' ? num.substr(1) : num;
    if (digits.empty() || (digits[0] == '0' && digits.size() > 1 && isDigit(digits[1])))
      fail("invalid number: " + std::string(num));
    if (!isFloat)
      return parseDecimalInt(t_.heap, num);
    // strtod_l in the C locale: the embedder's locale must not change
    // the decimal point.
    static const locale_t cLocale = newlocale(LC_ALL_MASK, "C", locale_t());
    std::string text(num);
    char *end;
    errno = 0;
    double f = strtod_l(text.c_str(), &end, cLocale);
    // Overflow is an error (as in Go's ParseFloat); underflow yields 0.
    if (end != text.c_str() + text.size() || (errno == ERANGE && std::isinf(f)))
      fail("invalid number: " + text);
    return makeFloat(t_.heap, f);
  }

  Thread &t_;
  std::string_view s_;
  size_t i_ = 0;
};

} // namespace

Value decodeJson(Thread &t, std::string_view s) {
  if (Value v = decodeFast(t, s))
    return v;
  return GoDecoder(t, s).decodeAll();
}

} // namespace fbc::star
