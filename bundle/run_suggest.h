// `fbc plan SPEC --suggest --from RUN.fb` (docs/plan.md, "Suggestions from a
// run"): the mediated operations the passing tests of a run depended on that
// no test of the spec faults, one stub per operation family, most-used first,
// each with its evidence ("kv: fsync on kv.wal, 212 calls in 6 tests, never
// faulted").
//
// What a bundle holds to build them from (read through bundle/inspect and
// bundle/trace_reader, nothing else):
// - syscalls: each row's "operations" (fbc run --record-ops: every
//   faultable syscall family trapped, each call counted by its path or
//   destination). Without --record-ops a run traps only what its rules can
//   fault, so the syscalls nothing faults were never seen: the header says so
//   and no syscall stub is made.
// - requests: the test's steps (step_send events: HTTP method and path, a
//   Redis or memcached command and key, a SQL query) on each interface.
#pragma once

#include "ir/spec.h"

#include <llvm/Support/Error.h>

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
}
namespace fbc::ir {
class JsonWriter;
}

namespace fbc::bundle {

struct RunSuggestion {
  std::string kind;      // "syscall" or "request"
  std::string service;   // whose operation it is ("api")
  std::string operation; // "fsync", "connect", "PUT" (an HTTP method), "GET" (a command), "query"
  // "kv.wal", "pg_wal/*", "socket", "api -> kv.main" (a connection, on
  // the service it reaches), "/kv/*", "user:*", the query.
  std::string target;
  uint64_t calls = 0;
  std::vector<std::string> tests; // the passing tests that made them, sorted
  bool file = false;              // syscalls on files: the stub names the path
  std::string evidence;           // the line above the stub
  std::string stub;               // copy-pasteable Starlark, ending in a newline
};

struct RunSuggestions {
  std::string bundle;
  uint64_t passingRows = 0;
  bool operationsRecorded = false;  // some row has "operations" (--record-ops)
  std::vector<RunSuggestion> items; // most calls first, then service, operation, target
};

llvm::Expected<RunSuggestions> suggestFromRun(const ir::Spec &spec, const std::string &bundlePath);

// After the plan's own --suggest output: a header naming the bundle and what
// it held, then each evidence line and stub.
void emitRunSuggestionsText(const RunSuggestions &s, llvm::raw_ostream &os);
// The plan JSON's "run_suggestions" member (key and object).
void emitRunSuggestionsJson(const RunSuggestions &s, ir::JsonWriter &w);

} // namespace fbc::bundle
