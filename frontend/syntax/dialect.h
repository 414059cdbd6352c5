// Dialect switches. All off by default, as in the strict dialect specs run
// in; `fbc exec --allow=...` and the conformance runner's `option:` flags
// turn them on.
#pragma once

namespace fbc::syntax {

struct Dialect {
  bool allowWhile = false;
  bool allowTopLevelControl = false; // if/for/while at top level
  bool allowGlobalReassign = false;
  bool allowRecursion = false; // checked at run time
  bool loadBindsGlobally = false;
};

} // namespace fbc::syntax
