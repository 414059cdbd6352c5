// The string method table and the searching, testing, joining and trimming
// methods. Semantics and messages follow Go's library.go: strings are byte
// strings, searches are bytewise, and every method takes positional
// arguments only.
#include "frontend/lib/args.h"
#include "frontend/lib/methods.h"
#include "frontend/lib/numeric.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/printer.h"
#include "frontend/lib/string_internal.h"
#include "frontend/lib/utf8.h"

#include <llvm/ADT/SmallVector.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace fbc::star {

// Go's AsInt32 conversion of an optional index, with its messages.
static bool optionalIndex(Thread &t, std::string_view fn, const char *which, Value v,
                          int64_t &out) {
  if (v.isNull() || v.is(Kind::None))
    return false;
  auto fail = [&](const std::string &why) {
    t.fail(std::string(fn) + ": invalid " + which + " index: " + why);
  };
  if (!v.isInt())
    fail("got " + std::string(typeName(v)) + ", want int");
  int64_t i;
  if (!toInt64(v, i) || i < std::numeric_limits<int32_t>::min() ||
      i > std::numeric_limits<int32_t>::max())
    fail(str(v) + " out of range");
  out = i;
  return true;
}

IndexRange sliceIndices(Thread &t, std::string_view fn, Value startV, Value endV, int64_t n) {
  int64_t start = 0, end = n;
  if (optionalIndex(t, fn, "start", startV, start) && start < 0)
    start += n;
  start = std::clamp<int64_t>(start, 0, n);
  if (optionalIndex(t, fn, "end", endV, end) && end < 0)
    end += n;
  end = std::clamp<int64_t>(end, 0, n);
  return {start, end};
}

// The receiver restricted to [start:end), empty when end <= start.
static std::string_view subject(Thread &t, std::string_view fn, Value self, Value start, Value end,
                                int64_t &offset) {
  std::string_view s = receiver(self);
  IndexRange r = sliceIndices(t, fn, start, end, static_cast<int64_t>(s.size()));
  offset = r.start;
  return r.start < r.end ? s.substr(r.start, r.end - r.start) : std::string_view();
}

static Value makeIndex(Thread &t, int64_t i) {
  return makeInt(t.heap, i);
}

// ---- searching --------------------------------------------------------

static Value findImpl(Thread &t, const char *fn, Value self, const Args &args, bool allowMissing,
                      bool last) {
  Value subV, start, end;
  bindPositional(t, fn, args, 1, {&subV, &start, &end});
  std::string_view sub = wantString(t, fn, "1", subV);
  int64_t offset;
  std::string_view s = subject(t, fn, self, start, end, offset);
  size_t i = last ? s.rfind(sub) : s.find(sub);
  if (i == std::string_view::npos) {
    if (!allowMissing)
      t.fail(std::string(fn) + ": substring not found");
    return Value::small(-1);
  }
  return makeIndex(t, static_cast<int64_t>(i) + offset);
}

static Value string_find(Thread &t, Value self, const Args &args) {
  return findImpl(t, "find", self, args, true, false);
}
static Value string_rfind(Thread &t, Value self, const Args &args) {
  return findImpl(t, "rfind", self, args, true, true);
}
static Value string_index(Thread &t, Value self, const Args &args) {
  return findImpl(t, "index", self, args, false, false);
}
static Value string_rindex(Thread &t, Value self, const Args &args) {
  return findImpl(t, "rindex", self, args, false, true);
}

// Non-overlapping occurrences; an empty needle matches between every code
// point and at both ends (Go's strings.Count).
static int64_t countOccurrences(std::string_view s, std::string_view sub) {
  if (sub.empty())
    return static_cast<int64_t>(utf8::countRunes(s)) + 1;
  int64_t n = 0;
  for (size_t i = s.find(sub); i != std::string_view::npos; i = s.find(sub, i + sub.size()))
    ++n;
  return n;
}

static Value string_count(Thread &t, Value self, const Args &args) {
  Value subV, start, end;
  bindPositional(t, "count", args, 1, {&subV, &start, &end});
  std::string_view sub = wantString(t, "count", "1", subV);
  int64_t offset;
  std::string_view s = subject(t, "count", self, start, end, offset);
  return makeIndex(t, countOccurrences(s, sub));
}

static Value affixTest(Thread &t, const char *fn, Value self, const Args &args, bool suffix) {
  Value x, start, end;
  bindPositional(t, fn, args, 1, {&x, &start, &end});
  int64_t offset;
  std::string_view s = subject(t, fn, self, start, end, offset);
  auto test = [&](std::string_view affix) {
    return suffix ? s.ends_with(affix) : s.starts_with(affix);
  };
  if (String *str = x.as<String>())
    return boolean(test(str->view()));
  if (Tuple *tuple = x.as<Tuple>()) {
    for (uint32_t i = 0; i < tuple->size(); ++i) {
      String *str = tuple->elems()[i].as<String>();
      if (!str)
        t.fail(std::string(fn) + ": want string, got " + std::string(typeName(tuple->elems()[i])) +
               ", for element " + std::to_string(i));
      if (test(str->view()))
        return trueValue();
    }
    return falseValue();
  }
  t.fail(std::string(fn) + ": got " + std::string(typeName(x)) +
         ", want string or tuple of string");
}

static Value string_startswith(Thread &t, Value self, const Args &args) {
  return affixTest(t, "startswith", self, args, false);
}
static Value string_endswith(Thread &t, Value self, const Args &args) {
  return affixTest(t, "endswith", self, args, true);
}

// ---- building ---------------------------------------------------------

static Value string_join(Thread &t, Value self, const Args &args) {
  Value iterable;
  bindPositional(t, "join", args, 1, {&iterable});
  wantIterable(t, "join", "1", iterable);
  std::string_view sep = receiver(self);
  // Two passes over the elements (type check and length, then copy) write
  // the result in place; a list is locked against changes meanwhile.
  auto build = [&](llvm::ArrayRef<Value> elems) {
    size_t n = elems.empty() ? 0 : sep.size() * (elems.size() - 1);
    for (Value x : elems) {
      String *s = x.as<String>();
      if (!s)
        t.fail("join: in list, want string, got " + std::string(typeName(x)));
      n += s->size();
    }
    return makeStringWith(t.heap, n, [&](char *out) {
      for (size_t i = 0; i < elems.size(); ++i) {
        if (i) {
          std::memcpy(out, sep.data(), sep.size());
          out += sep.size();
        }
        std::string_view v = static_cast<const String *>(elems[i].obj())->view();
        std::memcpy(out, v.data(), v.size());
        out += v.size();
      }
    });
  };
  if (List *l = iterable.as<List>()) {
    IterationGuard guard(l);
    return build(l->elems);
  }
  if (Tuple *tu = iterable.as<Tuple>())
    return build(tu->elems());
  std::vector<Value> elems;
  IterationScope it(t, iterable);
  for (Value x; it.next(x);)
    elems.push_back(x);
  return build(elems);
}

static Value partitionImpl(Thread &t, const char *fn, Value self, const Args &args, bool last) {
  Value sepV;
  bindPositional(t, fn, args, 1, {&sepV});
  std::string_view sep = wantString(t, fn, "1", sepV);
  if (sep.empty())
    t.fail(std::string(fn) + ": empty separator");
  std::string_view s = receiver(self);
  size_t i = last ? s.rfind(sep) : s.find(sep);
  Heap &h = t.heap;
  Value empty = makeString(h, "");
  if (i == std::string_view::npos) {
    if (last)
      return Value::object(makeTuple(h, {empty, empty, self}));
    return Value::object(makeTuple(h, {self, empty, empty}));
  }
  return Value::object(
      makeTuple(h, {makeString(h, s.substr(0, i)), sepV, makeString(h, s.substr(i + sep.size()))}));
}

static Value string_partition(Thread &t, Value self, const Args &args) {
  return partitionImpl(t, "partition", self, args, false);
}
static Value string_rpartition(Thread &t, Value self, const Args &args) {
  return partitionImpl(t, "rpartition", self, args, true);
}

static Value string_replace(Thread &t, Value self, const Args &args) {
  Value oldV, newV, countV;
  bindPositional(t, "replace", args, 2, {&oldV, &newV, &countV});
  std::string_view from = wantString(t, "replace", "1", oldV);
  std::string_view to = wantString(t, "replace", "2", newV);
  int64_t limit = countV ? wantInt(t, "replace", "3", countV) : -1;
  std::string_view s = receiver(self);
  if (from == to || limit == 0)
    return self;
  int64_t matches = countOccurrences(s, from);
  if (matches == 0)
    return self;
  if (limit < 0 || matches < limit)
    limit = matches;
  std::string out;
  out.reserve(s.size() + static_cast<size_t>(limit) * to.size());
  size_t start = 0;
  for (int64_t i = 0; i < limit; ++i) {
    size_t j = start;
    if (from.empty()) {
      // An empty pattern matches before each code point and at the end.
      if (i > 0)
        j += utf8::decode(s.substr(start)).size;
    } else {
      j = s.find(from, start);
    }
    out.append(s.substr(start, j - start));
    out.append(to);
    start = j + from.size();
  }
  out.append(s.substr(start));
  return makeString(t.heap, out);
}

static Value removeAffix(Thread &t, const char *fn, Value self, const Args &args, bool suffix) {
  Value affixV;
  bindPositional(t, fn, args, 1, {&affixV});
  std::string_view affix = wantString(t, fn, "1", affixV);
  std::string_view s = receiver(self);
  if (affix.empty())
    return self;
  if (suffix && s.ends_with(affix))
    return makeString(t.heap, s.substr(0, s.size() - affix.size()));
  if (!suffix && s.starts_with(affix))
    return makeString(t.heap, s.substr(affix.size()));
  return self;
}

static Value string_removeprefix(Thread &t, Value self, const Args &args) {
  return removeAffix(t, "removeprefix", self, args, false);
}
static Value string_removesuffix(Thread &t, Value self, const Args &args) {
  return removeAffix(t, "removesuffix", self, args, true);
}

// ---- trimming ---------------------------------------------------------

namespace {

// A set of code points to trim. Invalid bytes decode as U+FFFD on both
// sides, as in Go's strings.Trim.
class Cutset {
public:
  explicit Cutset(std::string_view chars) {
    for (size_t i = 0; i < chars.size();) {
      utf8::Decoded d = utf8::decode(chars.substr(i));
      runes_.push_back(d.rune);
      i += d.size;
    }
  }
  bool contains(char32_t r) const {
    return std::find(runes_.begin(), runes_.end(), r) != runes_.end();
  }

private:
  llvm::SmallVector<char32_t, 16> runes_;
};

} // namespace

template <class Pred> static std::string_view trimLeft(std::string_view s, Pred drop) {
  while (!s.empty()) {
    utf8::Decoded d = utf8::decode(s);
    if (!drop(d.rune))
      break;
    s.remove_prefix(d.size);
  }
  return s;
}

template <class Pred> static std::string_view trimRight(std::string_view s, Pred drop) {
  while (!s.empty()) {
    utf8::Decoded d = utf8::decodeLast(s);
    if (!drop(d.rune))
      break;
    s.remove_suffix(d.size);
  }
  return s;
}

static Value stripImpl(Thread &t, const char *fn, Value self, const Args &args, bool left,
                       bool right) {
  Value charsV;
  bindPositional(t, fn, args, 0, {&charsV});
  std::string_view chars = charsV ? wantString(t, fn, "1", charsV) : std::string_view();
  std::string_view s = receiver(self), r = s;
  auto apply = [&](auto drop) {
    if (left)
      r = trimLeft(r, drop);
    if (right)
      r = trimRight(r, drop);
  };
  if (chars.empty()) {
    apply([](char32_t c) { return utf8::isSpace(c); });
  } else {
    Cutset set(chars);
    apply([&](char32_t c) { return set.contains(c); });
  }
  return r.size() == s.size() ? self : makeString(t.heap, r);
}

static Value string_strip(Thread &t, Value self, const Args &args) {
  return stripImpl(t, "strip", self, args, true, true);
}
static Value string_lstrip(Thread &t, Value self, const Args &args) {
  return stripImpl(t, "lstrip", self, args, true, false);
}
static Value string_rstrip(Thread &t, Value self, const Args &args) {
  return stripImpl(t, "rstrip", self, args, false, true);
}

// ---- the table --------------------------------------------------------

llvm::ArrayRef<Method> stringMethods() {
  static const Method kMethods[] = {
      {"capitalize", string_capitalize},
      {"codepoint_ords", string_codepoint_ords},
      {"codepoints", string_codepoints},
      {"count", string_count},
      {"elem_ords", string_elem_ords},
      {"elems", string_elems},
      {"endswith", string_endswith},
      {"find", string_find},
      {"format", string_format},
      {"index", string_index},
      {"isalnum", string_isalnum},
      {"isalpha", string_isalpha},
      {"isdigit", string_isdigit},
      {"islower", string_islower},
      {"isspace", string_isspace},
      {"istitle", string_istitle},
      {"isupper", string_isupper},
      {"join", string_join},
      {"lower", string_lower},
      {"lstrip", string_lstrip},
      {"partition", string_partition},
      {"removeprefix", string_removeprefix},
      {"removesuffix", string_removesuffix},
      {"replace", string_replace},
      {"rfind", string_rfind},
      {"rindex", string_rindex},
      {"rpartition", string_rpartition},
      {"rsplit", string_rsplit},
      {"rstrip", string_rstrip},
      {"split", string_split},
      {"splitlines", string_splitlines},
      {"startswith", string_startswith},
      {"strip", string_strip},
      {"title", string_title},
      {"upper", string_upper},
  };
  return kMethods;
}

} // namespace fbc::star
