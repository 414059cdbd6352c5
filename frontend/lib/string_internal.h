// Declarations shared by the string and bytes implementation files
// (frontend/lib/string*.cpp, bytes*.cpp, format*.cpp). Not a public API:
// other code uses objects.h, methods.h and format.h.
#pragma once

#include "frontend/eval/thread.h"
#include "frontend/lib/objects.h"

#include <cstdint>
#include <string_view>

namespace fbc::star {

// x[i] for byte sequences: converts the index as Go's AsInt32 does and
// reports "string index 5 out of range [-3:2]" style errors. Returns the
// non-negative index.
int64_t checkedSequenceIndex(Thread &t, std::string_view type, Value key, int64_t n);

// Go's `indices` for find/count/startswith: optional start and end (null or
// None mean absent), negative values count from the end, both clamped to
// [0, n]. Errors read "invalid start index: got float, want int". The
// result may have start > end.
struct IndexRange {
  int64_t start, end;
};
IndexRange sliceIndices(Thread &t, std::string_view fn, Value start, Value end, int64_t n);

inline std::string_view receiver(Value self) {
  return static_cast<String *>(self.obj())->view();
}

// The iterable views returned by .elems(), .elem_ords(), .codepoints(),
// .codepoint_ords() and bytes.elems().
enum class ViewKind : uint8_t { Elems, ElemOrds, Codepoints, CodepointOrds, BytesElems };
Value makeStringView(Heap &h, Value subject, ViewKind kind);

// Methods implemented outside string_methods.cpp.
Value string_capitalize(Thread &t, Value self, const Args &args);
Value string_lower(Thread &t, Value self, const Args &args);
Value string_upper(Thread &t, Value self, const Args &args);
Value string_title(Thread &t, Value self, const Args &args);
Value string_isalnum(Thread &t, Value self, const Args &args);
Value string_isalpha(Thread &t, Value self, const Args &args);
Value string_isdigit(Thread &t, Value self, const Args &args);
Value string_islower(Thread &t, Value self, const Args &args);
Value string_isspace(Thread &t, Value self, const Args &args);
Value string_istitle(Thread &t, Value self, const Args &args);
Value string_isupper(Thread &t, Value self, const Args &args);
Value string_split(Thread &t, Value self, const Args &args);
Value string_rsplit(Thread &t, Value self, const Args &args);
Value string_splitlines(Thread &t, Value self, const Args &args);
Value string_elems(Thread &t, Value self, const Args &args);
Value string_elem_ords(Thread &t, Value self, const Args &args);
Value string_codepoints(Thread &t, Value self, const Args &args);
Value string_codepoint_ords(Thread &t, Value self, const Args &args);
Value string_format(Thread &t, Value self, const Args &args);
Value bytes_elems(Thread &t, Value self, const Args &args);

} // namespace fbc::star
