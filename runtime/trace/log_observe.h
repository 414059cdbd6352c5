// Log observation (service(observe=[observe.stdout(decoder=...)])): each
// line of an observed stream becomes a `stdout` or `stderr` trace event
// whose fields are what the decoder read from it, so events(),
// assert_eventually() and assert_never() see the service's logs. The
// decoders follow the reference tool's (docs/run.md "Log observation"):
//   json    a JSON object: each top-level member as a field (strings as
//           they are, other values as their JSON text), plus "data" = the
//           line; anything else: only "data"
//   logfmt  key=value and key="quoted value" pairs as fields, plus "data" =
//           the pairs as a JSON object
//   regex   the named groups of the first match as fields, plus "data" =
//           them as a JSON object; a line that does not match: "raw"
//   none    "raw" = the line
// Empty lines are skipped, as the reference does.
#pragma once

#include "ir/spec.h"
#include "runtime/trace/trace.h"

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace re2 {
class RE2;
}

namespace fbc::rt {

using LogFields = std::vector<std::pair<std::string, std::string>>;

class LineDecoder {
public:
  explicit LineDecoder(const ir::ObserveSource &src);
  ~LineDecoder();
  // The event fields of one line (without its newline).
  LogFields decode(std::string_view line) const;

private:
  std::string kind_;
  std::unique_ptr<re2::RE2> re_;
};

// Records the lines of one stream of one service into the trace.
class LogObserver {
public:
  LogObserver(Trace &trace, ServiceId service, const ir::ObserveSource &src);
  void line(std::string_view line);

private:
  Trace &trace_;
  ServiceId service_;
  EventType type_;
  LineDecoder decoder_;
};

} // namespace fbc::rt
