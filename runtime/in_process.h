// A service fbc runs inside its own process (an HTTP mock_service): the
// supervisor starts and stops it in dependency order as it does a launched
// service, and records its lifecycle events, but there is no process to
// mediate, watch or signal.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace fbc::rt {

class InProcessService {
public:
  virtual ~InProcessService() = default;
  // Returns when it accepts connections (it is ready then), or false with
  // `error` saying why it could not listen.
  virtual bool start(std::string &error) = 0;
  // Closes its listener and ends its connections; idempotent.
  virtual void stop() = 0;
  // service_started's fields ({"mock", "http"}, {"address", ...}).
  virtual std::vector<std::pair<std::string, std::string>> startedFields() const = 0;
};

} // namespace fbc::rt
