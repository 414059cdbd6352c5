// The String object: construction, hashing, comparison, indexing and repr
// (Go's strconv.Quote, utf8.h). The methods live in string_methods.cpp and
// its siblings.
#include "frontend/eval/thread.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/printer.h"
#include "frontend/lib/string_internal.h"
#include "frontend/lib/utf8.h"

#include <llvm/Support/ErrorHandling.h>

#include <array>
#include <cstring>
#include <limits>
#include <new>
#include <string>

namespace fbc::star {

namespace {

// Storage for a String with a few trailing bytes outside any Heap: the
// empty string and the 256 one-byte strings are shared, so indexing,
// elems() and empty results never allocate.
struct alignas(String) SmallStringStorage {
  unsigned char bytes[sizeof(String) + 1];
};

} // namespace

Value makeString(Heap &h, std::string_view s) {
  static const auto shared = [] {
    static std::array<SmallStringStorage, 257> storage;
    std::array<String *, 257> table{};
    for (unsigned i = 0; i < 257; ++i) {
      bool empty = i == 256;
      String *str = new (storage[i].bytes) String(empty ? 0 : 1);
      if (!empty)
        storage[i].bytes[sizeof(String)] = static_cast<unsigned char>(i);
      str->hashCode(); // cache now: these are shared by all threads
      table[i] = str;
    }
    return table;
  }();
  if (s.size() <= 1)
    return Value::object(shared[s.empty() ? 256 : static_cast<unsigned char>(s[0])]);
  Value out;
  std::memcpy(makeStringUninit(h, s.size(), out), s.data(), s.size());
  return out;
}

char *makeStringUninit(Heap &h, size_t n, Value &out) {
  // The length is 32 bits; a larger string cannot be represented.
  if (n > std::numeric_limits<uint32_t>::max())
    llvm::report_fatal_error("string of 4 GiB or more");
  auto *str = h.makeWithTrailing<String>(n, static_cast<uint32_t>(n));
  out = Value::object(str);
  return reinterpret_cast<char *>(str + 1);
}

void String::repr(Printer &p) const {
  utf8::appendQuoted(p.out, view());
}

// Go computes hash(s) as Java's String.hashCode would, except that code
// points above U+FFFF are added whole rather than as surrogate pairs (the
// reference implementation's utf16.IsSurrogate test never matches a
// decoded rune); invalid bytes count as U+FFFD. hash("😿") == 128575.
uint32_t String::hashCode() const {
  if (hash_ != 0)
    return hash_;
  uint32_t h = 0;
  std::string_view s = view();
  for (size_t i = 0; i < s.size();) {
    unsigned char b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) {
      h = 31 * h + b;
      ++i;
      continue;
    }
    utf8::Decoded d = utf8::decode(s.substr(i));
    h = 31 * h + d.rune;
    i += d.size;
  }
  if (h != 0)  // 0 means "not computed": a string hashing to 0 is rehashed
    hash_ = h; // (never written for the shared strings, read by all threads)
  return h;
}

uint32_t String::hash(Thread &) const {
  return hashCode();
}

bool String::equals(Thread &, const Object &other, int) const {
  const auto &o = static_cast<const String &>(other);
  return size_ == o.size_ && std::memcmp(data(), o.data(), size_) == 0;
}

int String::compare(Thread &, const Object &other, int) const {
  std::string_view a = view(), b = static_cast<const String &>(other).view();
  int c = std::memcmp(a.data(), b.data(), std::min(a.size(), b.size()));
  if (c == 0)
    return a.size() < b.size() ? -1 : a.size() > b.size() ? 1 : 0;
  return c < 0 ? -1 : 1;
}

// Shared by strings and bytes: Go's getIndex converts the index with
// AsInt32 and reports "T index: ..." / "T index i out of range [-n:n-1]".
int64_t checkedSequenceIndex(Thread &t, std::string_view type, Value key, int64_t n) {
  int64_t i;
  if (key.isSmallInt()) {
    i = key.smallInt();
  } else if (key.isObject() && key.kind() == Kind::Int) {
    t.fail(std::string(type) + " index: " + str(key) + " out of range");
  } else {
    t.fail(std::string(type) + " index: got " + std::string(typeName(key)) + ", want int");
  }
  if (i < std::numeric_limits<int32_t>::min() || i > std::numeric_limits<int32_t>::max())
    t.fail(std::string(type) + " index: " + std::to_string(i) + " out of range");
  int64_t orig = i;
  if (i < 0)
    i += n;
  if (i < 0 || i >= n) {
    if (n == 0)
      t.fail("index " + std::to_string(orig) + " out of range: empty " + std::string(type));
    t.fail(std::string(type) + " index " + std::to_string(orig) + " out of range [" +
           std::to_string(-n) + ":" + std::to_string(n - 1) + "]");
  }
  return i;
}

Value String::index(Thread &t, Value key) {
  int64_t i = checkedSequenceIndex(t, "string", key, size_);
  return makeString(t.heap, view().substr(i, 1));
}

Value String::attr(Thread &, std::string_view) {
  return Value();
}

} // namespace fbc::star
