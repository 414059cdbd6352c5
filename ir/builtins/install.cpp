#include "ir/builtins/install.h"

#include "frontend/eval/interpreter.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/struct.h"
#include "ir/builtins/builtins.h"
#include "ir/builtins/spec_builder.h"
#include "ir/builtins/surface.h"
#include "ir/builtins/temporal_values.h"
#include "ir/builtins/values.h"

namespace fbc::ir::builtins {

namespace {

struct Entry {
  const char *name;
  star::BuiltinFn fn;
};

// Sorted by name.
constexpr Entry kLoadTime[] = {
    {"allow", allowFn},
    {"always", alwaysFn},
    {"assume", assumeFn},
    {"bytes_response", bytesResponseFn},
    {"choose", chooseFn},
    {"client", clientFn},
    {"decoder", decoderFn},
    {"delay", delayFn},
    {"deny", denyFn},
    {"determinism", determinismFn},
    {"drop", dropFn},
    {"duplicate", duplicateFn},
    {"duration", durationFn},
    {"dynamic", dynamicFn},
    {"error", errorFn},
    {"eventually", eventuallyFn},
    {"expect_error_within", expectErrorWithinFn},
    {"expect_hang", expectHangFn},
    {"expect_success", expectSuccessFn},
    {"fault_assumption", faultAssumptionFn},
    {"fault_matrix", faultMatrixFn},
    {"fault_scenario", faultScenarioFn},
    {"grpc_error", grpcErrorFn},
    {"grpc_raw_response", grpcRawResponseFn},
    {"grpc_response", grpcResponseFn},
    {"grpc_typed_response", grpcTypedResponseFn},
    {"http", httpFn},
    {"interface", interfaceFn},
    {"json_decoder", removedObserveFn},
    {"json_response", jsonResponseFn},
    {"jwt_jwks", jwtJwksFn},
    {"jwt_keypair", jwtKeypairFn},
    {"jwt_sign", jwtSignFn},
    {"kafka_ready", kafkaReadyFn},
    {"load_file", loadFileFn},
    {"load_json", loadJsonFn},
    {"load_yaml", loadYamlFn},
    {"logfmt_decoder", removedObserveFn},
    {"mock_service", mockServiceFn},
    {"monitor", monitorFn},
    {"op", opFn},
    {"packet_corrupt", packetCorruptFn},
    {"packet_delay", packetDelayFn},
    {"packet_drop", packetDropFn},
    {"packet_duplicate", packetDuplicateFn},
    {"packet_pass", packetPassFn},
    {"packet_reorder", packetReorderFn},
    {"packet_reset", packetResetFn},
    {"packet_window", packetWindowFn},
    {"postgres", postgresFn},
    {"ready", readyFn},
    {"redirect", redirectFn},
    {"redis", redisFn},
    {"regex_decoder", removedObserveFn},
    {"remotes", remotesFn},
    {"response", responseFn},
    {"scenario", scenarioFn},
    {"service", serviceFn},
    {"status_only", statusOnlyFn},
    {"stderr", removedObserveFn},
    {"stdout", removedObserveFn},
    {"tcp", tcpFn},
    {"test", testFn},
    {"text_response", textResponseFn},
    {"tls_cert", tlsCertFn},
};

// The reference's builtins that act on running services or on the running
// test; implemented by the runtime. bandwidth() mtu() partition*() and
// watch*() act in its gVisor packet gateway and sandbox: a test that
// reaches one is an error row on this machine (ir/host_needs.h). Sorted.
constexpr const char *kBodyTime[] = {
    "assert_before",   "assert_eq",      "assert_eventually",
    "assert_never",    "assert_true",    "await_event",
    "await_stable",    "bandwidth",      "events",
    "fault",           "fault_all",      "fault_start",
    "fault_stop",      "halt",           "mtu",
    "nondet",          "parallel",       "partition",
    "partition_start", "partition_stop", "sleep",
    "trace",           "trace_start",    "trace_stop",
    "wait_all",        "wait_first",     "wait_n",
    "watch",           "watch_start",    "watch_stop",
};

std::vector<std::string_view> names(bool loadTime) {
  std::vector<std::string_view> out;
  if (loadTime)
    for (const Entry &e : kLoadTime)
      out.push_back(e.name);
  else
    for (const char *n : kBodyTime)
      out.push_back(n);
  return out;
}

} // namespace

void installSpecBuiltins(star::Interpreter &interp, SpecBuilder &builder) {
  interp.thread.userData = &builder;
  for (const Entry &e : kLoadTime)
    interp.predeclared[e.name] = star::Value::object(interp.heap.make<star::Builtin>(e.name, e.fn));
  for (const char *n : kBodyTime)
    interp.predeclared[n] = star::Value::object(interp.heap.make<star::Builtin>(n, bodyOnlyFn));
  interp.predeclared["struct"] = star::makeStructBuiltin();
  installTemporal(interp); // match.event / any / all / never
  // observe.stdout / observe.stderr: a namespace, as in the reference.
  star::Heap &h = interp.heap;
  interp.predeclared["observe"] = star::Value::object(star::makeStruct(
      h,
      {{"stderr", star::Value::object(h.make<star::Builtin>("observe.stderr", observeStderrFn))},
       {"stdout", star::Value::object(h.make<star::Builtin>("observe.stdout", observeStdoutFn))}}));
}

llvm::ArrayRef<std::string_view> loadTimeBuiltinNames() {
  static const std::vector<std::string_view> v = names(true);
  return v;
}

llvm::ArrayRef<std::string_view> bodyTimeBuiltinNames() {
  static const std::vector<std::string_view> v = names(false);
  return v;
}

} // namespace fbc::ir::builtins
