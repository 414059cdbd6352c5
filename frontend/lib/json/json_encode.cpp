// json.encode: None/bool/int/float/string, mappings as objects with sorted
// keys, other iterables as arrays, and values with fields (struct, module)
// as objects. Errors carry the path to the bad value:
// "in field .x: at list index 1: in dict key "x": cannot encode ...".
#include "frontend/lib/json/json.h"
#include "frontend/lib/numeric.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/printer.h"
#include "frontend/lib/utf8.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace fbc::star {

namespace {

constexpr char kHex[] = "0123456789abcdef";

bool isPrintableASCII(std::string_view s) {
  for (char c : s)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x80)
      return false;
  return true;
}

// Go's encoding/json string escaping (with HTML escaping, as json.Marshal
// does): invalid UTF-8 becomes \ufffd.
void appendMarshaledString(std::string &out, std::string_view s) {
  out.push_back('"');
  for (size_t i = 0; i < s.size();) {
    unsigned char b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) {
      ++i;
      if (b >= 0x20 && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&') {
        out.push_back(static_cast<char>(b));
        continue;
      }
      out.push_back('\\');
      switch (b) {
      case '"':
      case '\\':
        out.push_back(static_cast<char>(b));
        break;
      case '\n':
        out.push_back('n');
        break;
      case '\r':
        out.push_back('r');
        break;
      case '\t':
        out.push_back('t');
        break;
      default:
        out += "u00";
        out.push_back(kHex[b >> 4]);
        out.push_back(kHex[b & 0xF]);
        break;
      }
      continue;
    }
    utf8::Decoded d = utf8::decode(s.substr(i));
    if (d.rune == utf8::kRuneError && d.size == 1)
      out += "\\ufffd";
    else if (d.rune == 0x2028 || d.rune == 0x2029)
      out += d.rune == 0x2028 ? "\\u2028" : "\\u2029";
    else
      out.append(s.substr(i, d.size));
    i += d.size;
  }
  out.push_back('"');
}

// Printable ASCII takes Go's strconv.Quote path, which differs from the
// encoding/json path only for DEL (written \x7f, as Go does).
void appendJsonString(std::string &out, std::string_view s) {
  if (isPrintableASCII(s))
    utf8::appendQuoted(out, s);
  else
    appendMarshaledString(out, s);
}

class Encoder {
public:
  explicit Encoder(Thread &t) : t_(t) {}
  std::string out;
  std::string error;

  bool emit(Value x);

private:
  bool emitFloat(double f);
  bool emitDict(Dict &d);
  bool emitFields(Object &o);
  template <class Each> bool emitArray(std::string_view type, Each each);
  bool fail(std::string msg) {
    error = std::move(msg);
    return false;
  }
  // Wraps a nested failure with its location.
  bool nested(std::string where) {
    error = where + ": " + error;
    return false;
  }

  Thread &t_;
  std::vector<const Object *> path_; // containers being encoded
};

bool Encoder::emitFloat(double f) {
  if (!std::isfinite(f))
    return fail("cannot encode non-finite float " + floatToString(f));
  // str(f), which always has a '.' or an exponent, so that json.decode
  // gives a float back (go.starlark.net #564: 1.0 encodes as "1.0").
  out += floatToString(f);
  return true;
}

bool Encoder::emitDict(Dict &d) {
  std::vector<std::pair<String *, Value>> items;
  items.reserve(d.table.size());
  for (const HashTable::Entry &e : d.table.entries()) {
    if (e.value.isNull())
      continue;
    String *k = e.key.as<String>();
    if (!k)
      return fail("dict has " + std::string(typeName(e.key)) + " key, want string");
    items.emplace_back(k, e.value);
  }
  std::sort(items.begin(), items.end(),
            [](const auto &a, const auto &b) { return a.first->view() < b.first->view(); });
  out.push_back('{');
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0)
      out.push_back(',');
    appendJsonString(out, items[i].first->view());
    out.push_back(':');
    if (!emit(items[i].second))
      return nested("in dict key " + repr(Value::object(items[i].first)));
  }
  out.push_back('}');
  return true;
}

bool Encoder::emitFields(Object &o) {
  std::vector<std::string> names;
  o.attrNames(names);
  std::sort(names.begin(), names.end());
  out.push_back('{');
  bool first = true;
  for (size_t i = 0; i < names.size(); ++i) {
    Value v = o.attr(t_, names[i]);
    if (v.isNull())
      continue; // listed by attrNames but absent: skip rather than crash
    if (!first)
      out.push_back(',');
    first = false;
    appendJsonString(out, names[i]);
    out.push_back(':');
    if (!emit(v))
      return nested("in field ." + names[i]);
  }
  out.push_back('}');
  return true;
}

template <class Each> bool Encoder::emitArray(std::string_view type, Each each) {
  out.push_back('[');
  int64_t i = 0;
  bool ok = each([&](Value elem) {
    if (i > 0)
      out.push_back(',');
    if (!emit(elem))
      return nested("at " + std::string(type) + " index " + std::to_string(i));
    ++i;
    return true;
  });
  if (ok)
    out.push_back(']');
  return ok;
}

bool Encoder::emit(Value x) {
  if (x.isSmallInt()) {
    out += std::to_string(x.smallInt());
    return true;
  }
  Object *o = x.obj();
  switch (o->kind()) {
  case Kind::None:
    out += "null";
    return true;
  case Kind::Bool:
    out += static_cast<Bool *>(o)->value ? "true" : "false";
    return true;
  case Kind::Int:
    out += repr(x);
    return true;
  case Kind::Float:
    return emitFloat(static_cast<Float *>(o)->value);
  case Kind::String:
    appendJsonString(out, static_cast<String *>(o)->view());
    return true;
  default:
    break;
  }

  // Containers and other compound values: guard against cycles.
  if (std::find(path_.begin(), path_.end(), o) != path_.end())
    return fail("cycle in JSON structure");
  path_.push_back(o);
  struct Pop {
    std::vector<const Object *> &path;
    ~Pop() { path.pop_back(); }
  } pop{path_};

  switch (o->kind()) {
  case Kind::Dict:
    return emitDict(*static_cast<Dict *>(o));
  case Kind::List: {
    auto *l = static_cast<List *>(o);
    IterationGuard guard(l);
    return emitArray("list", [&](auto add) {
      for (size_t i = 0; i < l->elems.size(); ++i)
        if (!add(l->elems[i]))
          return false;
      return true;
    });
  }
  case Kind::Tuple:
    return emitArray("tuple", [&](auto add) {
      for (Value v : static_cast<Tuple *>(o)->elems())
        if (!add(v))
          return false;
      return true;
    });
  case Kind::Struct:
  case Kind::Module:
    return emitFields(*o);
  default:
    break;
  }
  if (o->kind() == Kind::Range || o->kind() == Kind::Set || o->iterable()) {
    return emitArray(o->typeName(), [&](auto add) {
      IterationScope it(t_, x);
      for (Value v; it.next(v);)
        if (!add(v))
          return false;
      return true;
    });
  }
  if (o->kind() == Kind::Host) {
    std::vector<std::string> names;
    o->attrNames(names);
    if (!names.empty())
      return emitFields(*o);
  }
  return fail("cannot encode " + std::string(o->typeName()) + " as JSON");
}

} // namespace

std::string encodeJson(Thread &t, Value x, std::string_view fn) {
  Encoder e(t);
  if (!e.emit(x))
    t.fail(std::string(fn) + ": " + e.error);
  return std::move(e.out);
}

} // namespace fbc::star
