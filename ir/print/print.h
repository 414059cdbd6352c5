// The IR's two external forms, both deterministic (same spec, same bytes):
// the text form documented in docs/ir.md and a JSON form with the same
// content. Neither reads anything but the Spec.
#pragma once

#include "ir/spec.h"

#include <string>

namespace llvm {
class raw_ostream;
}

namespace fbc::ir {

void printSpecText(const Spec &spec, llvm::raw_ostream &os);
void printSpecJson(const Spec &spec, llvm::raw_ostream &os);


} // namespace fbc::ir
