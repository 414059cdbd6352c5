// `fbc recipes list` / `fbc recipes show NAME`: the flags; the listing is
// backend/recipes.h.
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace fbc::tools {

struct RecipesOptions {
  bool list = false, show = false;
  std::string name;
};

void addRecipesOptions(CLI::App &sub, RecipesOptions &opts);

// 0; 1 for an unknown recipe module (its message names the shipped ones).
int runRecipes(const RecipesOptions &opts);

} // namespace fbc::tools
