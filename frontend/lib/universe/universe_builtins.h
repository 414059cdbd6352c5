// The universe's builtin functions (Go's library.go), grouped by file:
// universe_core.cpp, universe_numbers.cpp, universe_sequences.cpp and
// universe_sort.cpp. universe.cpp binds them to their names.
#pragma once

#include "frontend/lib/value.h"

namespace fbc::star::builtins {

#define FBC_UNIVERSE_BUILTIN(name) Value name(Thread &t, Value self, const Args &args)

// universe_core.cpp
FBC_UNIVERSE_BUILTIN(boolFn);
FBC_UNIVERSE_BUILTIN(dir);
FBC_UNIVERSE_BUILTIN(fail);
FBC_UNIVERSE_BUILTIN(getattr);
FBC_UNIVERSE_BUILTIN(hasattr);
FBC_UNIVERSE_BUILTIN(hash);
FBC_UNIVERSE_BUILTIN(len);
FBC_UNIVERSE_BUILTIN(print);
FBC_UNIVERSE_BUILTIN(repr);
FBC_UNIVERSE_BUILTIN(str);
FBC_UNIVERSE_BUILTIN(type);

// universe_numbers.cpp
FBC_UNIVERSE_BUILTIN(abs);
FBC_UNIVERSE_BUILTIN(bytes);
FBC_UNIVERSE_BUILTIN(chr);
FBC_UNIVERSE_BUILTIN(floatFn);
FBC_UNIVERSE_BUILTIN(intFn);
FBC_UNIVERSE_BUILTIN(ord);

// universe_sequences.cpp
FBC_UNIVERSE_BUILTIN(all);
FBC_UNIVERSE_BUILTIN(any);
FBC_UNIVERSE_BUILTIN(dict);
FBC_UNIVERSE_BUILTIN(enumerate);
FBC_UNIVERSE_BUILTIN(list);
FBC_UNIVERSE_BUILTIN(range);
FBC_UNIVERSE_BUILTIN(reversed);
FBC_UNIVERSE_BUILTIN(set);
FBC_UNIVERSE_BUILTIN(tuple);
FBC_UNIVERSE_BUILTIN(zip);

// universe_sort.cpp
FBC_UNIVERSE_BUILTIN(max);
FBC_UNIVERSE_BUILTIN(min);
FBC_UNIVERSE_BUILTIN(sorted);

#undef FBC_UNIVERSE_BUILTIN

} // namespace fbc::star::builtins
