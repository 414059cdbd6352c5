// The spec builtins of the reference's container, remote, TLS, packet,
// partition and watch surface, and the host values they return. fbc plans
// all of them; what `fbc run` cannot execute here becomes one error row per
// test that needs it (ir/host_needs.h).
#pragma once

#include "ir/builtins/builtins.h"
#include "ir/builtins/call_site.h"
#include "ir/builtins/values.h"
#include "ir/gateway_calls.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace fbc::ir::builtins {

#define FBC_SURFACE_BUILTIN(name)                                                                  \
  star::Value name(star::Thread &t, star::Value self, const star::Args &args)
// remote.cpp
FBC_SURFACE_BUILTIN(remotesFn);
// packet.cpp
FBC_SURFACE_BUILTIN(packetDropFn);
FBC_SURFACE_BUILTIN(packetPassFn);
FBC_SURFACE_BUILTIN(packetResetFn);
FBC_SURFACE_BUILTIN(packetDelayFn);
FBC_SURFACE_BUILTIN(packetReorderFn);
FBC_SURFACE_BUILTIN(packetDuplicateFn);
FBC_SURFACE_BUILTIN(packetCorruptFn);
FBC_SURFACE_BUILTIN(packetWindowFn);

// tls.cpp
FBC_SURFACE_BUILTIN(tlsCertFn);
// healthcheck.cpp
FBC_SURFACE_BUILTIN(kafkaReadyFn);
#undef FBC_SURFACE_BUILTIN

// An argument of a gateway builtin (ir/gateway_calls.h) as its checks see
// a value: a service, a string, an int, a list, a callable (packet.cpp).
ir::GatewayArg gatewayArgOf(star::Value v, std::string name);

// loaders.cpp: strerror(err) as Go prints it ("no such file or directory").
std::string errnoText(int err);

// faults.cpp: probability=, max_fires=, mode= of a packet rule, checked as
// on deny()/delay() (its other keywords are the caller's).
void checkFanoutKwargs(const CallSite &site, std::string_view fn, const star::Args &args);

// tls_cert(...): shared by the interfaces that name it.
class TlsCertValue final : public SpecValue {
public:
  static constexpr std::string_view kTypeName = "tls_cert";
  static constexpr bool kNeedsDestroy = true;
  std::string_view typeName() const override { return kTypeName; }
  void repr(star::Printer &p) const override;

  std::shared_ptr<const TlsCert> data;
};

// packet_drop(), packet_delay("200ms"), packet_window(size=0), ...
class PacketRuleValue final : public SpecValue {
public:
  static constexpr std::string_view kTypeName = "packet_fault";
  static constexpr bool kNeedsDestroy = true;
  std::string_view typeName() const override { return kTypeName; }
  void repr(star::Printer &p) const override;

  PacketRule data;
};

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
