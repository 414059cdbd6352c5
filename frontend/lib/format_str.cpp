// str.format: "{}", "{0}", "{name}", "{!r}", "{!s}", "{{" and "}}". Python's
// format specs, attribute and index syntax are rejected with Go's messages.
#include "frontend/lib/format.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/printer.h"
#include "frontend/lib/string_internal.h"
#include "frontend/lib/utf8.h"

#include <cstdint>
#include <limits>
#include <string>

namespace fbc::star {

namespace {

// Decimal digits only (leading zeros allowed: "{012}" is field 12).
bool parseDecimal(std::string_view s, size_t &out) {
  size_t x = 0;
  for (char c : s) {
    if (c < '0' || c > '9')
      return false;
    if (x > (std::numeric_limits<int64_t>::max() - 9) / 10)
      return false; // overflow
    x = x * 10 + static_cast<size_t>(c - '0');
  }
  out = x;
  return true;
}

// Appends literal text, turning "}}" into "}" and rejecting a lone "}".
void appendLiteral(Thread &t, std::string &out, std::string_view text) {
  for (;;) {
    size_t close = text.find('}');
    if (close == std::string_view::npos) {
      out.append(text);
      return;
    }
    if (close + 1 == text.size() || text[close + 1] != '}')
      t.fail("format: single '}' in format");
    out.append(text.substr(0, close + 1));
    text.remove_prefix(close + 2);
  }
}

Value keywordArg(const Args &args, std::string_view name) {
  for (const Kwarg &kw : args.kwargs)
    if (kw.name->view() == name)
      return kw.value;
  return Value();
}

enum class Numbering { Unknown, Automatic, Manual };

// The argument a replacement field names: the next positional ("{}"), the
// numbered one ("{1}") or a keyword ("{name}"), which one form fixes for
// the whole format string.
Value fieldArgument(Thread &t, const Args &args, std::string_view name, Numbering &numbering,
                    size_t &nextAuto) {
  size_t num;
  if (name.empty()) {
    if (numbering == Numbering::Manual)
      t.fail("format: cannot switch from manual field specification to automatic field "
             "numbering");
    numbering = Numbering::Automatic;
    if (nextAuto >= args.positional.size())
      t.fail("format: tuple index out of range");
    return args.positional[nextAuto++];
  }
  if (parseDecimal(name, num)) {
    if (numbering == Numbering::Automatic)
      t.fail("format: cannot switch from automatic field numbering to manual field "
             "specification");
    numbering = Numbering::Manual;
    if (num >= args.positional.size())
      t.fail("format: tuple index out of range");
    return args.positional[num];
  }
  Value arg = keywordArg(args, name);
  if (arg.isNull()) {
    std::string n(name);
    if (name.find('.') != std::string_view::npos)
      t.fail("format: attribute syntax x.y is not supported in replacement fields: " + n);
    if (name.find('[') != std::string_view::npos)
      t.fail("format: element syntax a[i] is not supported in replacement fields: " + n);
    if (name.find('{') != std::string_view::npos)
      t.fail("format: nested replacement fields not supported");
    t.fail("format: keyword " + n + " not found");
  }
  return arg;
}

} // namespace

Value string_format(Thread &t, Value self, const Args &args) {
  std::string_view format = receiver(self);
  std::string out;
  out.reserve(format.size() + 16);
  Numbering numbering = Numbering::Unknown;
  size_t nextAuto = 0;
  for (;;) {
    size_t open = format.find('{');
    appendLiteral(t, out, format.substr(0, open));
    if (open == std::string_view::npos)
      break;
    if (open + 1 < format.size() && format[open + 1] == '{') {
      out.push_back('{');
      format.remove_prefix(open + 2);
      continue;
    }
    format.remove_prefix(open + 1);
    size_t close = format.find('}');
    if (close == std::string_view::npos)
      t.fail("format: unmatched '{' in format");
    std::string_view field = format.substr(0, close);
    format.remove_prefix(close + 1);

    // field = name [ "!" conv ] [ ":" spec ]; without "!", the spec
    // follows the name, otherwise the conversion.
    std::string_view name = field, conv = "s", spec;
    auto splitSpec = [&spec](std::string_view &part) {
      if (size_t colon = part.find(':'); colon != std::string_view::npos) {
        spec = part.substr(colon + 1);
        part = part.substr(0, colon);
      }
    };
    if (size_t bang = field.find('!'); bang == std::string_view::npos) {
      splitSpec(name);
    } else {
      name = field.substr(0, bang);
      conv = field.substr(bang + 1);
      splitSpec(conv);
    }

    Value arg = fieldArgument(t, args, name, numbering, nextAuto);

    if (!spec.empty())
      t.fail("format spec features not supported in replacement fields: " + std::string(spec));

    if (conv == "s" || conv == "r") {
      appendConverted(out, arg, conv == "r");
    } else {
      t.fail("format: unknown conversion " + utf8::quote(conv));
    }
  }
  return makeString(t.heap, out);
}

} // namespace fbc::star
