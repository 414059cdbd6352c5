// The stable diagnostic codes: the one table of every code fbc reports, with
// the one-line suggestion each carries. `fbc check` and `fbc plan` print
// them after a finding ("[UNKNOWN_ERRNO]"), `fbc run` puts them on a row
// (JSON, JUnit, the bundle's trace.json, the report). docs/diagnostics.md
// lists the same table (a unit test keeps the two equal).
//
// A code's name never changes once shipped: tools and agents match on it.
#pragma once

#include <llvm/ADT/ArrayRef.h>

#include <cstdint>
#include <string_view>

namespace fbc::ir {

enum class DiagCode : uint8_t {
  // Found before anything runs (`fbc check`, `fbc plan`).
  SpecLoadFailed,
  UnknownErrno,
  BadDuration,
  UnknownKeyword,
  BadProbability,
  BadMaxFires,
  BadMode,
  UnknownSyscall,
  UnknownInterface,
  UnknownStep,
  UnsupportedStep,
  UnknownAttribute,
  DeclarationInBody,
  BadArgument,
  UnmodeledFanout,
  HelperChoose,
  PlanCostExceeded,
  TestNoAssertions,
  NoPositiveControl,
  // Found by the run (a row's code).
  AssertionFailed,
  ExpectationViolated,
  StrictDeterminismViolation,
  BodyError,
  FaultNotFired,
  FaultNotFilterable,
  ServiceCrashed,
  HealthcheckTimeout,
  ServiceLaunchFailed,
  PortInUse,
  PidsLimitReached,
  TestTimeout,
  CannotRun,
  Interrupted,
};

// Where a code comes from.
enum class DiagStage : uint8_t { Check, Run };

struct DiagCodeInfo {
  DiagCode code;
  std::string_view name; // "UNKNOWN_ERRNO"
  DiagStage stage;
  std::string_view meaning;    // what was found, one line
  std::string_view suggestion; // what to do about it, one line
};

// Every code, in the enum's order.
llvm::ArrayRef<DiagCodeInfo> diagnosticCodes();
const DiagCodeInfo &codeInfo(DiagCode c);
inline std::string_view codeName(DiagCode c) {
  return codeInfo(c).name;
}
inline std::string_view codeSuggestion(DiagCode c) {
  return codeInfo(c).suggestion;
}
// By name; null when unknown.
const DiagCodeInfo *findDiagCode(std::string_view name);

} // namespace fbc::ir
