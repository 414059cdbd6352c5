// Go-style durations, as time.ParseDuration reads them and
// time.Duration.String() writes them: "500ms", "1.5s", "1m30s", "2h0m0s".
// Values are nanoseconds in an int64.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace fbc::ir {

// Parses `s`. On failure returns nullopt and sets `error` to Go's message,
// e.g. `time: invalid duration "soon"`, `time: missing unit in duration "5"`,
// `time: unknown unit "d" in duration "3d"`.
std::optional<int64_t> parseDuration(std::string_view s, std::string &error);

// Go's Duration.String(): "0s", "1.5µs", "500ms", "1m30s", "2h0m0s".
std::string formatDuration(int64_t ns);

inline constexpr int64_t kSecond = 1000000000;

} // namespace fbc::ir
