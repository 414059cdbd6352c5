#include "tools/fbc/recipes_command.h"

#include "backend/recipes.h"
#include "frontend/eval/big_stack.h"

#include <CLI/CLI.hpp>
#include <llvm/Support/raw_ostream.h>

#include <cstdio>

namespace fbc::tools {

void addRecipesOptions(CLI::App &sub, RecipesOptions &opts) {
  sub.require_subcommand(1);
  auto *list = sub.add_subcommand("list", "The shipped @faultbox/recipes modules");
  list->callback([&opts] { opts.list = true; });
  auto *show = sub.add_subcommand("show", "A recipe module's recipes: signature and rule");
  show->add_option("name", opts.name, "module name (redis, postgres, http, ...)")->required();
  show->callback([&opts] { opts.show = true; });
}

int runRecipes(const RecipesOptions &opts) {
  return star::runWithLargeStack([&] {
    llvm::Expected<std::vector<backend::RecipeModule>> mods = backend::shippedRecipes();
    if (!mods) {
      std::fprintf(stderr, "fbc recipes: error: %s\n", llvm::toString(mods.takeError()).c_str());
      return 1;
    }
    if (opts.list) {
      backend::emitRecipeList(*mods, llvm::outs());
      llvm::outs().flush();
      return 0;
    }
    if (backend::emitRecipe(*mods, opts.name, llvm::outs())) {
      llvm::outs().flush();
      return 0;
    }
    std::string names;
    for (const backend::RecipeModule &m : *mods)
      names += (names.empty() ? "" : ", ") + m.name;
    std::fprintf(stderr, "fbc recipes: error: no recipe module \"%s\" (shipped: %s)\n",
                 opts.name.c_str(), names.c_str());
    return 1;
  });
}

} // namespace fbc::tools
