// Diagnostics in the one format every fbc command uses:
//
//   file:line:col: error: message
//   <the source line>
//       ^
#pragma once

#include "frontend/source/source_manager.h"

#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
}

namespace fbc::frontend {

enum class Severity { Error, Warning, Note };

struct Diagnostic {
  Severity severity = Severity::Error;
  const SourceFile *file = nullptr; // null: no location (printed as "fbc: ...")
  Pos pos;
  std::string message;
};

// Writes the diagnostic, its source line and a caret under the column.
void printDiagnostic(llvm::raw_ostream &os, const Diagnostic &d);

// Collects diagnostics in the order they were reported.
class DiagnosticList {
public:
  void error(const SourceFile *file, Pos pos, std::string message);
  void warning(const SourceFile *file, Pos pos, std::string message);
  void note(const SourceFile *file, Pos pos, std::string message);
  bool hasErrors() const { return errors_ > 0; }
  const std::vector<Diagnostic> &all() const { return diags_; }
  void print(llvm::raw_ostream &os) const;

private:
  std::vector<Diagnostic> diags_;
  unsigned errors_ = 0;
};

} // namespace fbc::frontend
