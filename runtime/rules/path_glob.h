// Path globs of fault rules (`path="/data/**"`), compiled once to an re2
// regular expression. The dialect is the reference's (pathmatch, §2.5):
//   *      any run of characters except '/'
//   **     any run of characters, '/' included; `a/**/b` also matches `a/b`,
//          and a trailing `/**` also matches the directory itself
//   ?      one character other than '/'
//   [abc] [a-z] [!x] [^x]   a character class (negated classes never match
//          '/'); an unterminated class matches nothing
//   \x     the character x; a trailing backslash matches nothing
// An empty pattern matches every path. A path also matches when its
// directory plus '/' does, so `/data/*/` matches the files inside those
// directories.
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace re2 {
class RE2;
}

namespace fbc::rt {

// The re2 syntax for `glob`, anchored by the caller (FullMatch). Sets
// `never` when the glob can match nothing (unterminated class, trailing
// backslash).
std::string globToRegex(std::string_view glob, bool &never);

class PathGlob {
public:
  PathGlob() = default;
  explicit PathGlob(std::string glob);
  PathGlob(PathGlob &&) noexcept;
  PathGlob &operator=(PathGlob &&) noexcept;
  ~PathGlob();

  const std::string &pattern() const { return glob_; }
  bool empty() const { return glob_.empty(); }
  // False with `error` set if re2 refused the translation (should not happen).
  bool ok(std::string *error = nullptr) const;
  bool matches(std::string_view path) const;

private:
  std::string glob_;
  bool never_ = false;
  std::unique_ptr<re2::RE2> re_;
};

} // namespace fbc::rt
