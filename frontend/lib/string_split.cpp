// split, rsplit and splitlines. Splitting on a separator keeps empty
// fields; splitting on white space (no separator) drops them and trims, as
// in Python. Errors name "split" for both directions, as Go does.
#include "frontend/lib/args.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/string_internal.h"
#include "frontend/lib/utf8.h"

#include <llvm/ADT/SmallVector.h>

#include <algorithm>
#include <string>
#include <vector>

namespace fbc::star {

namespace {

// Most splits have a handful of fields: keep them off the malloc heap.
using Fields = llvm::SmallVector<std::string_view, 8>;

// Fields separated by runs of white space, left to right. With max >= 0,
// after `max` fields the rest of the string (from the next non-space) is
// the last field.
Fields splitSpace(std::string_view s, int64_t max) {
  Fields out;
  size_t start = std::string_view::npos; // start of the current field
  for (size_t i = 0; i < s.size();) {
    utf8::Decoded d = utf8::decode(s.substr(i));
    if (utf8::isSpace(d.rune)) {
      if (start != std::string_view::npos) {
        if (max >= 0 && static_cast<int64_t>(out.size()) == max)
          break;
        out.push_back(s.substr(start, i - start));
        start = std::string_view::npos;
      }
    } else if (start == std::string_view::npos) {
      start = i;
    }
    i += d.size;
  }
  if (start != std::string_view::npos)
    out.push_back(s.substr(start));
  return out;
}

// The mirror image of splitSpace: fields are peeled off the right end.
Fields rsplitSpace(std::string_view s, int64_t max) {
  Fields out;
  size_t end = std::string_view::npos; // end of the current field
  for (size_t i = s.size(); i > 0;) {
    utf8::Decoded d = utf8::decodeLast(s.substr(0, i));
    if (utf8::isSpace(d.rune)) {
      if (end != std::string_view::npos) {
        if (static_cast<int64_t>(out.size()) == max)
          break;
        out.push_back(s.substr(i, end - i));
        end = std::string_view::npos;
      }
    } else if (end == std::string_view::npos) {
      end = i;
    }
    i -= d.size;
  }
  if (end != std::string_view::npos)
    out.push_back(s.substr(0, end));
  std::reverse(out.begin(), out.end());
  return out;
}

// Splits around every occurrence of sep (non-empty); with limit > 0, at
// most `limit` fields, the last holding the unsplit rest.
Fields splitOn(std::string_view s, std::string_view sep, int64_t limit) {
  Fields out;
  size_t start = 0;
  while (limit <= 0 || static_cast<int64_t>(out.size()) + 1 < limit) {
    size_t i = s.find(sep, start);
    if (i == std::string_view::npos)
      break;
    out.push_back(s.substr(start, i - start));
    start = i + sep.size();
  }
  out.push_back(s.substr(start));
  return out;
}

// Like Python's rsplit, but the occurrences are those a left-to-right scan
// finds (as Go does): "aaa".rsplit("aa", 1) == ["", "a"]. All fields
// before the last `max` separators are merged into the first.
Fields rsplitOn(std::string_view s, std::string_view sep, int64_t max) {
  Fields all = splitOn(s, sep, 0);
  int64_t excess = static_cast<int64_t>(all.size()) - max;
  if (excess <= 1)
    return all;
  const std::string_view &lastMerged = all[excess - 1];
  Fields out;
  out.reserve(static_cast<size_t>(max) + 1);
  out.push_back(s.substr(0, lastMerged.data() + lastMerged.size() - s.data()));
  out.insert(out.end(), all.begin() + excess, all.end());
  return out;
}

Value toList(Thread &t, const Fields &fields) {
  std::vector<Value> elems;
  elems.reserve(fields.size());
  for (std::string_view f : fields)
    elems.push_back(makeString(t.heap, f));
  return Value::object(t.heap.make<List>(std::move(elems)));
}

Value splitImpl(Thread &t, const char *fn, Value self, const Args &args, bool fromRight) {
  Value sepV, maxV;
  bindPositional(t, fn, args, 0, {&sepV, &maxV});
  int64_t max = maxV ? wantInt(t, fn, "2", maxV) : -1;
  std::string_view s = receiver(self);
  if (sepV.isNull() || sepV.is(Kind::None)) {
    if (max < 0)
      return toList(t, splitSpace(s, -1));
    return toList(t, fromRight ? rsplitSpace(s, max) : splitSpace(s, max));
  }
  String *sepStr = sepV.as<String>();
  if (!sepStr)
    t.fail("split: got " + std::string(typeName(sepV)) + " for separator, want string");
  std::string_view sep = sepStr->view();
  if (sep.empty())
    t.fail("split: empty separator");
  if (max < 0)
    return toList(t, splitOn(s, sep, 0));
  return toList(t, fromRight ? rsplitOn(s, sep, max) : splitOn(s, sep, max + 1));
}

} // namespace

Value string_split(Thread &t, Value self, const Args &args) {
  return splitImpl(t, "split", self, args, false);
}

Value string_rsplit(Thread &t, Value self, const Args &args) {
  return splitImpl(t, "rsplit", self, args, true);
}

// Lines end at "\n" only; a final newline does not start another line.
Value string_splitlines(Thread &t, Value self, const Args &args) {
  Value keepV;
  bindPositional(t, "splitlines", args, 0, {&keepV});
  bool keepends = keepV ? wantBool(t, "splitlines", "1", keepV) : false;
  std::string_view s = receiver(self);
  Fields lines;
  size_t start = 0;
  while (start < s.size()) {
    size_t nl = s.find('\n', start);
    if (nl == std::string_view::npos) {
      lines.push_back(s.substr(start));
      break;
    }
    lines.push_back(s.substr(start, nl - start + (keepends ? 1 : 0)));
    start = nl + 1;
  }
  return toList(t, lines);
}

} // namespace fbc::star
