// Go's UnpackArgs messages for a call a builtin cannot bind, in one place
// for star::bindArgs (frontend/lib/args.h) and the spec and body builtins'
// binder in its Go wording (ir/builtins/binder.h).
#pragma once

#include <llvm/ADT/ArrayRef.h>

#include <cstddef>
#include <string>
#include <string_view>

namespace fbc::star {

class String;

// "fn: got 3 arguments, want at most 2"
std::string tooManyArgumentsMessage(std::string_view fn, size_t got, size_t most);
// "fn: unexpected keyword argument "keg" (did you mean key?)": the nearest
// of `params` when one is close (the recent go.starlark.net suggests it).
std::string unexpectedKeywordMessage(std::string_view fn, String *keyword,
                                     llvm::ArrayRef<std::string_view> params);
// "fn: got multiple values for keyword argument "key""
std::string multipleValuesMessage(std::string_view fn, String *keyword);
// "fn: missing argument for key"
std::string missingArgumentMessage(std::string_view fn, std::string_view param);

} // namespace fbc::star
