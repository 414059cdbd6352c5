// Helpers shared by the integer files of frontend/lib (int.cpp,
// int_arith.cpp, float.cpp). Not part of the public value API: everything
// else goes through numeric.h.
#pragma once

#include <llvm/ADT/APInt.h>

#include <cstdint>

namespace fbc::star::intdetail {

// Three-way comparison of two signed APInts of any widths.
int compareSigned(const llvm::APInt &a, const llvm::APInt &b);

// Sign-extends (or keeps) `a` to `width` bits.
inline llvm::APInt widen(const llvm::APInt &a, unsigned width) {
  return a.getBitWidth() >= width ? a : a.sext(width);
}

// The nearest double to a signed APInt, rounding half to even (as Go's
// big.Float does). Returns +-inf when the magnitude is too large.
double roundToDouble(const llvm::APInt &a);

// The integer part of a finite double (truncated toward zero), exactly.
llvm::APInt truncToAPInt(double f);

// Hash of an integer, shared by ints and integral floats so that equal
// numbers hash equally whatever their representation.
inline uint32_t hashInt64(int64_t v) {
  uint64_t x = static_cast<uint64_t>(v);
  x ^= x >> 31;
  x *= 0x9E3779B97F4A7C15ull;
  return static_cast<uint32_t>(x >> 32);
}
uint32_t hashAPInt(const llvm::APInt &a);

} // namespace fbc::star::intdetail
