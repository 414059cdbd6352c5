// The run bundle's spec snapshot as the report page links to it: each
// traceback frame ("spec.star:26:9: in test_x") names a file of the
// snapshot and a line. The files are indexed once, so a lookup costs the
// path's length, not the number of files times the number of frames.
#pragma once

#include "bundle/archive.h"
#include "bundle/manifest.h"

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fbc::bundle {

struct SpecFile {
  std::string path; // without "spec/"
  const Entry *entry;
};

struct SpecIndex {
  std::vector<SpecFile> files;
  std::map<std::string, size_t, std::less<>> byPath;
  std::map<std::string, int, std::less<>> byBase; // -1: more than one file
  int root = -1;                                  // manifest spec_entry's file

  void add(SpecFile f, const Manifest &m);
};

// "spec.star:26:9: in test_x" -> {file index, line}; {-1, 0} for
// "<builtin>: in fault" and anything else.
std::pair<int, uint64_t> frameTarget(const std::string &frame, const SpecIndex &specs,
                                     const Manifest &m);

} // namespace fbc::bundle
