// The Bytes object (newer Go's `bytes` type): an immutable byte string that
// compares bytewise, hashes with 32-bit FNV-1a (hash(b"") == 0x811c9dc5)
// and prints as b"...". Like strings, bytes are not iterable; b.elems()
// iterates the byte values.
#include "frontend/lib/methods.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/printer.h"
#include "frontend/lib/string_internal.h"
#include "frontend/lib/utf8.h"

#include <llvm/Support/ErrorHandling.h>

#include <algorithm>
#include <cstring>
#include <limits>

namespace fbc::star {

Value makeBytes(Heap &h, std::string_view s) {
  if (s.size() > std::numeric_limits<uint32_t>::max())
    llvm::report_fatal_error("bytes of 4 GiB or more");
  auto *b = h.makeWithTrailing<Bytes>(s.size(), static_cast<uint32_t>(s.size()));
  std::memcpy(reinterpret_cast<char *>(b + 1), s.data(), s.size());
  return Value::object(b);
}

void Bytes::repr(Printer &p) const {
  utf8::appendQuoted(p.out, view(), /*bytesLiteral=*/true);
}

uint32_t Bytes::hash(Thread &) const {
  uint32_t h = 2166136261u;
  for (char c : view()) {
    h ^= static_cast<unsigned char>(c);
    h *= 16777619u;
  }
  return h;
}

bool Bytes::equals(Thread &, const Object &other, int) const {
  const auto &o = static_cast<const Bytes &>(other);
  return size_ == o.size_ && std::memcmp(data(), o.data(), size_) == 0;
}

int Bytes::compare(Thread &, const Object &other, int) const {
  std::string_view a = view(), b = static_cast<const Bytes &>(other).view();
  int c = std::memcmp(a.data(), b.data(), std::min(a.size(), b.size()));
  if (c == 0)
    return a.size() < b.size() ? -1 : a.size() > b.size() ? 1 : 0;
  return c < 0 ? -1 : 1;
}

// Not iterable (Go: "bytes value is not iterable"); see b.elems().
Iterator *Bytes::iterate(Thread &) {
  return nullptr;
}

Value Bytes::index(Thread &t, Value key) {
  int64_t i = checkedSequenceIndex(t, "bytes", key, size_);
  return makeBytes(t.heap, view().substr(i, 1));
}

llvm::ArrayRef<Method> bytesMethods() {
  static const Method kMethods[] = {{"elems", bytes_elems}};
  return kMethods;
}

} // namespace fbc::star
