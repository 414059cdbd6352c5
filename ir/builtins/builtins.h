// The spec builtins (load time). Each has the star::BuiltinFn signature;
// install.cpp binds them under their Starlark names. Grouped by file.
#pragma once

#include "frontend/lib/value.h"

namespace fbc::star {
class Thread;
}

namespace fbc::ir::builtins {

#define FBC_SPEC_BUILTIN(name)                                                                     \
  star::Value name(star::Thread &t, star::Value self, const star::Args &args)

// service.cpp
FBC_SPEC_BUILTIN(serviceFn);
FBC_SPEC_BUILTIN(interfaceFn);
FBC_SPEC_BUILTIN(opFn);
// healthcheck.cpp
FBC_SPEC_BUILTIN(tcpFn);
FBC_SPEC_BUILTIN(httpFn);
FBC_SPEC_BUILTIN(readyFn);
FBC_SPEC_BUILTIN(redisFn);
FBC_SPEC_BUILTIN(postgresFn);
// faults.cpp
FBC_SPEC_BUILTIN(denyFn);
FBC_SPEC_BUILTIN(delayFn);
FBC_SPEC_BUILTIN(allowFn);
FBC_SPEC_BUILTIN(responseFn); // proxy rules
FBC_SPEC_BUILTIN(errorFn);
FBC_SPEC_BUILTIN(dropFn);
FBC_SPEC_BUILTIN(duplicateFn);
// assumption.cpp
FBC_SPEC_BUILTIN(faultAssumptionFn);
// scenarios.cpp
FBC_SPEC_BUILTIN(scenarioFn);
FBC_SPEC_BUILTIN(faultScenarioFn);
FBC_SPEC_BUILTIN(testFn);
// matrix.cpp
FBC_SPEC_BUILTIN(faultMatrixFn);
// expect.cpp
FBC_SPEC_BUILTIN(expectSuccessFn);
FBC_SPEC_BUILTIN(expectErrorWithinFn);
FBC_SPEC_BUILTIN(expectHangFn);
// determinism.cpp
FBC_SPEC_BUILTIN(determinismFn);
// mock_service.cpp, mock_responses.cpp
FBC_SPEC_BUILTIN(mockServiceFn);
FBC_SPEC_BUILTIN(jsonResponseFn);
FBC_SPEC_BUILTIN(textResponseFn);
FBC_SPEC_BUILTIN(bytesResponseFn);
FBC_SPEC_BUILTIN(statusOnlyFn);
FBC_SPEC_BUILTIN(redirectFn);
FBC_SPEC_BUILTIN(dynamicFn);
FBC_SPEC_BUILTIN(grpcResponseFn);
FBC_SPEC_BUILTIN(grpcTypedResponseFn);
FBC_SPEC_BUILTIN(grpcRawResponseFn);
FBC_SPEC_BUILTIN(grpcErrorFn);
// mock_jwt.cpp
FBC_SPEC_BUILTIN(jwtKeypairFn);
FBC_SPEC_BUILTIN(jwtSignFn);
FBC_SPEC_BUILTIN(jwtJwksFn);
// misc.cpp
FBC_SPEC_BUILTIN(chooseFn);
FBC_SPEC_BUILTIN(monitorFn);
FBC_SPEC_BUILTIN(eventuallyFn);
FBC_SPEC_BUILTIN(alwaysFn);
FBC_SPEC_BUILTIN(assumeFn);
FBC_SPEC_BUILTIN(durationFn);
FBC_SPEC_BUILTIN(bodyOnlyFn); // fault(), parallel(), assert_eq(), ... at load time

// client.cpp
FBC_SPEC_BUILTIN(clientFn);

// loaders.cpp
FBC_SPEC_BUILTIN(loadFileFn);
FBC_SPEC_BUILTIN(loadJsonFn);
FBC_SPEC_BUILTIN(loadYamlFn);

// observe.cpp
FBC_SPEC_BUILTIN(observeStdoutFn); // observe.stdout
FBC_SPEC_BUILTIN(observeStderrFn); // observe.stderr
FBC_SPEC_BUILTIN(decoderFn);
FBC_SPEC_BUILTIN(removedObserveFn); // stdout stderr json_decoder logfmt_decoder regex_decoder

#undef FBC_SPEC_BUILTIN

} // namespace fbc::ir::builtins
