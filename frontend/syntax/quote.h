// Decoding of Starlark string and bytes literals (escape sequences), with
// Go's error messages ("invalid escape sequence \q").
#pragma once

#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/StringRef.h>

#include <string>

namespace fbc::syntax {

struct UnquoteResult {
  bool ok = true;
  bool isBytes = false;
  bool triple = false;
  // The decoded value: either a slice of the input (no escapes) or `buf`.
  llvm::StringRef value;
  std::string error; // set when !ok
};

// Decodes a literal's source text, prefix and quotes included: "a\n",
// r'x', b"\xff", '''doc'''. \x and octal escapes may produce any byte (as in
// the Debian Go release); \u and \U produce UTF-8 (as in newer Go). `buf` is
// scratch space that `value` may point into.
UnquoteResult unquote(llvm::StringRef quoted, llvm::SmallVectorImpl<char> &buf);

// Appends the UTF-8 encoding of a code point.
void appendUtf8(llvm::SmallVectorImpl<char> &out, char32_t c);

} // namespace fbc::syntax
