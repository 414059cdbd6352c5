// fbc run --test's selection: see test_filter.h.
#include "backend/test_filter.h"

#include <fnmatch.h>
#include <re2/re2.h>

#include <memory>

namespace fbc::backend {
namespace {

bool isGlob(const std::string &s) {
  return s.find_first_of("*?[") != std::string::npos;
}

} // namespace

bool selectTests(const ir::Spec &spec, const std::string &filter,
                 std::vector<const ir::Test *> &out, std::string &error) {
  if (filter.empty()) {
    for (const ir::Test &t : spec.tests)
      out.push_back(&t);
    return true;
  }
  std::unique_ptr<re2::RE2> re;
  if (filter.front() == '~') {
    re = std::make_unique<re2::RE2>(filter.substr(1), re2::RE2::Quiet);
    if (!re->ok()) {
      error = "bad --test regex " + filter.substr(1) + ": " + re->error();
      return false;
    }
  }
  auto matches = [&](const std::string &name) {
    if (re)
      return re2::RE2::PartialMatch(name, *re);
    if (isGlob(filter))
      return fnmatch(filter.c_str(), name.c_str(), 0) == 0 ||
             fnmatch(("test_" + filter).c_str(), name.c_str(), 0) == 0;
    return name == filter || name == "test_" + filter;
  };
  for (const ir::Test &t : spec.tests)
    if (matches(t.name) || (t.kind == ir::TestKind::FaultMatrix && matches(t.planName())))
      out.push_back(&t);
  if (out.empty()) {
    error = "no test matched filter \"" + filter + "\" (available:";
    for (size_t i = 0; i < spec.tests.size(); ++i)
      error += (i ? ", " : " ") + spec.tests[i].name;
    error += spec.tests.empty() ? " none)" : ")";
    return false;
  }
  return true;
}

} // namespace fbc::backend
