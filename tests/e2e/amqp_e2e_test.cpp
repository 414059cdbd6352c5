// AMQP 0-9-1 through fbc's proxy against Debian's RabbitMQ (issue #29):
// protocol_specs/amqp_proxy.star, its text report in protocol_golden/. The
// broker is a private node of the spec's (reuse=True: started once per
// `fbc run`, its start, 10-17 s on the 2-core machine this was written on,
// most of this test's time): its own node name, AMQP, distribution and epmd
// ports, and data, log and config files in the spec's scratch directory.
#include "tests/e2e/fbc_run.h"

#include <gtest/gtest.h>

#include <re2/re2.h>
#include <sys/stat.h>

#include <fstream>

namespace fbc::rt::e2e {
namespace {

// amqp_proxy.star with the broker's directory and ports filled in.
struct AmqpSpec : Spec {
  AmqpSpec() : Spec("amqp_proxy") {
    std::string rmq = dir.file("rabbitmq");
    mkdir(rmq.c_str(), 0755);
    std::ofstream(rmq + "/rabbitmq.conf") << "listeners.tcp.default = " << kvPort << "\n";
    std::ofstream(rmq + "/enabled_plugins") << "[].\n"; // not /etc/rabbitmq's
    std::string text = readFile(dir.file("spec.star"));
    for (const auto &[from, to] : std::vector<std::pair<std::string, std::string>>{
             {"@RMQ_DIR@", rmq},
             {"@SUB_PORT@", std::to_string(freePort())},
             {"@DIST_PORT@", std::to_string(freePort())},
             {"@EPMD_PORT@", std::to_string(freePort())}})
      for (size_t p; (p = text.find(from)) != std::string::npos;)
        text.replace(p, from.size(), to);
    std::ofstream(dir.file("spec.star")) << text;
  }
};

// The rules, recipes and steps run end to end (amqp_proxy.star says what
// each test checks), max_fires=2 mode="exhaustive" is four leaves, and
// `fbc plan` counts the rows the run reports (12 tests, one of them 4
// leaves).
TEST(Amqp, FaultsThroughTheProxyAgainstRabbitmq) {
  AmqpSpec spec;
  FbcRun run = runWithGolden(spec, 0);
  FbcRun plan = runFbc({"plan", spec.path}, spec.dir.path());
  EXPECT_EQ(plan.exit, 0) << plan.err;
  EXPECT_TRUE(RE2::PartialMatch(plan.out, R"(Total: 15 plan instances)")) << plan.out;
  EXPECT_EQ(allMatches(run.out, R"((?m)^(--- PASS))").size(), 15u) << run.out;
}

} // namespace
} // namespace fbc::rt::e2e
