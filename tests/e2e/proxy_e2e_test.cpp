// End-to-end tests of protocol faults through fbc's proxy (issue #14): the
// fixture services (an HTTP gateway calling the HTTP API, which calls the
// TCP store) driven by tests/e2e/proxy_specs/ through the real fbc binary,
// each report compared whole with tests/e2e/proxy_golden/ (fbc_run.h says
// what is normalised).
#include "tests/e2e/e2e_util.h"
#include "tests/e2e/fbc_run.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace fbc::rt::e2e {
namespace {

// The spec with the gateway's binary and port filled in as well.
struct ProxySpec : Spec {
  uint16_t gwPort = freePort();
  explicit ProxySpec(const std::string &name) : Spec(name) {
    while (gwPort == kvPort || gwPort == apiPort)
      gwPort = freePort();
    std::string file = dir.file("spec.star");
    std::stringstream ss;
    ss << std::ifstream(file).rdbuf();
    std::string text = ss.str();
    for (auto [from, to] : {std::pair<std::string, std::string>{"@GW_BIN@", FBC_FIXTURE_GW},
                            {"@GW_PORT@", std::to_string(gwPort)}})
      for (size_t p; (p = text.find(from)) != std::string::npos;)
        text.replace(p, from.size(), to);
    std::ofstream(file) << text;
  }
};

std::string normalized(std::string out, const ProxySpec &spec) {
  std::string gw = std::to_string(spec.gwPort);
  for (size_t p; (p = out.find(gw)) != std::string::npos;)
    out.replace(p, gw.size(), "$GW_PORT");
  return normalize(out, spec);
}

TEST(FbcRunProxy, HttpAndTcpRulesSeenByStepsAndCallers) {
  ProxySpec spec("proxy");
  FbcRun r = runFbc({"run", spec.path, "--seed", "1"}, spec.dir.path());
  EXPECT_EQ(r.exit, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "12 passed, 0 failed\n")) << r.out;
  checkGolden("proxy", normalized(r.out, spec));
}

} // namespace
} // namespace fbc::rt::e2e
