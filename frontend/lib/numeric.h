// Integers (inline small ints and BigInt) and floats: construction,
// conversion, arithmetic and Go-compatible formatting. Implemented in
// frontend/lib/int.cpp and frontend/lib/float.cpp.
#pragma once

#include "frontend/eval/thread.h"
#include "frontend/lib/value.h"

#include <llvm/ADT/APInt.h>

#include <string>
#include <string_view>

namespace fbc::star {

// Construction. makeInt normalises: values that fit inline never allocate.
Value makeInt(Heap &h, int64_t v);
Value makeInt(Heap &h, const llvm::APInt &v); // v is signed
Value makeFloat(Heap &h, double v);

// Conversion. toInt64 fails (returns false) when the int does not fit.
bool toInt64(Value intValue, int64_t &out);
llvm::APInt toAPInt(Value intValue); // signed, at least 64 bits wide
// int -> float; throws "int too large to convert to float".
double intToFloat(Thread &t, Value intValue);
// float -> int, truncating; throws for inf/nan ("cannot convert float infinity to
// integer", "cannot convert float NaN to integer"; callers add their prefix).
Value floatToInt(Thread &t, double f);

// Integer literal text from the scanner ("123", "0x1F", "0o17", "0b101")
// to a value. Precondition: the text is a valid literal.
Value parseIntLiteral(Heap &h, std::string_view text);
// int(s, base) semantics (base 0 or 2..36). Throws Go's errors itself, e.g.
// "int: invalid literal with base 8: 0x12", since the base Go names is the
// one in effect when parsing stopped; never returns null.
Value parseInt(Thread &t, std::string_view s, int base);

// Formatting.
std::string intToString(Value intValue, unsigned radix = 10);
// str(float): Go's %g with shortest repr, e.g. "1e+06", "+inf", "nan", "1.0".
std::string floatToString(double f);
// %e %f %g (and upper-case) as Starlark's % operator formats them.
std::string formatFloat(double f, char verb);

// Arithmetic on numbers (int or float operands); null when the operand
// types are not both numeric, so the caller reports the type error.
Value numericBinary(Thread &t, BinOp op, Value x, Value y);
// Ordering of two numbers (int/float mix is exact). Returns -1, 0 or 1: as
// in Go, floats are totally ordered with every NaN equal to NaN and above
// +inf (so nan == nan, nan <= nan, and sorted() puts NaN last).
int numericCompare(Value x, Value y);
uint32_t numericHash(Value v); // equal ints and floats hash equally

} // namespace fbc::star
