// `fbc recipes`: the shipped `@faultbox/recipes/<protocol>.star` modules
// (ir/stdlib/recipes/, embedded in the binary), and for each of their
// recipes the signature and the rule it makes with its defaults. The rule is
// what calling the recipe returns, read by loading the module as a spec
// would (nothing starts, no body runs).
#pragma once

#include <llvm/Support/Error.h>

#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
}

namespace fbc::backend {

struct Recipe {
  std::string name;      // "oom"
  std::string signature; // "redis.oom(key = \"*\")"
  std::string rule;      // "error(key=\"*\", message=\"OOM ...\")"
};

struct RecipeModule {
  std::string name;    // "redis": the module's struct and file name
  std::string path;    // "@faultbox/recipes/redis.star"
  std::string summary; // the module's first comment line, without its path
  // Empty: the recipes are the fields of a struct named `name`; else the
  // module's public top-level functions (clickhouse, mongodb).
  std::vector<std::string> functions;
  std::vector<Recipe> recipes; // sorted by name
};

// Every shipped recipe module, sorted by name (loaded, to read the rules).
llvm::Expected<std::vector<RecipeModule>> shippedRecipes();

// `fbc recipes list`: one line per module, its load() line and its recipes.
void emitRecipeList(const std::vector<RecipeModule> &mods, llvm::raw_ostream &os);
// `fbc recipes show NAME`: the module's load() line, then each recipe's
// signature and rule. False when no module is named `name` (nothing printed).
bool emitRecipe(const std::vector<RecipeModule> &mods, const std::string &name,
                llvm::raw_ostream &os);

} // namespace fbc::backend
