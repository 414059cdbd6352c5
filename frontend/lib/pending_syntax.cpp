// Temporary definitions of the resolver's symbols so every test binary
// links while it is being written. Removed when the real one lands.
#include "frontend/resolve/resolver.h"

#include <cstdlib>

namespace fbc::resolve {

bool resolveFile(syntax::AstContext &, syntax::File &, const syntax::Dialect &, const Environment &,
                 frontend::DiagnosticList &) {
  std::abort();
}

} // namespace fbc::resolve
