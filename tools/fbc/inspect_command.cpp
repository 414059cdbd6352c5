#include "tools/fbc/inspect_command.h"

#include "bundle/inspect.h"
#include "runtime/report/report.h"

#include <CLI/CLI.hpp>

#include <cstdio>

#include <unistd.h>

namespace fbc::tools {
namespace {

// A bundle's strings are shown as text, never as terminal commands.
int error(const std::string &msg) {
  std::fprintf(stderr, "fbc inspect: error: %s\n", rt::escapeControls(msg).c_str());
  return 1;
}

// An entry's bytes go out as they are into a pipe or a file, escaped on a
// terminal.
void writeOut(const std::string &raw, bool text) {
  std::string s = text || isatty(STDOUT_FILENO) ? rt::escapeControls(raw) : raw;
  std::fwrite(s.data(), 1, s.size(), stdout);
  std::fflush(stdout);
}

} // namespace

void addInspectOptions(CLI::App &sub, InspectOptions &opts) {
  sub.add_option("bundle", opts.bundle, "the bundle (.fb, or a legacy faultbox .fb)")->required();
  sub.add_option("file", opts.file, "print this entry's bytes (e.g. manifest.json)");
  sub.add_option("--extract", opts.extract, "write every entry into this folder");
  sub.add_option("--format", opts.format, "the summary: text (default) or json");
}

int runInspect(const InspectOptions &opts) {
  if (opts.format != "text" && opts.format != "json")
    return error("unknown --format=" + opts.format + " (valid: text, json)");
  if (!opts.file.empty() && !opts.extract.empty())
    return error("give an entry name or --extract DIR, not both");
  if (!opts.file.empty() || !opts.extract.empty()) {
    // Entry and extraction work on any well-formed archive, whatever its
    // manifest says.
    llvm::Expected<bundle::Contents> c = bundle::readBundle(opts.bundle);
    if (!c)
      return error(llvm::toString(c.takeError()));
    if (!opts.extract.empty()) {
      llvm::Expected<size_t> n = bundle::extractEntries(*c, opts.extract);
      if (!n)
        return error(llvm::toString(n.takeError()));
      std::fprintf(stderr, "Extracted %zu files to %s\n", *n, opts.extract.c_str());
      return 0;
    }
    const bundle::Entry *e = c->find(opts.file);
    if (!e) {
      std::string names;
      for (const bundle::Entry &x : c->entries)
        names += (names.empty() ? "" : ", ") + x.name;
      return error("bundle \"" + opts.bundle + "\" has no entry \"" + opts.file +
                   "\" (entries: " + names + ")");
    }
    writeOut(e->data, false);
    return 0;
  }
  llvm::Expected<bundle::OpenedBundle> b = bundle::openBundle(opts.bundle);
  if (!b)
    return error(llvm::toString(b.takeError()));
  if (opts.format == "json")
    writeOut(bundle::formatInspectJson(*b), false);
  else
    writeOut(bundle::formatInspectText(*b), true);
  return 0;
}

} // namespace fbc::tools
