// Unicode letter classification for the scanner (Go's unicode.IsLetter).
#pragma once

namespace fbc::syntax {

// Whether c is a letter (categories L*). ASCII letters included.
bool isUnicodeLetter(char32_t c);

} // namespace fbc::syntax
