// The value client() returns (type "client"): .name, .target (the
// interface_ref), .contract (the contract's identity), .operations (the
// method names, sorted), .call(name, params=, body=, headers=, timeout=),
// and one method per operation. The methods and call() are body-time: they
// forward to the BodyRuntime's callStep() with the client as receiver
// (runtime/body/client_call.cpp runs them).
#pragma once

#include "ir/builtins/values.h"
#include "ir/contract.h"

namespace fbc::ir::builtins {

class ClientValue final : public SpecValue {
public:
  static constexpr std::string_view kTypeName = "client";
  static constexpr bool kNeedsDestroy = true;
  std::string_view typeName() const override { return kTypeName; }
  void repr(star::Printer &p) const override;
  star::Value attr(star::Thread &t, std::string_view name) override;
  void attrNames(std::vector<std::string> &out) const override;

  Client data;
  Interface target; // the target interface, for .target
  bool targetContainer = false;
  Address targetAddress;
};

// The error for `name`, which is no attribute of client `c` (no reserved
// attribute, no operation of its contract): Starlark's missing-attribute
// message with a "did you mean"; its code is UNKNOWN_ATTRIBUTE (a body's
// error row, fbc check's finding on a literal `client.name`).
std::string clientAttrMistake(const ClientValue &c, std::string_view name);

} // namespace fbc::ir::builtins
