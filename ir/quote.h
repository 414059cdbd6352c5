// Double-quoted string literals for the IR's text form and messages, as Go's
// strconv.Quote writes them for the common cases: \" \\ \n \t ... escaped,
// other control bytes and invalid UTF-8 as \xNN, valid UTF-8 kept.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace fbc::ir {

std::string quote(std::string_view s);

// The inverse of quote(): reads the literal at the start of `s` (its
// opening '"' included) into `out` and returns the characters it used; 0
// when `s` does not start with a literal quote() could have written.
size_t unquote(std::string_view s, std::string &out);

// The length of the valid UTF-8 sequence at s[i] (1 for ASCII), or 0 when
// the byte starts none: frontend/lib/utf8's decoder (Go's rules) as the IR's
// printers need it.
size_t validUtf8Length(std::string_view s, size_t i);

// `name` as a Starlark identifier, for the stubs fbc writes (`fbc plan
// --suggest`, with and without --from): every character that is not a
// letter, a digit or '_' becomes '_', and a leading digit gets a '_' before
// it.
std::string starlarkIdentifier(std::string_view name);

// The shortest decimal that reads back as `v` ("0.3", "1", "1e-05").
std::string formatNumber(double v);

} // namespace fbc::ir
