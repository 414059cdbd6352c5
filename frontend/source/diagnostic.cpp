#include "frontend/source/diagnostic.h"

#include <llvm/Support/raw_ostream.h>

namespace fbc::frontend {

static const char *severityName(Severity s) {
  switch (s) {
  case Severity::Error:
    return "error";
  case Severity::Warning:
    return "warning";
  case Severity::Note:
    return "note";
  }
  return "error";
}

// Width of the caret's indent: tabs are kept so the caret stays aligned in
// any terminal; every other code point counts as one column.
static std::string caretIndent(std::string_view line, uint32_t col) {
  std::string indent;
  uint32_t seen = 1;
  for (size_t i = 0; i < line.size() && seen < col; ++i) {
    unsigned char c = static_cast<unsigned char>(line[i]);
    if ((c & 0xC0) == 0x80)
      continue; // UTF-8 continuation byte: same code point
    indent += (c == '\t') ? '\t' : ' ';
    ++seen;
  }
  while (seen++ < col)
    indent += ' ';
  return indent;
}

// The source line as printed under a diagnostic: control characters (a
// binary file passed as a spec, a stray escape sequence) become '?', one
// byte for one, so the terminal is left alone and the caret stays aligned.
static std::string printableLine(std::string_view line) {
  std::string out(line);
  for (char &c : out) {
    unsigned char u = static_cast<unsigned char>(c);
    if ((u < 0x20 && c != '\t') || u == 0x7F)
      c = '?';
  }
  return out;
}

void printDiagnostic(llvm::raw_ostream &os, const Diagnostic &d) {
  if (!d.file) {
    os << "fbc: " << severityName(d.severity) << ": " << d.message << "\n";
    return;
  }
  os << d.file->path();
  if (d.pos.valid())
    os << ":" << d.pos.line << ":" << d.pos.col;
  os << ": " << severityName(d.severity) << ": " << d.message << "\n";
  if (!d.pos.valid())
    return;
  std::string line = printableLine(d.file->lineText(d.pos.line));
  os << line << "\n" << caretIndent(line, d.pos.col) << "^\n";
}

void DiagnosticList::error(const SourceFile *file, Pos pos, std::string message) {
  diags_.push_back({Severity::Error, file, pos, std::move(message)});
  ++errors_;
}

void DiagnosticList::warning(const SourceFile *file, Pos pos, std::string message) {
  diags_.push_back({Severity::Warning, file, pos, std::move(message)});
}

void DiagnosticList::note(const SourceFile *file, Pos pos, std::string message) {
  diags_.push_back({Severity::Note, file, pos, std::move(message)});
}

void DiagnosticList::print(llvm::raw_ostream &os) const {
  for (const Diagnostic &d : diags_)
    printDiagnostic(os, d);
}

} // namespace fbc::frontend
