// Text helpers for the string library: UTF-8 decoding and encoding with
// Go's conventions (an invalid byte decodes as U+FFFD of width 1), the
// Unicode properties Go's unicode and strconv packages provide (Go 1.19,
// Unicode 13), and Go-style quoting for repr().
//
// Starlark strings are byte strings (as in Go): nothing here assumes the
// input is valid UTF-8.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace fbc::star::utf8 {

inline constexpr char32_t kRuneError = 0xFFFD;
inline constexpr char32_t kMaxRune = 0x10FFFF;

struct Decoded {
  char32_t rune;
  unsigned size; // bytes consumed; 0 only for empty input
};

// The first code point of s (Go's utf8.DecodeRuneInString): an invalid or
// truncated sequence decodes as {U+FFFD, 1}; empty input as {U+FFFD, 0}.
Decoded decode(std::string_view s);
// The last code point of s (Go's utf8.DecodeLastRuneInString).
Decoded decodeLast(std::string_view s);
// Number of code points, counting each invalid byte as one.
size_t countRunes(std::string_view s);
bool isValid(std::string_view s);

// Appends the UTF-8 encoding of r; surrogates and values beyond U+10FFFF
// encode U+FFFD (Go's WriteRune).
void encode(std::string &out, uint32_t r);
inline bool isValidRune(uint32_t r) {
  return r <= kMaxRune && (r < 0xD800 || r > 0xDFFF);
}
// s with every invalid byte replaced by U+FFFD.
std::string toValid(std::string_view s);

// Unicode properties, as Go's unicode.IsX functions define them.
bool isLetter(char32_t r);
bool isDigit(char32_t r); // category Nd
bool isSpace(char32_t r); // unicode.IsSpace (includes U+0085 and U+00A0)
bool isUpper(char32_t r);
bool isLower(char32_t r);
bool isTitle(char32_t r);
bool isPrint(char32_t r); // strconv.IsPrint: L, M, N, P, S and U+0020
// Starlark's notion of a cased code point: an ASCII letter, or any code
// point with a case-folding partner (unicode.SimpleFold(r) != r).
bool isCased(char32_t r);

// Simple case mappings (unicode.ToUpper/ToLower/ToTitle).
char32_t toUpper(char32_t r);
char32_t toLower(char32_t r);
char32_t toTitle(char32_t r);

// Appends s as a double-quoted literal, escaped as Go's strconv.Quote does:
// \" \\ \a \b \f \n \r \t \v, \xNN for control bytes, DEL and invalid
// UTF-8, \uNNNN / \UNNNNNNNN for other non-printable code points, and
// printable non-ASCII text kept as is. `bytesLiteral` adds the b prefix.
void appendQuoted(std::string &out, std::string_view s, bool bytesLiteral = false);
std::string quote(std::string_view s);

// Appends c as Go's %q formats a rune: 'a', '\'', '"', '\x00', '\u0080'.
void appendQuotedRune(std::string &out, char32_t c);

} // namespace fbc::star::utf8
