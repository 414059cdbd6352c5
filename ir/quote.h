// Double-quoted string literals for the IR's text form and messages, as Go's
// strconv.Quote writes them for the common cases: \" \\ \n \t ... escaped,
// other control bytes and invalid UTF-8 as \xNN, valid UTF-8 kept.
#pragma once

#include <string>
#include <string_view>

namespace fbc::ir {

std::string quote(std::string_view s);

} // namespace fbc::ir
