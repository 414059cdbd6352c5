#include "ir/builtins/service_name.h"

#include "ir/quote.h"

#include <cctype>
#include <string>

namespace fbc::ir::builtins {

void checkServiceName(const CallSite &site, const Loc &at, std::string_view fn,
                      std::string_view name) {
  std::string prefix = std::string(fn) + " name " + quote(name);
  if (name.size() > kMaxServiceName)
    site.fail(at, prefix + " is " + std::to_string(name.size()) + " characters long; at most " +
                      std::to_string(kMaxServiceName));
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.')
      site.fail(at, prefix + " may hold only letters, digits, '_', '-' and '.'");
  if (name.front() == '.' || name.find("..") != std::string_view::npos)
    site.fail(at, prefix + " may not start with '.' or hold \"..\"");
}

} // namespace fbc::ir::builtins
