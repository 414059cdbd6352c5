// The iterable views of a string's bytes and code points: s.elems(),
// s.elem_ords(), s.codepoints(), s.codepoint_ords(), and b.elems() for
// bytes, as the recent go.starlark.net (the reference tool's) has them:
// type names "string.elems", "string.codepoints", "bytes.elems"; the byte
// views are indexable and have a length; an invalid UTF-8 byte is one
// U+FFFD code point in both code point views.
#include "frontend/lib/args.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/printer.h"
#include "frontend/lib/string_internal.h"
#include "frontend/lib/utf8.h"

#include <new>
#include <string>

namespace fbc::star {

namespace {

constexpr std::string_view kReplacementUtf8 = "\xef\xbf\xbd"; // U+FFFD

std::string_view bytesOf(Value subject) {
  if (String *s = subject.as<String>())
    return s->view();
  return static_cast<Bytes *>(subject.obj())->view();
}

bool yieldsBytes(ViewKind k) {
  return k != ViewKind::Codepoints && k != ViewKind::CodepointOrds;
}

// One element of a view, starting at byte i; `size` receives its width.
Value element(Heap &h, std::string_view s, size_t i, ViewKind kind, size_t &size) {
  unsigned char b = static_cast<unsigned char>(s[i]);
  switch (kind) {
  case ViewKind::Elems:
    size = 1;
    return makeString(h, s.substr(i, 1));
  case ViewKind::ElemOrds:
  case ViewKind::BytesElems:
    size = 1;
    return Value::small(b);
  case ViewKind::Codepoints:
  case ViewKind::CodepointOrds: {
    utf8::Decoded d = b < 0x80 ? utf8::Decoded{b, 1} : utf8::decode(s.substr(i));
    size = d.size;
    // An invalid byte is its own element: U+FFFD, as a string or a number.
    if (kind == ViewKind::Codepoints)
      return d.rune == utf8::kRuneError && s.substr(i, d.size) != kReplacementUtf8
                 ? makeString(h, kReplacementUtf8)
                 : makeString(h, s.substr(i, d.size));
    return Value::small(d.rune);
  }
  }
  __builtin_unreachable();
}

class ViewIterator final : public Iterator {
public:
  ViewIterator(Heap &h, std::string_view s, ViewKind kind) : heap_(h), s_(s), kind_(kind) {}
  bool next(Value &out) override {
    if (pos_ >= s_.size())
      return false;
    size_t size;
    out = element(heap_, s_, pos_, kind_, size);
    pos_ += size;
    return true;
  }

private:
  Heap &heap_;
  std::string_view s_;
  ViewKind kind_;
  size_t pos_ = 0;
};

class StringView final : public Object {
public:
  static constexpr bool kNeedsDestroy = false;
  StringView(Value subject, ViewKind kind) : Object(Kind::Host), subject_(subject), kind_(kind) {
    frozen_ = true;
  }

  std::string_view typeName() const override {
    switch (kind_) {
    case ViewKind::Elems:
    case ViewKind::ElemOrds:
      return "string.elems";
    case ViewKind::Codepoints:
    case ViewKind::CodepointOrds:
      return "string.codepoints";
    case ViewKind::BytesElems:
      return "bytes.elems";
    }
    __builtin_unreachable();
  }

  void repr(Printer &p) const override {
    p.repr(subject_);
    switch (kind_) {
    case ViewKind::Elems:
    case ViewKind::BytesElems:
      p.write(".elems()");
      break;
    case ViewKind::ElemOrds:
      p.write(".elem_ords()");
      break;
    case ViewKind::Codepoints:
      p.write(".codepoints()");
      break;
    case ViewKind::CodepointOrds:
      p.write(".codepoint_ords()");
      break;
    }
  }

  uint32_t hash(Thread &t) const override { t.fail("unhashable: " + std::string(typeName())); }

  bool iterable() const override { return true; }
  Iterator *iterate(Thread &t) override {
    void *mem = t.heap.allocate(sizeof(ViewIterator), alignof(ViewIterator));
    return new (mem) ViewIterator(t.heap, bytesOf(subject_), kind_);
  }

  int64_t length() const override {
    return yieldsBytes(kind_) ? static_cast<int64_t>(bytesOf(subject_).size()) : -1;
  }

  Value index(Thread &t, Value key) override {
    if (!yieldsBytes(kind_))
      return Object::index(t, key);
    std::string_view s = bytesOf(subject_);
    int64_t i = checkedSequenceIndex(t, typeName(), key, static_cast<int64_t>(s.size()));
    size_t size;
    return element(t.heap, s, static_cast<size_t>(i), kind_, size);
  }

private:
  Value subject_;
  ViewKind kind_;
};

Value viewMethod(Thread &t, const char *fn, Value self, const Args &args, ViewKind kind) {
  bindNone(t, fn, args);
  return makeStringView(t.heap, self, kind);
}

} // namespace

Value makeStringView(Heap &h, Value subject, ViewKind kind) {
  return Value::object(h.make<StringView>(subject, kind));
}

Value string_elems(Thread &t, Value self, const Args &args) {
  return viewMethod(t, "elems", self, args, ViewKind::Elems);
}
Value string_elem_ords(Thread &t, Value self, const Args &args) {
  return viewMethod(t, "elem_ords", self, args, ViewKind::ElemOrds);
}
Value string_codepoints(Thread &t, Value self, const Args &args) {
  return viewMethod(t, "codepoints", self, args, ViewKind::Codepoints);
}
Value string_codepoint_ords(Thread &t, Value self, const Args &args) {
  return viewMethod(t, "codepoint_ords", self, args, ViewKind::CodepointOrds);
}

Value bytes_elems(Thread &t, Value self, const Args &args) {
  return viewMethod(t, "elems", self, args, ViewKind::BytesElems);
}

} // namespace fbc::star
