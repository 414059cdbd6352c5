// Source files and positions. Every AST node and every diagnostic carries a
// Pos; the file it belongs to is known from the node's SourceFile.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace fbc::frontend {

// A 1-based line and column; {0, 0} means "no position" (builtins).
// Columns count Unicode code points, as the Go implementation does, so
// carets line up under non-ASCII source.
struct Pos {
  uint32_t line = 0;
  uint32_t col = 0;
  bool valid() const { return line != 0; }
  friend bool operator==(Pos, Pos) = default;
};

class SourceFile {
public:
  SourceFile(std::string path, std::string text);

  // The path as the user gave it; diagnostics print it verbatim.
  const std::string &path() const { return path_; }
  const std::string &text() const { return text_; }

  // Text of a 1-based line without its newline; empty if out of range.
  std::string_view lineText(uint32_t line) const;
  uint32_t lineCount() const { return static_cast<uint32_t>(lineStarts_.size()); }

private:
  std::string path_;
  std::string text_;
  std::vector<uint32_t> lineStarts_;
};

// Owns every file read during one compilation so that positions stay valid
// for as long as diagnostics may be printed.
class SourceManager {
public:
  // Reads a file from disk. Returns nullptr and sets `error` on failure.
  const SourceFile *load(const std::string &path, std::string &error);
  // Registers in-memory text (tests, conformance chunks).
  const SourceFile *add(std::string path, std::string text);
  // The most recently added file with this path, or null (to find the
  // source line of a backtrace frame, which names its file by path).
  const SourceFile *find(std::string_view path) const;
  // Every file loaded or added, in that order (a run's bundle snapshots
  // the spec's files from here).
  std::vector<const SourceFile *> files() const;

private:
  std::vector<std::unique_ptr<SourceFile>> files_;
};

} // namespace fbc::frontend
