// `fbc merge A.fb B.fb ... -o ALL.fb`: shard bundles combined into one that
// covers the whole plan. The logic lives in bundle/merge.h; docs/bundle.md
// ("Merging shards") is the user doc.
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace fbc::tools {

struct MergeOptions {
  std::vector<std::string> bundles;
  std::string output;        // -o
  bool allowPartial = false; // --allow-partial: leaves no shard ran are not an error
  std::string junit;         // --junit FILE: the merged rows as one JUnit XML file
};

void addMergeOptions(CLI::App &sub, MergeOptions &opts);

// 0 with `Merged N bundles ...` and `Bundle: PATH` on stderr (the leaves no
// shard ran listed first); 1 with "fbc merge: error: ..." when a bundle
// cannot be read, the bundles are not shards of one run, or the spec
// snapshot does not load, and when leaves of the plan were run by no shard
// (the bundle is written; --allow-partial makes that exit 0), and when
// --junit's file cannot be written (an input without junit.xml).
int runMerge(const MergeOptions &opts);

} // namespace fbc::tools
