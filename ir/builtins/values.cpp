#include "ir/builtins/values.h"

#include "ir/builtins/spec_builder.h"

#include "frontend/eval/thread.h"
#include "frontend/lib/printer.h"
#include "frontend/lib/spellcheck.h"
#include "ir/duration.h"
#include "ir/protocols.h"
#include "ir/quote.h"

#include <algorithm>
#include <array>
#include <cstdio>

namespace fbc::ir::builtins {

using star::Value;

const Interface *defaultInterface(const Service &s, bool &ambiguous) {
  const Interface *i = s.defaultInterface();
  ambiguous = !i && s.interfaces.size() > 1;
  return i;
}

std::string nearestCandidate(std::string_view name, const std::vector<std::string> &candidates) {
  std::string_view near = star::nearestName(name, candidates);
  if (!near.empty())
    return std::string(near);
  for (const std::string &c : candidates)
    if (c.size() == name.size())
      for (size_t i = 0; i + 1 < name.size(); ++i) {
        std::string swapped(name);
        std::swap(swapped[i], swapped[i + 1]);
        if (swapped == c)
          return c;
      }
  return "";
}

std::optional<AttrMistake> interfaceRefMistake(std::string_view service, const Interface &iface,
                                               std::string_view name) {
  if (std::find(std::begin(kInterfaceRefFields), std::end(kInterfaceRefFields), name) !=
      std::end(kInterfaceRefFields))
    return std::nullopt;
  std::string receiver = std::string(service) + "." + iface.name;
  if (std::string gap = stepGap(iface.protocol, receiver, name); !gap.empty())
    return AttrMistake{DiagCode::UnsupportedStep, std::move(gap)};
  std::string why = stepMethodMismatch(iface.protocol, receiver, name);
  if (why.empty())
    return std::nullopt;
  // A misspelt field (.prot): the fields, not the steps, are the help. A
  // name some protocol has as a step (.post) was meant as a step.
  if (isAnyStepMethod(name))
    return AttrMistake{DiagCode::UnknownStep, std::move(why)};
  std::vector<std::string> names(std::begin(kInterfaceRefFields), std::end(kInterfaceRefFields));
  if (const Protocol *p = findProtocol(iface.protocol))
    for (const StepMethod &m : p->steps)
      names.emplace_back(m.name);
  std::string near = nearestCandidate(name, names);
  if (!near.empty() && std::find(std::begin(kInterfaceRefFields), std::end(kInterfaceRefFields),
                                 near) != std::end(kInterfaceRefFields)) {
    why = receiver + " has no field or step " + quote(name) + " (did you mean " + quote(near) +
          "?); fields:";
    for (size_t i = 0; i < std::size(kInterfaceRefFields); ++i)
      why += (i ? ", " : " ") + std::string(kInterfaceRefFields[i]);
  }
  return AttrMistake{DiagCode::UnknownStep, std::move(why)};
}

std::optional<AttrMistake> serviceAttrMistake(const Service &s, std::string_view name) {
  if (name == "name" || s.findInterface(name))
    return std::nullopt;
  // As ServiceValue::attr reads it, only the step names a protocol
  // promotes reach the default interface.
  bool ambiguous = false;
  const Interface *def = defaultInterface(s, ambiguous);
  if (isPromotedStep(name) && def)
    return interfaceRefMistake(s.name, *def, name);
  std::vector<std::string> candidates{"name"};
  std::string interfaces;
  for (const Interface &i : s.interfaces) {
    candidates.push_back(i.name);
    interfaces += (interfaces.empty() ? "" : ", ") + i.name;
  }
  if (const Protocol *p = def ? findProtocol(def->protocol) : nullptr; p && p->promotesSteps)
    for (const StepMethod &m : p->steps)
      candidates.emplace_back(m.name);
  std::string msg = "service " + quote(s.name) + " has no interface " + quote(name);
  if (std::string near = nearestCandidate(name, candidates); !near.empty())
    msg += " (did you mean " + quote(near) + "?)";
  msg += "; its interfaces: " + (interfaces.empty() ? std::string("none") : interfaces);
  return AttrMistake{DiagCode::UnknownInterface, std::move(msg)};
}

namespace {

[[noreturn]] void fail(star::Thread &t, AttrMistake m) {
  failMistake(t, m.code, std::move(m.message));
}

Value makeRef(star::Thread &t, const Service &s, const Interface &i) {
  auto *ref = t.heap.make<InterfaceRefValue>();
  ref->service = s.name;
  ref->iface = i;
  ref->container = s.isContainer();
  ref->address = s.addressOrLoopback(i);
  ref->freeze();
  return Value::object(ref);
}

Value str(star::Thread &t, std::string_view s) {
  return star::makeString(t.heap, s);
}

// Step methods fail at load time; the runtime binds real ones.
Value stepStub(star::Thread &t, Value self, const star::Args &args) {
  if (t.userData)
    if (BodyRuntime *body = SpecBuilder::of(t).body)
      return body->callStep(t, self, t.top && t.top->name ? t.top->name : "", args);
  std::string receiver;
  if (auto *ref = valueAs<InterfaceRefValue>(self))
    receiver = ref->service + "." + ref->iface.name;
  else if (auto *svc = valueAs<ServiceValue>(self))
    receiver = svc->data.name;
  t.fail(receiver + "." + (t.top && t.top->name ? t.top->name : "step") +
         "() can only be called inside a test body");
}

std::string percent(double p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g%%", p * 100);
  return buf;
}

} // namespace

Value stepMethod(star::Thread &t, Value receiver, std::string_view method) {
  if (!isAnyStepMethod(method))
    return Value();
  // The table's spelling outlives the call (a Builtin keeps its name).
  for (const Protocol &p : protocols())
    if (const StepMethod *m = p.findStep(method))
      return Value::object(t.heap.make<star::Builtin>(m->name.data(), stepStub, receiver));
  return Value();
}

// --- service -------------------------------------------------------------

void ServiceValue::repr(star::Printer &p) const {
  p.write("<service ");
  p.write(data.name);
  p.write('>');
}

Value ServiceValue::attr(star::Thread &t, std::string_view name) {
  if (name == "name")
    return str(t, data.name);
  if (const Interface *i = data.findInterface(name))
    return makeRef(t, data, *i);
  if (!isPromotedStep(name)) {
    if (std::optional<AttrMistake> m = serviceAttrMistake(data, name))
      fail(t, std::move(*m));
    return Value();
  }
  bool ambiguous = false;
  const Interface *def = defaultInterface(data, ambiguous);
  if (ambiguous)
    t.fail("service \"" + data.name + "\" has multiple interfaces, specify which one");
  if (def && findStepMethod(def->protocol, name))
    return stepMethod(t, Value::object(this), name);
  if (std::optional<AttrMistake> m = serviceAttrMistake(data, name))
    fail(t, std::move(*m));
  return Value();
}

void ServiceValue::attrNames(std::vector<std::string> &out) const {
  out.push_back("name");
  for (const Interface &i : data.interfaces)
    out.push_back(i.name);
}

// --- interface -------------------------------------------------------------

void InterfaceValue::repr(star::Printer &p) const {
  p.write("<interface " + data.name + " " + data.protocol + ":" + std::to_string(data.port) + ">");
}

Value InterfaceValue::attr(star::Thread &t, std::string_view name) {
  if (name == "name")
    return str(t, data.name);
  if (name == "protocol")
    return str(t, data.protocol);
  if (name == "port")
    return Value::small(data.port);
  return Value();
}

void InterfaceValue::attrNames(std::vector<std::string> &out) const {
  out.insert(out.end(), {"name", "port", "protocol"});
}

// --- interface_ref -----------------------------------------------------------

void InterfaceRefValue::repr(star::Printer &p) const {
  p.write("<interface_ref " + service + "." + iface.name + ">");
}

Value InterfaceRefValue::attr(star::Thread &t, std::string_view name) {
  std::string port = std::to_string(iface.port);
  // A container is reached by its name on the container network.
  if (name == "internal_addr" && container)
    return str(t, service + ":" + port);
  if (name == "addr" || name == "internal_addr")
    return str(t, address.spelled());
  if (name == "host")
    return str(t, address.spelledHost());
  if (name == "port")
    return Value::small(address.port);
  // Late-bound placeholders, substituted in env when the proxy is up.
  if (name == "proxy_addr")
    return str(t, "__FB_PROXY_ADDR_" + service + "__" + iface.name + "__");
  if (name == "proxy_host")
    return str(t, "__FB_PROXY_HOST_" + service + "__" + iface.name + "__");
  if (name == "proxy_port")
    return str(t, "__FB_PROXY_PORT_" + service + "__" + iface.name + "__");
  if (findStepMethod(iface.protocol, name))
    return stepMethod(t, Value::object(this), name);
  if (std::optional<AttrMistake> m = interfaceRefMistake(service, iface, name))
    fail(t, std::move(*m));
  return Value();
}

void InterfaceRefValue::attrNames(std::vector<std::string> &out) const {
  out.insert(out.end(), std::begin(kInterfaceRefFields), std::end(kInterfaceRefFields));
  if (const Protocol *p = findProtocol(iface.protocol))
    for (const StepMethod &m : p->steps)
      out.push_back(std::string(m.name));
}

// --- healthcheck, fault, op --------------------------------------------------

void HealthcheckValue::repr(star::Printer &p) const {
  p.write("<healthcheck " + data.target + " timeout=" + formatDuration(data.timeoutNs) + ">");
}

void FaultValue::repr(star::Printer &p) const {
  p.write("<fault ");
  switch (data.action) {
  case FaultAction::Deny:
    p.write("deny=" + data.errnoName);
    break;
  case FaultAction::Delay:
    p.write("delay=" + formatDuration(data.delayNs));
    break;
  case FaultAction::Allow:
    p.write("allow");
    break;
  }
  if (data.action != FaultAction::Allow)
    p.write(" prob=" + percent(data.probability));
  if (!data.label.empty()) {
    p.write(" label=" + quote(data.label));
  }
  p.write('>');
}

void OpValue::repr(star::Printer &p) const {
  p.write("<op");
  if (!data.name.empty())
    p.write(" " + data.name);
  p.write(" syscalls=[");
  for (size_t i = 0; i < data.syscalls.size(); ++i) {
    p.write(i ? ", " : "");
    p.write(data.syscalls[i]);
  }
  p.write("]");
  if (!data.path.empty())
    p.write(" path=" + quote(data.path));
  p.write('>');
}

// --- fault_assumption --------------------------------------------------------

void ProxyRuleValue::repr(star::Printer &p) const {
  p.write("<proxy_fault " + data.display() + ">");
}

void AssumptionValue::repr(star::Printer &p) const {
  p.write("<fault_assumption " + data.name);
  for (const FaultRule &r : data.rules)
    p.write(" " + data.target.service + "." + r.keyword + "=" + faultActionName(r.fault.action));
  p.write('>');
}

uint32_t AssumptionValue::hash(star::Thread &) const {
  uint32_t h = 2166136261u; // FNV-1a of the name
  for (char c : data.name)
    h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
  return h;
}

Value AssumptionValue::attr(star::Thread &t, std::string_view name) {
  if (name == "name")
    return str(t, data.name);
  if (name == "description")
    return str(t, data.description);
  return Value();
}

void AssumptionValue::attrNames(std::vector<std::string> &out) const {
  out.insert(out.end(), {"description", "name"});
}

// --- expectation -------------------------------------------------------------

void ExpectationValue::repr(star::Printer &p) const {
  p.write("<expectation " + data.display() + ">");
}

Value ExpectationValue::call(star::Thread &t, const star::Args &args) {
  star::BuiltinFrame frame(t, "expectation");
  if (t.userData)
    if (BodyRuntime *body = SpecBuilder::of(t).body)
      return body->callExpect(t, data, args);
  t.fail(data.display() + " checks a scenario's result at run time; it cannot be called while "
                          "the spec loads");
}

// --- unsupported ---------------------------------------------------------------

void DecoderValue::repr(star::Printer &p) const {
  p.write("<decoder " + name + ">");
}

void ObserveSourceValue::repr(star::Printer &p) const {
  p.write("<observe " + data.stream + ">");
}

} // namespace fbc::ir::builtins
