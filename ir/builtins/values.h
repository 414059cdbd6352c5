// The host values the spec builtins return: service, interface,
// interface_ref, healthcheck, fault, op, fault_assumption, expectation.
// Each carries the IR entity it stands for; the builder copies them into
// ir::Spec when the spec has finished loading.
#pragma once

#include "frontend/lib/objects.h"
#include "frontend/lib/value.h"
#include "ir/diagnostic_codes.h"
#include "ir/spec.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fbc::ir::builtins {

// Base of the spec host values. Downcast with valueAs<T>(v).
class SpecValue : public star::Object {
public:
  static constexpr star::Kind kKind = star::Kind::Host;
  SpecValue() : star::Object(star::Kind::Host) {}
};

// `v` as a T (a SpecValue subclass with a unique kTypeName), or null.
template <class T> T *valueAs(star::Value v) {
  if (!v.isObject() || v.kind() != star::Kind::Host || v.obj()->typeName() != T::kTypeName)
    return nullptr;
  return static_cast<T *>(v.obj());
}

class ServiceValue final : public SpecValue {
public:
  static constexpr std::string_view kTypeName = "service";
  static constexpr bool kNeedsDestroy = true;
  std::string_view typeName() const override { return kTypeName; }
  void repr(star::Printer &p) const override;
  // .name, .<interface> (an interface_ref), and the step methods of the
  // default interface (.get .post .put .delete .patch .send). Any other
  // name fails with its serviceAttrMistake() (hasattr() and getattr() with
  // a default catch it): a body that reads it on a computed service gets
  // the code and message `fbc check` gives a literal one.
  star::Value attr(star::Thread &t, std::string_view name) override;
  void attrNames(std::vector<std::string> &out) const override;

  Service data;
};

class InterfaceValue final : public SpecValue {
public:
  static constexpr std::string_view kTypeName = "interface";
  static constexpr bool kNeedsDestroy = true;
  std::string_view typeName() const override { return kTypeName; }
  void repr(star::Printer &p) const override;
  star::Value attr(star::Thread &t, std::string_view name) override;
  void attrNames(std::vector<std::string> &out) const override;

  Interface data;
};

// svc.<iface>: .addr .host .port .internal_addr, the proxy placeholders,
// and the protocol's step methods (body-time). Any other name fails with its
// interfaceRefMistake(), as ServiceValue::attr does.
class InterfaceRefValue final : public SpecValue {
public:
  static constexpr std::string_view kTypeName = "interface_ref";
  static constexpr bool kNeedsDestroy = true;
  std::string_view typeName() const override { return kTypeName; }
  void repr(star::Printer &p) const override;
  star::Value attr(star::Thread &t, std::string_view name) override;
  void attrNames(std::vector<std::string> &out) const override;

  std::string service;
  Interface iface;
  bool container = false; // .internal_addr is "<service>:<port>"
  Address address;        // .addr/.host/.port (Service::address())
};

class HealthcheckValue final : public SpecValue {
public:
  static constexpr std::string_view kTypeName = "healthcheck";
  static constexpr bool kNeedsDestroy = true;
  std::string_view typeName() const override { return kTypeName; }
  void repr(star::Printer &p) const override;

  Healthcheck data;
};

class FaultValue final : public SpecValue {
public:
  static constexpr std::string_view kTypeName = "fault";
  static constexpr bool kNeedsDestroy = true;
  std::string_view typeName() const override { return kTypeName; }
  void repr(star::Printer &p) const override;

  Fault data;
};

// response() / error() / delay(delay=) / drop(): a protocol-level rule.
class ProxyRuleValue final : public SpecValue {
public:
  static constexpr std::string_view kTypeName = "proxy_fault";
  static constexpr bool kNeedsDestroy = true;
  std::string_view typeName() const override { return kTypeName; }
  void repr(star::Printer &p) const override;

  ProxyRule data;
};

class OpValue final : public SpecValue {
public:
  static constexpr std::string_view kTypeName = "op";
  static constexpr bool kNeedsDestroy = true;
  std::string_view typeName() const override { return kTypeName; }
  void repr(star::Printer &p) const override;

  Op data; // name is set when a service registers it in ops=
};

class AssumptionValue final : public SpecValue {
public:
  static constexpr std::string_view kTypeName = "fault_assumption";
  static constexpr bool kNeedsDestroy = true;
  std::string_view typeName() const override { return kTypeName; }
  void repr(star::Printer &p) const override;
  uint32_t hash(star::Thread &t) const override; // by name
  star::Value attr(star::Thread &t, std::string_view name) override;
  void attrNames(std::vector<std::string> &out) const override;

  FaultAssumption data;
};

// expect_success(), expect_error_within(ms=), expect_hang(): checked on a
// scenario's result at run time; calling one at load time is an error.
class ExpectationValue final : public SpecValue {
public:
  static constexpr std::string_view kTypeName = "expectation";
  static constexpr bool kNeedsDestroy = true;
  std::string_view typeName() const override { return kTypeName; }
  void repr(star::Printer &p) const override;
  bool callable() const override { return true; }
  star::Value call(star::Thread &t, const star::Args &args) override;
  std::string_view name() const override { return data.name; }

  Expect data;
};

// A builtin of the reference tool that fbc does not have yet (mock_service,
// monitor, partition, observe, ...): calling it or reading an attribute
// (observe.stdout) fails with "<name>() is not supported by fbc yet", not
// with an undefined-name error.
// decoder("json" | "logfmt" | "regex", pattern=): how observed lines decode.
class DecoderValue final : public SpecValue {
public:
  static constexpr std::string_view kTypeName = "decoder";
  static constexpr bool kNeedsDestroy = true;
  std::string_view typeName() const override { return kTypeName; }
  void repr(star::Printer &p) const override;

  std::string name, pattern;
};

// observe.stdout(decoder=) / observe.stderr(decoder=): a service(observe=) item.
class ObserveSourceValue final : public SpecValue {
public:
  static constexpr std::string_view kTypeName = "observe_source";
  static constexpr bool kNeedsDestroy = true;
  std::string_view typeName() const override { return kTypeName; }
  void repr(star::Printer &p) const override;

  ObserveSource data;
};

// Bound step methods (svc.iface.get, ...): they exist so that test bodies
// resolve, and fail when called at load time.
star::Value stepMethod(star::Thread &t, star::Value receiver, std::string_view method);
// The service's default interface: its only one, or the one named
// "default". Null if there is none; `ambiguous` when there are several.
const Interface *defaultInterface(const Service &s, bool &ambiguous);

// interface_ref's own attributes (not steps), sorted.
inline constexpr std::string_view kInterfaceRefFields[] = {
    "addr", "host", "internal_addr", "port", "proxy_addr", "proxy_host", "proxy_port"};

// A name read on a service or an interface_ref that it does not have: the
// code and message `fbc check` reports at a literal receiver
// (passes/body_check.cpp) and the run at a computed one (the attr()s
// above), one wording for both.
struct AttrMistake {
  DiagCode code;
  std::string message;
};
// `name` on `service`.`iface`: none when it is a field or a step of the
// interface's protocol; UNSUPPORTED_STEP for a step fbc has no client for;
// else UNKNOWN_STEP, with the protocol's steps and a "did you mean" (a
// field's, when a field is the nearer name).
std::optional<AttrMistake> interfaceRefMistake(std::string_view service, const Interface &iface,
                                               std::string_view name);
// `name` on service `s`: none for .name, an interface, or a step its default
// interface's protocol promotes and has; a promoted step the default
// interface lacks is that interface's interfaceRefMistake(); anything else
// is UNKNOWN_INTERFACE, with the service's interfaces and a "did you mean".
std::optional<AttrMistake> serviceAttrMistake(const Service &s, std::string_view name);
// The nearest candidate ("did you mean"): the spelling rule of load-time
// errors, else a candidate one swap of adjacent letters away ("mian").
std::string nearestCandidate(std::string_view name, const std::vector<std::string> &candidates);

} // namespace fbc::ir::builtins
