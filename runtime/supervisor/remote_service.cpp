// Remote services: see remote_service.h.
#include "runtime/supervisor/remote_service.h"

#include "runtime/supervisor/launch_config.h"

#include <memory>

namespace fbc::rt {

namespace {

// Started and stopped by the supervisor like an HTTP mock, but there is
// nothing to start: the process runs elsewhere and outlives the test.
class RemoteStandIn final : public InProcessService {
public:
  explicit RemoteStandIn(std::string addresses) : addresses_(std::move(addresses)) {}
  bool start(std::string &) override { return true; }
  void stop() override {}
  std::vector<std::pair<std::string, std::string>> startedFields() const override {
    return {{"remote", addresses_}};
  }
  std::vector<std::pair<std::string, std::string>> stoppedFields() const override {
    return {{"remote", addresses_}};
  }

private:
  std::string addresses_;
};

} // namespace

std::string remoteAddresses(const ir::Service &s) {
  std::string out;
  for (const ir::Interface &i : s.interfaces) {
    out += out.empty() ? "" : " ";
    out += i.name + "=" + s.addressOrLoopback(i).spelled();
  }
  return out;
}

ServiceSpec remoteServiceSpec(const ir::Service &s, const std::string &specDir) {
  ServiceSpec out;
  out.name = s.name;
  out.health = healthcheckOf(s, specDir);
  out.inProcess = std::make_shared<RemoteStandIn>(remoteAddresses(s));
  return out;
}

} // namespace fbc::rt
