// Healthchecks against real processes: kafka_ready() speaks Kafka's
// Metadata request to a stand-in broker (tests/fixtures/kafka_metadata.c)
// and waits until it names a broker and a controller.
#include "tests/e2e/fbc_run.h"

#include <gtest/gtest.h>

namespace fbc::rt::e2e {
namespace {

TEST(KafkaReady, WaitsUntilTheBrokerNamesAController) {
  Spec spec("kafka_ready");
  FbcRun r = runFbc({"run", spec.path, "--seed", "1"}, spec.dir.path());
  EXPECT_EQ(r.exit, 0) << r.out << r.err;
  checkGolden(spec.name, normalize(r.out, spec));
  EXPECT_TRUE(processesIn(spec.dir.path()).empty());
}

TEST(KafkaReady, NeverReadyIsAnErrorRowSayingWhy) {
  Spec spec("kafka_unready");
  FbcRun r = runFbc({"run", spec.path, "--seed", "1"}, spec.dir.path());
  EXPECT_EQ(r.exit, 2) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "  reason: service \"kafka\": healthcheck timed out (kafka "
                              "127.0.0.1:" +
                                  std::to_string(spec.kvPort) +
                                  " not ready after 1000ms: Metadata names no broker yet)\n"))
      << r.out;
  EXPECT_TRUE(processesIn(spec.dir.path()).empty());
}

} // namespace
} // namespace fbc::rt::e2e
