// client(name, target=, openapi=|descriptors=, grpc_service=, base_path=,
// headers=, before=, rename=, validate=, timeout=): a named caller bound to
// one interface, its methods generated from the API contract (ir/spec.h
// Client, ir/contract.h). Everything is resolved while the spec loads: the
// contract is read, the operation table built, the names checked. Messages
// are the reference's; fbc also rejects an unknown keyword.
#include "ir/builtins/client_value.h"

#include "frontend/eval/thread.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/printer.h"
#include "frontend/lib/spellcheck.h"
#include "ir/builtins/arg_util.h"
#include "ir/builtins/binder.h"
#include "ir/builtins/builtins.h"
#include "ir/builtins/call_site.h"
#include "ir/builtins/data_files.h"
#include "ir/builtins/openapi.h"
#include "ir/builtins/spec_builder.h"
#include "ir/grpc_descriptors.h"
#include "ir/protocols.h"
#include "ir/quote.h"

#include <llvm/ADT/StringExtras.h>

namespace fbc::ir::builtins {

using star::Value;

namespace {

// client()'s arguments: name and target first, the others once the client
// they configure is known (readClientKeyword).
struct ClientArgs {
  Value name, target;
  std::vector<std::pair<std::string_view, Value>> later;
};

void readName(ClientArgs &a, const Arg &arg) {
  a.name = arg.value;
}
void readTarget(ClientArgs &a, const Arg &arg) {
  a.target = arg.value;
}
void readLater(ClientArgs &a, const Arg &arg) {
  a.later.emplace_back(arg.name, arg.value);
}

constexpr Param<ClientArgs> kClientParams[] = {
    {"name", readName, Required | Positional},
    {"target", readTarget, Required},
    {"openapi", readLater},
    {"descriptors", readLater},
    {"grpc_service", readLater},
    {"base_path", readLater},
    {"headers", readLater},
    {"before", readLater},
    {"rename", readLater},
    {"validate", readLater},
    {"timeout", readLater},
};

// The reference's reserved attributes and what they are.
constexpr std::pair<std::string_view, std::string_view> kAttributes[] = {
    {"call", "the by-contract-name escape hatch"},
    {"contract", "the contract identity string"},
    {"name", "the client's trace identity"},
    {"operations", "the list of generated operation names"},
    {"target", "the bound interface"},
};

// A method (or call()) of a client: the test body's runtime runs it.
Value clientMethod(star::Thread &t, Value self, const star::Args &args) {
  const char *method = t.top && t.top->name ? t.top->name : "call";
  if (t.userData)
    if (BodyRuntime *body = SpecBuilder::of(t).body)
      return body->callStep(t, self, method, args);
  auto *c = valueAs<ClientValue>(self);
  t.fail(std::string("client ") + quote(c ? c->data.name : "") + " " + method +
         "() can only be called inside a test body");
}

std::vector<std::pair<std::string, std::string>> stringDict(const CallSite &site, const Loc &at,
                                                            const std::string &prefix, Value v) {
  auto *d = v.as<star::Dict>();
  if (!d)
    site.fail(at, prefix + " must be a dict (got " + typeOf(v) + ")");
  std::vector<std::pair<std::string, std::string>> out;
  for (const star::HashTable::Entry &e : d->table.entries()) {
    if (e.value.isNull())
      continue;
    auto *k = e.key.as<star::String>();
    auto *s = e.value.as<star::String>();
    if (!k || !s)
      site.fail(at, prefix + " keys and values must be strings (got " + typeOf(e.key) + ": " +
                        typeOf(e.value) + ")");
    out.emplace_back(std::string(k->view()), std::string(s->view()));
  }
  return out;
}

} // namespace

void ClientValue::repr(star::Printer &p) const {
  size_t n = data.contract ? data.contract->operations.size() : 0;
  p.write("<client " + data.name + " → " + data.service + "." + data.interface + " (" +
          std::to_string(n) + " operations)>");
}

Value ClientValue::attr(star::Thread &t, std::string_view name) {
  if (name == "name")
    return star::makeString(t.heap, data.name);
  if (name == "target") {
    auto *ref = t.heap.make<InterfaceRefValue>();
    ref->service = data.service;
    ref->iface = target;
    ref->container = targetContainer;
    ref->address = targetAddress;
    ref->freeze();
    return Value::object(ref);
  }
  if (name == "contract")
    return star::makeString(
        t.heap, data.contract ? data.contract->id()
                              : "grpc:" + data.descriptors +
                                    (data.grpcService.empty() ? "" : "#" + data.grpcService));
  if (name == "operations") {
    std::vector<Value> names;
    if (data.contract)
      for (const ContractOperation &op : data.contract->operations)
        names.push_back(star::makeString(t.heap, op.name));
    return Value::object(t.heap.make<star::List>(std::move(names)));
  }
  if (name == "call")
    return Value::object(t.heap.make<star::Builtin>("call", clientMethod, Value::object(this)));
  if (const ContractOperation *op = data.contract ? data.contract->find(name) : nullptr)
    return Value::object(
        t.heap.make<star::Builtin>(op->name.c_str(), clientMethod, Value::object(this)));
  // An operation the contract does not have: the spec's mistake (in a body,
  // an error row), with the message Starlark gives a missing attribute.
  failMistake(t, DiagCode::UnknownAttribute, clientAttrMistake(*this, name));
}

std::string clientAttrMistake(const ClientValue &c, std::string_view name) {
  if (const Contract *k = c.data.contract.get(); k && k->grpc) {
    // A gRPC method the service lacks: its methods, as the .proto names them.
    std::vector<std::string> methods;
    for (const ContractOperation &op : k->operations)
      methods.push_back(op.name);
    std::string out = "client " + quote(c.data.name) + " has no method " + quote(name) + " (" +
                      k->service + " has " +
                      (methods.empty() ? std::string("none") : llvm::join(methods, ", ")) + ")";
    if (std::string_view near = star::nearestName(name, methods); !near.empty())
      out += "; did you mean " + quote(near) + "?";
    return out;
  }
  std::vector<std::string> names;
  c.attrNames(names);
  return star::noFieldMessage(ClientValue::kTypeName, name, names);
}

void ClientValue::attrNames(std::vector<std::string> &out) const {
  for (const auto &[n, what] : kAttributes)
    out.emplace_back(n);
  if (data.contract)
    for (const ContractOperation &op : data.contract->operations)
      out.push_back(op.name);
}

// One of client()'s optional keywords (openapi=, descriptors=, grpc_service=,
// base_path=, headers=, rename=, before=, validate=, timeout=).
void readClientKeyword(const CallSite &site, Client &c, const std::string &q, std::string_view k,
                       Value v) {
  Loc at = site.at(site.keywordValue(k));
  auto str = [&]() {
    auto *s = v.as<star::String>();
    if (!s)
      site.fail(at,
                "client: for parameter " + std::string(k) + ": got " + typeOf(v) + ", want string");
    return std::string(s->view());
  };
  if (k == "openapi")
    c.openapi = str();
  else if (k == "descriptors")
    c.descriptors = str();
  else if (k == "grpc_service")
    c.grpcService = str();
  else if (k == "base_path")
    c.basePath = str();
  else if (k == "headers")
    c.headers = stringDict(site, at, q + " headers=", v);
  else if (k == "rename")
    c.rename = stringDict(site, at, q + " rename=", v);
  else if (k == "before") {
    if (!isNone(v)) {
      if (!isCallable(v))
        site.fail(at, q + " before= must be callable (got " + typeOf(v) + ")");
      c.before = std::make_shared<const FunctionRef>(functionRef(v));
    }
  } else if (k == "validate") {
    std::string mode = llvm::StringRef(str()).trim().lower();
    if (mode.empty())
      mode = "off";
    if (mode != "off" && mode != "request" && mode != "response" && mode != "strict")
      site.fail(at, q + " validate=" + quote(str()) +
                        ": expected one of off, request, response, strict");
    c.validate = mode;
  } else if (k == "timeout") {
    c.timeoutNs = durationArg(
        site, v, at, q + " timeout=" + (v.as<star::String>() ? quote(str()) : std::string()));
  }
}

// descriptors=: the service grpc_service= names (the set's only one when
// it names none) as a contract, one operation per method, named as the
// .proto names it (`geo.GetCity(body={...})`).
void readGrpcContract(const CallSite &site, Client &c, const Interface &iface, const std::string &q,
                      const Loc &at, const std::string &prefix) {
  if (const Protocol *p = findProtocol(iface.protocol); !p || p->http2 != Http2::Grpc)
    site.fail(at, q + ": descriptors= makes a gRPC client, and target= is a " +
                      quote(iface.protocol) + " interface");
  // What only an HTTP client does: refused rather than accepted and not
  // applied to the calls (a gRPC call sends no headers= metadata yet).
  for (const char *k : {"base_path", "headers", "before", "validate"})
    if (const syntax::Expr *v = site.keywordValue(k))
      site.fail(site.at(v), q + ": " + k +
                                "= applies to HTTP clients (openapi=); a gRPC client "
                                "(descriptors=) does not apply it");
  const frontend::SourceFile &f = readDataFile(site, at, prefix, c.descriptors);
  std::string error;
  auto set = GrpcDescriptors::read(f.text(), error);
  if (!set)
    site.fail(at, prefix + c.descriptors + ": " + error);
  std::vector<std::string> services = set->services();
  std::string list =
      services.empty() ? "it has no service" : "services: " + llvm::join(services, ", ");
  if (c.grpcService.empty()) {
    if (services.size() != 1)
      site.fail(at, q + ": pass grpc_service= to pick the service of " + c.descriptors + " (" +
                        list + ")");
    c.grpcService = services.front();
  } else if (std::find(services.begin(), services.end(), c.grpcService) == services.end()) {
    site.fail(site.at(site.keywordValue("grpc_service")),
              q + ": grpc_service=" + quote(c.grpcService) + " is not in " + c.descriptors + " (" +
                  list + ")");
  }
  auto contract = std::make_shared<Contract>();
  contract->kind = "grpc";
  contract->path = c.descriptors;
  contract->service = c.grpcService;
  for (const GrpcMethod &m : set->methods()) {
    if (m.service != c.grpcService)
      continue;
    ContractOperation op;
    op.name = op.contractName = m.name;
    op.method = "POST";
    op.path = m.path;
    op.acceptsBody = true;
    op.bodyContentType = "application/grpc";
    contract->operations.push_back(std::move(op));
  }
  std::sort(contract->operations.begin(), contract->operations.end(),
            [](const ContractOperation &a, const ContractOperation &b) { return a.name < b.name; });
  for (const ContractOperation &op : contract->operations)
    for (const auto &[n, what] : kAttributes)
      if (op.name == n)
        site.fail(at, q + ": method " + quote(op.name) + " shadows the built-in client attribute " +
                          quote(n) + " (" + std::string(what) + "); call it as .call(" +
                          quote(op.name) + ", body=...)");
  contract->grpc = std::move(set);
  c.contract = std::move(contract);
}

// The contract: openapi= or descriptors=, else the target interface's spec=
// (its kind told by its extension).
void readContract(const CallSite &site, Client &c, const Interface &iface, const std::string &q) {
  Loc contractAt = site.loc();
  if (!c.openapi.empty() && !c.descriptors.empty())
    site.fail(q + ": pass either openapi= or descriptors=, not both");
  std::string inherited;
  if (c.openapi.empty() && c.descriptors.empty()) {
    const std::string &spec = iface.spec;
    if (spec.empty())
      site.fail(q +
                ": no contract; pass openapi=\"…\" or descriptors=\"…\", or declare it once "
                "on the interface: interface(" +
                quote(iface.name) + ", " + quote(iface.protocol) + ", " +
                std::to_string(iface.port) + ", spec=\"./contract\")");
    std::string ext = llvm::StringRef(spec).rsplit('.').second.lower();
    inherited = " (inherited from interface(spec=))";
    if (ext == "yaml" || ext == "yml" || ext == "json")
      c.openapi = spec;
    else if (ext == "pb" || ext == "desc" || ext == "protoset")
      c.descriptors = spec;
    else
      site.fail(
          q + ": cannot tell what kind of contract " + quote(spec) +
          " is from its extension; pass openapi= or descriptors= explicitly (.yaml/.yml/.json "
          "→ OpenAPI, .pb/.desc → descriptor set)");
  } else {
    contractAt = site.at(site.keywordValue(c.openapi.empty() ? "descriptors" : "openapi"));
  }
  if (!c.openapi.empty()) {
    if (!c.grpcService.empty())
      site.fail(site.at(site.keywordValue("grpc_service")),
                q + ": grpc_service= applies to descriptors=, not openapi=");
    c.contract =
        readOpenApi(site, contractAt, q + " openapi" + inherited + ": ", c.openapi, c.rename);
    for (const ContractOperation &op : c.contract->operations)
      for (const auto &[n, what] : kAttributes)
        if (op.name == n)
          site.fail(contractAt, q + ": operation " + quote(op.name) +
                                    " shadows the built-in client attribute " + quote(n) + " (" +
                                    std::string(what) + "); fix: rename={\"" + op.contractName +
                                    "\": \"<other_name>\"}");
  } else {
    readGrpcContract(site, c, iface, q, contractAt, q + " descriptors" + inherited + ": ");
  }
}

Value clientFn(star::Thread &t, Value, const star::Args &args) {
  SpecBuilder &b = SpecBuilder::of(t);
  CallSite site(t, b.callSites);
  b.requireLoading(site, "client");
  if (args.positional.size() > 1)
    site.fail("client: got " + std::to_string(args.positional.size()) +
              " positional arguments, want at most 1 (name)");
  ClientArgs read;
  bind(BindCall(site, args, {"client()", UnknownForm::Listed, "client", true}), kClientParams,
       read);
  Value nameV = read.name, targetV = read.target;
  Loc nameAt = site.at(args.positional.empty() ? site.keywordValue("name") : site.positional(0));
  auto *nameS = nameV.as<star::String>();
  if (!nameS)
    site.fail(nameAt, "client: for parameter name: got " + typeOf(nameV) + ", want string");
  if (nameS->view().empty())
    site.fail(nameAt, "client() requires a non-empty name");

  auto *cv = t.heap.make<ClientValue>();
  Client &c = cv->data;
  c.name = std::string(nameS->view());
  c.loc = site.loc();
  std::string q = "client(" + quote(c.name) + ")";
  auto *ref = valueAs<InterfaceRefValue>(targetV);
  if (!ref)
    site.fail(site.at(site.keywordValue("target")),
              q + " target= must be a service interface like `orders.public` (got " +
                  typeOf(targetV) + ")");
  c.service = ref->service;
  c.interface = ref->iface.name;
  cv->target = ref->iface;
  cv->targetContainer = ref->container;
  cv->targetAddress = ref->address;
  // Clients and services share the trace's lanes: one name, one actor.
  if (b.findService(c.name))
    site.fail(nameAt, q + ": a service is already named " + quote(c.name) +
                          "; clients and services share the trace's lane and vector-clock "
                          "namespace, pick a distinct name");
  if (c.name == "test")
    site.fail(nameAt, q + ": \"test\" is the test driver's own trace identity; pick another name");
  for (const ClientValue *prev : b.clients)
    if (prev->data.name == c.name)
      site.fail(nameAt, q + " is already declared (bound to " + prev->data.service + "." +
                            prev->data.interface + ")");

  for (auto [k, v] : read.later)
    readClientKeyword(site, c, q, k, v);
  readContract(site, c, ref->iface, q);
  cv->freeze();
  b.clients.push_back(cv);
  return Value::object(cv);
}

} // namespace fbc::ir::builtins
