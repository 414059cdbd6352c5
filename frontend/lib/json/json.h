// The `json` module (Go's starlarkjson): json.encode, json.decode and
// json.indent, plus the C++ entry points the embedder can call directly.
#pragma once

#include "frontend/eval/thread.h"
#include "frontend/lib/value.h"

#include <string>
#include <string_view>

namespace fbc::star {

class Heap;

// A frozen module value named "json" with members decode, encode, indent.
Value makeJsonModule(Heap &h);

// json.encode(x) / json.decode(s) / json.indent(s, prefix=, indent=), with
// Go's messages, each prefixed by the builtin's name ("json.encode: ...").
// `fn` names the builtin in errors (json.encode_indent reports as itself).
std::string encodeJson(Thread &t, Value x, std::string_view fn = "json.encode");
Value decodeJson(Thread &t, std::string_view s);
std::string indentJson(Thread &t, std::string_view s, std::string_view prefix = "",
                       std::string_view indent = "\t");

} // namespace fbc::star
