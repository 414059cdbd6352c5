// The spec builtins of the reference's container, remote, TLS, packet,
// partition and watch surface, and the host values they return. fbc plans
// all of them; what `fbc run` cannot execute here becomes one error row per
// test that needs it (ir/host_needs.h).
#pragma once

#include "ir/builtins/builtins.h"
#include "ir/builtins/values.h"

#include <string>
#include <utility>
#include <vector>

namespace fbc::ir::builtins {

// remote.cpp
star::Value remotesFn(star::Thread &t, star::Value self, const star::Args &args);

// remotes({"iface": "host[:port]"}): per-interface hosts for
// service(remote=).
class RemotesValue final : public SpecValue {
public:
  static constexpr std::string_view kTypeName = "remotes";
  static constexpr bool kNeedsDestroy = true;
  std::string_view typeName() const override { return kTypeName; }
  void repr(star::Printer &p) const override;

  std::vector<std::pair<std::string, std::string>> hosts; // dict order
};

} // namespace fbc::ir::builtins
