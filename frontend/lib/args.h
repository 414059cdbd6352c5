// Argument binding for builtins, with the Go implementation's messages:
//
//   Value x, y;
//   bindArgs(t, "split", args, {"sep?", "maxsplit?"}, {&x, &y});
//
// A name ending in '?' is optional; it and every later parameter may be
// omitted (left null). Conversions name the parameter on failure:
// "split: for parameter sep: got int, want string".
#pragma once

#include "frontend/eval/thread.h"
#include "frontend/lib/value.h"

#include <initializer_list>
#include <string_view>

namespace fbc::star {

class String;

void bindArgs(Thread &t, std::string_view fn, const Args &args,
              std::initializer_list<const char *> params, std::initializer_list<Value *> out);

// Positional-only: between min and out.size() arguments, no keywords.
// Errors: "fn: got 3 arguments, want at most 2", "fn: unexpected keyword arguments".
void bindPositional(Thread &t, std::string_view fn, const Args &args, size_t min,
                    std::initializer_list<Value *> out);

// No arguments at all: "fn: got 1 arguments, want 0".
void bindNone(Thread &t, std::string_view fn, const Args &args);

// Conversions. `param` is a parameter name ("sep") or a 1-based position
// ("1") as Go prints it for positional-only builtins.
std::string_view wantString(Thread &t, std::string_view fn, std::string_view param, Value v);
String *wantStringObj(Thread &t, std::string_view fn, std::string_view param, Value v);
bool wantBool(Thread &t, std::string_view fn, std::string_view param, Value v);
// Accepts an int that fits int64 ("got float, want int"; "... out of range").
int64_t wantInt(Thread &t, std::string_view fn, std::string_view param, Value v);
double wantFloat(Thread &t, std::string_view fn, std::string_view param, Value v);
Value wantCallable(Thread &t, std::string_view fn, std::string_view param, Value v);
Value wantIterable(Thread &t, std::string_view fn, std::string_view param, Value v);

// "fn: for parameter p: <msg>"
[[noreturn]] void failParam(Thread &t, std::string_view fn, std::string_view param,
                            std::string msg);

} // namespace fbc::star
