// Reading the files a spec names while it loads (loaders.cpp): load_file(),
// load_json(), load_yaml(), and the API contracts of client() and
// mock_service(openapi=). One reader: paths relative to the root spec's
// folder, network schemes refused, the 50 MB cap, and every file kept in
// the loaded spec's SourceManager (a bundle's spec/ snapshot carries it).
#pragma once

#include "frontend/lib/value.h"
#include "frontend/source/source_manager.h"
#include "ir/builtins/call_site.h"

#include <string>

namespace fbc::ir::builtins {

// The file `path` names; fails the call at `at` with `prefix` + why.
const frontend::SourceFile &readDataFile(const CallSite &site, const Loc &at,
                                         const std::string &prefix, const std::string &path);

// `f`'s text as YAML (JSON is YAML), converted as load_yaml() converts it;
// `keysAsText`: a scalar mapping key is its text (`200:` is "200").
star::Value parseYamlData(const CallSite &site, const Loc &at, const std::string &prefix,
                          const frontend::SourceFile &f, bool keysAsText);

} // namespace fbc::ir::builtins
