// mock_service(name, *interfaces, routes=, default=, tls=, config=,
// descriptors=, openapi=, examples=, validate=, overrides=, depends_on=):
// a service fbc stands up itself (ir/mock.h). It registers like service()
// (same name space, depends_on, interface refs, fault targets). Messages are
// the reference's; fbc also rejects what the reference silently ignores (an
// unknown keyword, a depends_on item that is neither a service nor a name).
#include "frontend/lib/json/json.h"
#include "frontend/lib/objects.h"
#include "ir/builtins/arg_util.h"
#include "ir/builtins/binder.h"
#include "ir/builtins/builtins.h"
#include "ir/builtins/data_files.h"
#include "ir/builtins/mock_values.h"
#include "ir/builtins/openapi.h"
#include "ir/builtins/service_name.h"
#include "ir/builtins/spec_builder.h"
#include "ir/grpc_descriptors.h"
#include "ir/protocols.h"
#include "ir/quote.h"

#include <llvm/ADT/StringRef.h>

namespace fbc::ir::builtins {

using star::Value;

namespace {

class MockBuilder {
public:
  MockBuilder(const CallSite &site, Service &svc, Mock &mock)
      : site_(site), svc_(svc), mock_(mock), prefix_("mock_service() " + quote(svc.name)) {}

  // One reader per keyword (kMockParams); `at` is the keyword's value.
  void routesKw(std::string_view k, Value v, const Loc &at) {
    auto *d = v.as<star::Dict>();
    if (!d)
      site_.fail(at, k == "routes"
                         ? std::string("mock_service() routes must be a dict")
                         : "mock_service() overrides must be a dict (got " + typeOf(v) + ")");
    singleInterface(at, k == "routes");
    routes(k, d, k == "routes" ? mock_.routes : mock_.overrides);
  }

  void defaultKw(std::string_view, Value v, const Loc &at) {
    auto *r = valueAs<MockResponseValue>(v);
    if (!r)
      site_.fail(at, "mock_service() default must be a mock_response (got " + typeOf(v) + ")");
    singleInterface(at, false);
    mock_.fallback = r->data;
  }

  void dependsOnKw(std::string_view, Value v, const Loc &) { dependsOn(v); }

  void tlsKw(std::string_view, Value v, const Loc &at) {
    auto *b = v.as<star::Bool>();
    if (!b)
      site_.fail(at, "mock_service() tls must be a bool");
    singleInterface(at, false);
    mock_.tls = b->value;
  }

  void configKw(std::string_view, Value v, const Loc &at) {
    auto *d = v.as<star::Dict>();
    if (!d)
      site_.fail(at, "mock_service() config must be a dict (got " + typeOf(v) + ")");
    singleInterface(at, false);
    try {
      mock_.configJson = star::encodeJson(site_.thread(), v);
    } catch (const star::EvalError &e) {
      std::string msg = e.message();
      if (msg.starts_with("json.encode: "))
        msg.erase(0, 13);
      site_.fail(at, prefix_ + " config: " + msg);
    }
  }

  void validateKw(std::string_view k, Value v, const Loc &at) {
    std::string mode = stringArg(at, k, v);
    if (!mode.empty() && mode != "off" && mode != "warn" && mode != "strict")
      site_.fail(at, prefix_ + " validate=" + quote(mode) + ": expected one of off/warn/strict");
    mock_.validate = mode;
  }

  void pathKw(std::string_view k, Value v, const Loc &at) {
    (k == "openapi" ? mock_.openapi : mock_.descriptors) = stringArg(at, k, v, " a path");
  }

  void examplesKw(std::string_view k, Value v, const Loc &at) {
    mock_.examples = stringArg(at, k, v);
  }

  // openapi=: one route per operation of the contract (the same reader
  // as client()), serving the example examples= picks, after routes=; an
  // overrides= entry with the same pattern replaces the generated route,
  // one without is added after them.
  void openApiRoutes() {
    Loc at = site_.at(site_.keywordValue("openapi"));
    std::shared_ptr<const Contract> c =
        readOpenApi(site_, at, prefix_ + " openapi: ", mock_.openapi, {});
    std::vector<MockRoute> generated;
    for (const ContractOperation &op : c->operations) {
      std::string error;
      std::optional<ContractExample> ex = contractExample(*c, op, mock_.examples, error);
      if (!ex)
        site_.fail(at, prefix_ + " openapi: " + error);
      MockResponse r;
      r.loc = at;
      r.status = ex->status;
      r.body = ex->body;
      r.contentType = ex->contentType;
      r.kind = ex->contentType.empty()            ? MockResponseKind::Status
               : isJsonMediaType(ex->contentType) ? MockResponseKind::Json
                                                  : MockResponseKind::Text;
      generated.push_back({normalisePattern(op.wire()), std::move(r), at});
    }
    // By the contract's path, then in the reader's method order, as the
    // reference lists them.
    auto key = [](const MockRoute &r) {
      size_t sp = r.pattern.find(' ');
      llvm::StringRef m = llvm::StringRef(r.pattern).take_front(sp);
      return std::pair(r.pattern.substr(sp + 1),
                       std::find_if(std::begin(kContractMethods), std::end(kContractMethods),
                                    [&](const char *k) { return m.equals_insensitive(k); }) -
                           std::begin(kContractMethods));
    };
    std::stable_sort(generated.begin(), generated.end(),
                     [&](const MockRoute &a, const MockRoute &b) { return key(a) < key(b); });
    for (const MockRoute &o : mock_.overrides) {
      auto same = std::find_if(generated.begin(), generated.end(),
                               [&](const MockRoute &g) { return g.pattern == o.pattern; });
      if (same != generated.end())
        *same = o;
      else
        generated.push_back(o);
    }
    mock_.routes.insert(mock_.routes.end(), generated.begin(), generated.end());
  }

  // A gRPC mock: descriptors= read and each route checked against it while
  // the spec loads (the run would only find out call by call): a route is a
  // full method name or a glob of some, a typed response's body fits the
  // output message of every method its route takes.
  void grpcRoutes() {
    std::string desc = prefix_ + " descriptors=" + quote(mock_.descriptors) + ": ";
    if (!mock_.descriptors.empty()) {
      Loc at = site_.at(site_.keywordValue("descriptors"));
      const frontend::SourceFile &f = readDataFile(site_, at, desc, mock_.descriptors);
      std::string error;
      mock_.grpc = GrpcDescriptors::read(f.text(), error);
      if (!mock_.grpc)
        site_.fail(at, desc + error);
    }
    for (const MockRoute &r : mock_.routes) {
      std::string route = prefix_ + " route " + quote(r.pattern) + ": ";
      if (!r.pattern.starts_with("/"))
        site_.fail(r.loc, route + "a gRPC route is a full method name, \"/package.Service/Method\" "
                                  "(or a glob of some)");
      grpcResponse(r.response, route, r.loc);
      if (!mock_.grpc)
        continue;
      std::vector<const GrpcMethod *> taken;
      for (const GrpcMethod &m : mock_.grpc->methods())
        if (grpcRouteMatches(r.pattern, m.path))
          taken.push_back(&m);
      if (taken.empty())
        site_.fail(r.loc,
                   route + "no method of " + mock_.descriptors + " matches (" + methodList() + ")");
      if (isTyped(r.response.kind))
        for (const GrpcMethod *m : taken) {
          std::string bytes, error;
          if (!mock_.grpc->encode(m->output, r.response.body, bytes, error))
            site_.fail(r.loc, route + mockResponseBuiltin(r.response.kind) + " body does not fit " +
                                  m->output + " (the output of " + m->path + "): " + error);
        }
    }
    if (mock_.fallback)
      grpcResponse(*mock_.fallback,
                   prefix_ + " default: ", site_.at(site_.keywordValue("default")));
  }

private:
  static bool isTyped(MockResponseKind k) {
    return k == MockResponseKind::Grpc || k == MockResponseKind::GrpcTyped;
  }

  // A gRPC mock answers with a gRPC response; a typed one needs descriptors=.
  void grpcResponse(const MockResponse &r, const std::string &what, const Loc &at) const {
    switch (r.kind) {
    case MockResponseKind::Grpc:
    case MockResponseKind::GrpcTyped:
      if (!mock_.grpc)
        site_.fail(at, what + mockResponseBuiltin(r.kind) +
                           " needs descriptors= to encode its body (a FileDescriptorSet: protoc "
                           "--descriptor_set_out=FILE --include_imports)");
      return;
    case MockResponseKind::GrpcRaw:
    case MockResponseKind::GrpcError:
    case MockResponseKind::Dynamic:
      return;
    default:
      site_.fail(at, what +
                         "a gRPC mock answers with grpc_response, grpc_typed_response, "
                         "grpc_raw_response, grpc_error or dynamic, not " +
                         mockResponseBuiltin(r.kind));
    }
  }

  std::string methodList() const {
    std::string out;
    for (const GrpcMethod &m : mock_.grpc->methods())
      out += (out.empty() ? "methods: " : ", ") + m.path;
    return out.empty() ? "it has no service" : out;
  }

  // The reference's rule: routes=, default=, ... apply to the one interface.
  void singleInterface(const Loc &at, bool routes) const {
    if (svc_.interfaces.size() == 1)
      return;
    if (svc_.interfaces.empty())
      site_.fail(prefix_ + " requires at least one interface");
    site_.fail(at, prefix_ + ": mock_service has " + std::to_string(svc_.interfaces.size()) +
                       " interfaces, disambiguation required" +
                       (routes ? " — provide routes as {interface: {...}} for multi-interface mocks"
                               : ""));
  }

  std::string stringArg(const Loc &at, std::string_view k, Value v, const char *what = "") const {
    auto *s = v.as<star::String>();
    if (!s)
      site_.fail(at, "mock_service() " + std::string(k) + " must be" + what + " string (got " +
                         typeOf(v) + ")");
    return std::string(s->view());
  }

  void routes(std::string_view k, star::Dict *d, std::vector<MockRoute> &out) const {
    const syntax::Expr *lit = site_.keywordValue(k);
    size_t i = 0;
    for (const star::HashTable::Entry &e : d->table.entries()) {
      if (e.value.isNull())
        continue;
      Loc at = site_.at(CallSite::element(lit, i++));
      auto *pattern = e.key.as<star::String>();
      if (!pattern)
        site_.fail(at, prefix_ + " " + std::string(k) + ": route keys must be strings (got " +
                           typeOf(e.key) + ")");
      auto *r = valueAs<MockResponseValue>(e.value);
      if (!r)
        site_.fail(at, prefix_ + " " + std::string(k) + ": route " + quote(pattern->view()) +
                           ": value must be a mock_response (got " + typeOf(e.value) + ")");
      out.push_back({normalisePattern(pattern->view()), r->data, at});
    }
  }

  // OpenAPI-style parameters ("GET /users/{id}") are one path segment: "*".
  static std::string normalisePattern(std::string_view p) {
    size_t sp = p.find(' ');
    if (sp == std::string_view::npos || p.find('{', sp) == std::string_view::npos)
      return std::string(p);
    std::string out(p.substr(0, sp + 1));
    for (size_t i = sp + 1; i < p.size(); ++i) {
      size_t close = p[i] == '{' ? p.find('}', i) : std::string_view::npos;
      if (close != std::string_view::npos && p.find('/', i) > close) {
        out += '*';
        i = close;
      } else {
        out += p[i];
      }
    }
    return out;
  }

  void dependsOn(Value v) const {
    const syntax::Expr *lit = site_.keywordValue("depends_on");
    std::vector<Value> items;
    if (!v.as<star::List>() || !listItems(v, items))
      site_.fail(site_.at(lit), "mock_service() depends_on must be a list");
    for (size_t i = 0; i < items.size(); ++i) {
      Loc at = site_.at(CallSite::element(lit, i));
      if (auto *dep = valueAs<ServiceValue>(items[i]))
        svc_.dependsOn.push_back({dep->data.name, at});
      else if (auto *s = items[i].as<star::String>())
        svc_.dependsOn.push_back({std::string(s->view()), at});
      else
        site_.fail(at, "depends_on items must be services or strings, got " + typeOf(items[i]));
    }
  }

  const CallSite &site_;
  Service &svc_;
  Mock &mock_;
  std::string prefix_;
};

// A MockBuilder reader as a parameter's.
template <void (MockBuilder::*Read)(std::string_view, Value, const Loc &)>
void mockKw(MockBuilder &mb, const Arg &arg) {
  (mb.*Read)(arg.name, arg.value, arg.at());
}

// mock_service()'s keywords, in the order messages list them.
constexpr Param<MockBuilder> kMockParams[] = {
    {"routes", mockKw<&MockBuilder::routesKw>},
    {"default", mockKw<&MockBuilder::defaultKw>},
    {"tls", mockKw<&MockBuilder::tlsKw>},
    {"config", mockKw<&MockBuilder::configKw>},
    {"descriptors", mockKw<&MockBuilder::pathKw>},
    {"openapi", mockKw<&MockBuilder::pathKw>},
    {"examples", mockKw<&MockBuilder::examplesKw>},
    {"validate", mockKw<&MockBuilder::validateKw>},
    {"overrides", mockKw<&MockBuilder::routesKw>},
    {"depends_on", mockKw<&MockBuilder::dependsOnKw>},
};

} // namespace

Value mockServiceFn(star::Thread &t, Value, const star::Args &args) {
  SpecBuilder &b = SpecBuilder::of(t);
  CallSite site(t, b.callSites);
  b.requireLoading(site, "mock_service");
  if (args.positional.empty())
    site.fail("mock_service() requires at least a name");
  auto *name = args.positional[0].as<star::String>();
  if (!name)
    site.fail(site.at(site.positional(0)), "mock_service() name must be a string");
  if (name->view().empty())
    site.fail(site.at(site.positional(0)), "mock_service() name must not be empty");
  checkServiceName(site, site.at(site.positional(0)), "mock_service()", name->view());

  auto *svc = t.heap.make<ServiceValue>();
  Service &s = svc->data;
  s.name = std::string(name->view());
  s.loc = site.loc();
  auto mock = std::make_shared<Mock>();
  for (size_t i = 1; i < args.positional.size(); ++i) {
    Loc at = site.at(site.positional(i));
    auto *iface = valueAs<InterfaceValue>(args.positional[i]);
    if (!iface)
      site.fail(at, "mock_service() positional arg " + std::to_string(i) +
                        " must be interface() (got " + typeOf(args.positional[i]) + ")");
    if (s.findInterface(iface->data.name))
      site.fail(at, "mock_service() " + quote(s.name) + ": duplicate interface " +
                        quote(iface->data.name));
    s.interfaces.push_back(iface->data);
  }
  MockBuilder mb(site, s, *mock);
  bindKeywords(BindCall(site, args, {"mock_service()"}), kMockParams, mb);
  if (!mock->openapi.empty())
    mb.openApiRoutes();
  if (s.interfaces.empty())
    site.fail("mock_service() " + quote(s.name) + " requires at least one interface");
  for (size_t i = 0; i < s.interfaces.size(); ++i)
    if (!isMockProtocol(s.interfaces[i].protocol))
      site.fail(site.at(site.positional(i + 1)),
                "mock_service() " + quote(s.name) + ": protocol " +
                    quote(s.interfaces[i].protocol) +
                    " does not support mock_service() (mockable: " + mockProtocolList() + ")");
  if (const Protocol *p =
          s.interfaces.size() == 1 ? findProtocol(s.interfaces.front().protocol) : nullptr;
      p && p->http2 == Http2::Grpc)
    mb.grpcRoutes();
  if (ServiceValue *prev = b.findService(s.name))
    site.fail(site.at(site.positional(0)), "mock_service(" + quote(s.name) +
                                               "): duplicate service name (first declared at " +
                                               prev->data.loc.str() + ")");
  if (std::optional<HostNeed> n = mockNeed(s, *mock))
    s.needs.push_back(std::move(*n));
  s.mock = std::move(mock);
  b.services.push_back(svc);
  return Value::object(svc);
}

} // namespace fbc::ir::builtins
