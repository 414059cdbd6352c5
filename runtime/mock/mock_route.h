// Which route of an HTTP mock answers a request, as the reference matches
// them: routes in declaration order, the first match wins. A pattern is
// "METHOD /path": the method compares case-insensitively, "*" matches any.
// In the path, a segment "*" matches one segment and "**" any number (zero
// included); any other segment is a shell-style glob within the segment
// ("user-*", "v?", "[ab]"). A pattern without '*' is compared whole (a glob
// for '?' and '[...]', or equal). Leading and trailing '/' do not count.
#pragma once

#include <string_view>

namespace fbc::rt {

bool mockRouteMatches(std::string_view pattern, std::string_view method, std::string_view path);

} // namespace fbc::rt
