// ir::Spec: the typed fault-plan IR that the spec builtins build while a spec
// loads (see ir/builtins/) and that every later stage reads. One Spec per
// loaded spec; every entity keeps the source location it was declared at.
//
// Ordering (all of it deterministic, none of it from a hash map):
//   services     topological (dependencies first), name as the tie-break
//   assumptions  declaration order
//   scenarios    declaration order (scenario() calls)
//   matrices     declaration order (fault_matrix() calls)
//   tests        sorted by name (bytewise), which is the execution order
//
// The textual form is documented in docs/ir.md.
#pragma once

#include "frontend/lib/value.h"
#include "frontend/source/source_manager.h"
#include "frontend/syntax/ast.h"
#include "ir/name_index.h"

#include <llvm/ADT/ArrayRef.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fbc::ir {

// A source location: a file and a 1-based line and column. `file` is null
// for entities without a source (builtins used as test bodies).
struct Loc {
  const frontend::SourceFile *file = nullptr;
  frontend::Pos pos;
  bool valid() const { return file && pos.valid(); }
  // "path:line:col", or "" when invalid.
  std::string str() const;
  // How `fbc ir` marks a location after an entity: " @path:line:col", or
  // "" when invalid. A stdlib module's path already starts with its "@"
  // ("@faultbox/mocks/redis.star"), so it is not doubled.
  std::string marker() const;
};

// A Starlark callable the IR refers to: a test body, a scenario, an
// expectation. `syntax` is the def/lambda AST (null for builtins); the
// value is kept alive by the loaded spec's interpreter.
struct FunctionRef {
  std::string name; // "lambda" for lambdas, the builtin's name for builtins
  star::Value value;
  const syntax::Function *syntax = nullptr;
  Loc loc; // the def / lambda keyword
};

// ------------------------------------------------------------- topology

// interface(tls=tls_cert(...)): the TLS material a fault proxy in front of
// the interface would use (paths as written, relative to the spec's folder).
struct TlsCert {
  std::string proxyCert, proxyKey, clientCert, clientKey, ca;
  bool insecure = false;
  Loc loc;
};

struct Interface {
  std::string name;
  std::string protocol; // not validated: it selects a protocol plugin later
  int64_t port = 0;
  std::string spec; // interface(spec=...), "" if absent
  Loc loc;
  std::shared_ptr<const TlsCert> tls; // interface(tls=), null if absent
};

// Memcached, Mysql, Nats, Amqp and Grpc come only from ready() (the
// protocol table's readiness): no builtin writes them.
enum class HealthcheckKind {
  Tcp,
  Http,
  Ready,
  Redis,
  Postgres,
  Kafka,
  Memcached,
  Mysql,
  Nats,
  Amqp,
  Grpc
};
const char *healthcheckKindName(HealthcheckKind k);

// An interface's network address (Service::address()). `host` is the
// remote host as written (without [] around an IPv6 literal), "" for a
// local service: loopback.
struct Address {
  std::string host;
  int64_t port = 0;
  bool remote() const { return !host.empty(); }
  // What fbc dials: the host, or 127.0.0.1.
  std::string dialHost() const { return host.empty() ? "127.0.0.1" : host; }
  // What a spec and a service's env see: "localhost:8080", "10.0.0.5:6379",
  // "[::1]:80" (localhost for a local service, as the reference names it).
  std::string spelled() const;
  // The host as it goes before ":port": "localhost" or the remote host, IPv6 in [].
  std::string spelledHost() const;
  // "127.0.0.1:8080", "10.0.0.5:6379", "[::1]:80": what goes after
  // http:// in the URL of an HTTP step or probe.
  std::string dialHostPort() const;
};

// Splits a remote= host into host and port: "h" -> ("h", 0), "h:9090" ->
// ("h", 9090), "[::1]:80" -> ("::1", 80), "[::1]" -> ("::1", 0). False when
// what follows the last ':' is not a port 1..65535.
bool splitRemoteHost(std::string_view written, std::string &host, int64_t &port);

struct Healthcheck {
  HealthcheckKind kind = HealthcheckKind::Tcp;
  std::string target;    // as printed: "tcp://localhost:5432", "http://...", "ready://",
                         // "redis://localhost:6379", "postgres://localhost:5432",
                         // "kafka://localhost:9092"
  int64_t timeoutNs = 0; // always > 0 (defaults: tcp/http 10s, ready 30s, kafka 120s)
  Loc loc;
  // What the probe dials, typed at load so the runtime parses nothing the
  // IR spelled: the host and port dialled (host "" for localhost, which
  // dials 127.0.0.1; http()'s from its URL); the URL with a "localhost" as
  // 127.0.0.1 (libcurl may try ::1 first, and services listen on 127.0.0.1
  // as often as not). ready() has neither: the service's interface decides.
  Address at;
  std::string url;
};

struct Dependency {
  std::string name; // the service depended on
  Loc loc;          // the depends_on element
};

// op(syscalls=[...], path=) registered as service(ops={name: op}).
struct Op {
  std::string name;
  std::vector<std::string> syscalls; // as written (keywords, not expanded)
  std::string path;                  // glob, "" if absent
  Loc loc;
};

// What a test needs of the machine beyond what every test needs (a
// container runtime, the gVisor runtime), or a part fbc does not have. The
// IR records the need where it arises (a service, a call); `fbc run` decides
// once per run what this machine has (runtime/os/host_check.h) and gives each
// test that needs something missing one error row naming it, while the
// other tests run (docs/run.md "What this machine cannot run").
enum class HostFeature {
  ContainerRuntime, // docker or podman
  Gvisor,           // the gVisor runtime (runsc) and determinism(runtime="gvisor")
  Unbuilt,          // a part fbc does not have: never there
};

struct HostNeed {
  HostFeature feature = HostFeature::Unbuilt;
  std::string subject; // what the row names first: `service "pg"`, `packet_drop()`
  std::string what;    // "container services need a container runtime"
  Loc loc;             // the service or the call
  bool operator==(const HostNeed &o) const {
    return feature == o.feature && subject == o.subject && what == o.what;
  }
};
struct Mock; // ir/mock.h

// service(observe=[observe.stdout(decoder=...), observe.stderr(...)]): a
// stream of the service whose lines become trace events (docs/run.md
// "Log observation"). decoder "" records each line raw.
struct ObserveSource {
  std::string stream;  // "stdout" | "stderr"
  std::string decoder; // "" | "json" | "logfmt" | "regex"
  std::string pattern; // regex: RE2 syntax, named groups become fields
  Loc loc;             // the observe.stdout()/observe.stderr() call
};

struct Service {
  std::string name;
  std::vector<std::string> globals; // root-file globals holding it, sorted
  std::string binary;
  std::vector<std::string> args;
  std::vector<std::pair<std::string, std::string>> env; // in dict order
  std::vector<Interface> interfaces;                    // declaration order
  std::vector<Dependency> dependsOn;                    // list order
  std::optional<Healthcheck> healthcheck;
  bool seccomp = true;
  std::vector<std::string> nondeterministicOk; // determinism categories
  uint64_t pidsMax = 0;                        // pids_max=: 0 is the run's default
  std::string user;                            // user=: run as this account, "" = fbc's
  std::vector<Op> ops;                         // sorted by name
  // A container service (the reference runs these under docker): image=
  // or build= (a Dockerfile context, relative to the spec) instead of a
  // binary; volumes= host path -> container path and ports= container port
  // -> host port (0: any), in dict order; reuse= keeps it across tests,
  // seed= runs once after it starts, reset= between tests.
  std::string image, build;
  std::vector<std::pair<std::string, std::string>> volumes;
  std::vector<std::pair<int64_t, int64_t>> ports;
  bool reuse = false;
  std::shared_ptr<const FunctionRef> seed, reset;
  // A remote service (not started: it runs elsewhere): remote="host" for
  // every interface, or remotes({iface: host}) per interface (dict order).
  std::string remote;
  std::vector<std::pair<std::string, std::string>> remotes;
  std::vector<HostNeed> needs;        // what starting it needs (image=: a container runtime)
  std::shared_ptr<const Mock> mock;   // mock_service(): its routes; null otherwise
  std::vector<ObserveSource> observe; // observe= list order, one per stream
  Loc loc;

  const Interface *findInterface(std::string_view name) const;
  // The interface steps promoted to the service and ready() use: the only
  // one, else the one named "default"; null when there is no such one.
  const Interface *defaultInterface() const;
  const Op *findOp(std::string_view name) const;
  std::vector<std::string> opNames() const; // in `ops` order
  bool isContainer() const { return !image.empty() || !build.empty(); }
  bool isRemote() const { return !remote.empty() || !remotes.empty(); }
  // Where interface `i` is reached (the one place that says so: steps,
  // healthchecks, proxies, env and .addr all ask it). A remote service's
  // host from remote= or remotes({...}), with the port written after it
  // ("host:port") or else the interface's; a container service's on
  // loopback at the host port ports= publishes it on (else the interface's
  // port); any other service is on loopback at the interface's port. Null for an interface
  // remotes({...}) names no host for (a HostNeed of the service: it cannot run).
  std::optional<Address> address(const Interface &i) const;
  // address(i), or loopback at the interface's port for an interface
  // remotes({...}) names no host: its tests are cannot-run rows and nothing
  // dials it, but .addr, env values and the launch still need a value.
  Address addressOrLoopback(const Interface &i) const;
  // remote="h" or remotes({"a": "h", ...}) as the spec wrote it.
  std::string remoteSource() const;
};

struct Contract; // ir/contract.h

// client(name, target=, openapi=|descriptors=, grpc_service=, base_path=,
// headers=, before=, rename=, validate=, timeout=): a named caller of one
// interface, one method per operation of its API contract (docs/ir.md
// "Clients"). In plans it is an actor with an edge to its target.
struct Client {
  std::string name;
  std::string service, interface;    // target=
  std::string openapi, descriptors;  // the contract, as written ("" if absent)
  std::string grpcService, basePath; // "" if absent
  std::vector<std::pair<std::string, std::string>> headers, rename; // dict order
  std::shared_ptr<const FunctionRef> before;                        // null if absent
  std::string validate = "off";             // off | request | response | strict
  int64_t timeoutNs = 0;                    // 0: the step's (HTTP 30 s, gRPC 5 s)
  std::shared_ptr<const Contract> contract; // openapi= or descriptors=: its operations
  std::vector<HostNeed> needs;              // what the run needs of the host (none yet)
  Loc loc;
};

// ---------------------------------------------------------------- faults

enum class FaultAction { Deny, Delay, Allow };
const char *faultActionName(FaultAction a);

// mode= of a probabilistic rule. None: unset (stochastic, no fan-out).
enum class FaultMode { None, Exhaustive, Stochastic };
const char *faultModeName(FaultMode m); // "", "exhaustive", "stochastic"

// A fault value: deny(errno, ...), delay(duration, ...) or allow(...).
struct Fault {
  FaultAction action = FaultAction::Deny;
  std::string errnoName;  // Deny: upper-case name from the errno table
  int errnoNumber = 0;    // Deny: its Linux number (ir/syscalls.h), what the filter answers
  int64_t delayNs = 0;    // Delay
  double probability = 1; // in [0, 1]; allow() is 0 (never fires)
  int64_t maxFires = 0;   // 0: unset
  FaultMode mode = FaultMode::None;
  std::string label;
  std::string path; // glob on the syscall's path, "" for any
  Loc loc;          // the deny/delay/allow call
};

// One keyword of a fault assumption: `write=deny("EIO")` is keyword
// "write", syscalls [write, writev, pwrite64] (the family), the fault. A
// keyword naming an op of the target service has `op` set and the op's
// syscalls (each family-expanded) and path.
struct FaultRule {
  std::string keyword;
  std::string op; // "" unless the keyword is a service op
  std::vector<std::string> syscalls;
  Fault fault;
  Loc loc; // the keyword argument
};

// A protocol-level rule on an interface, enforced by fbc's proxy in front
// of it (docs/run.md "Protocol faults"): response(), error(), delay(delay=),
// drop(). The matchers that apply depend on the interface's protocol:
// http method/path, redis command/key, postgres query; "" matches anything.
// Duplicate: duplicate(topic=|subject=) re-delivers a Kafka or NATS
// message or a UDP datagram (ir::Protocol::duplicates): fbc's proxy frames
// each of them (the UDP relay each datagram); on another protocol the rule
// is a load error.
enum class ProxyAction { Respond, Error, Delay, Drop, Duplicate };
// "response", "error", "delay", "drop", "duplicate"
const char *proxyActionName(ProxyAction a);

struct ProxyRule {
  ProxyAction action = ProxyAction::Error;
  std::string method, path, query, command, key; // matchers
  // Kafka / AMQP / NATS topic, NATS subject, MongoDB op and collection:
  // the reference's matchers. Matched where fbc's proxy frames the
  // protocol (Kafka, NATS, AMQP); on a protocol it relays as TCP a rule
  // that needs them is a cannot-run row (proxyRuleGap()).
  std::string topic, subject, op, collection;
  // AMQP's exchange (fbc's own matcher, beside the routing key's topic=):
  // a glob matched with its case (method= and command= ignore case).
  std::string exchange;
  int64_t status = 0; // response()/error() status=<int> (0: the protocol's default; 0-16 on gRPC)
  std::string code;   // error(status="57P01"): a SQLSTATE given as a string
  int64_t errorNumber = 0; // error(code=1213): a MySQL error number (0: none)
  std::string message;     // error(message=)
  std::string body;        // response(body=)
  bool hasBody = false;
  int64_t delayNs = 0;        // delay(delay=)
  bool reset = false;         // drop(reset=True): RST instead of FIN
  bool perConnection = false; // per="connection": decided once when a client connects
  double probability = 1;
  int64_t maxFires = 0;
  FaultMode mode = FaultMode::None;
  std::string label;
  Loc loc; // the constructor call
  // "error(path=\"/orders*\", status=503)": the rule as written, for plans
  // and events (one formatter: ir/spec.cpp).
  std::string display() const;
  // Its matchers alone, as display() writes them: "method=\"GET\", path=\"/x\""
  // ("" for a rule that matches every unit).
  std::string
  matchers() const; // The matcher the codec's request target is compared with: path=, key=,
  // query= or subject=, whichever is set, else topic=.
  const std::string &target() const;
  std::string &target();
};

// Why `r` cannot apply to an interface speaking `protocol` ("" when it
// can): a matcher of another protocol (path= on redis), or a reply
// (response()/error()) on a protocol the proxy only relays (tcp).
std::string proxyRuleMismatch(const ProxyRule &r, std::string_view protocol);
// Why fbc's proxy cannot enforce rule `r` on `protocol` traffic although the
// reference can (a Kafka topic, a MongoDB collection, a gRPC status: fbc
// relays those protocols as TCP), or "" when it can. A test that needs such
// a rule is a cannot-run row, never run without it.
std::string proxyRuleGap(const ProxyRule &r, std::string_view protocol);

// A packet-layer rule: packet_drop(), packet_delay("200ms"), ... (the
// reference's gVisor packet gateway). Planned and shown; running one needs
// the gVisor runtime (ir/host_needs.h), so its probability is not a fan-out
// axis here.
struct PacketRule {
  std::string builtin; // "packet_drop"
  std::string args;    // the arguments as given, rendered: "dir=\"c2s\", probability=0.5"
  Loc loc;             // the constructor call
  std::string display() const { return builtin + "(" + args + ")"; }
};

struct FaultTarget {
  std::string service;
  std::string interface; // "" when the target is the service itself
  bool valid() const { return !service.empty(); }
};

struct FaultAssumption {
  std::string name;
  FaultTarget target; // may be unset when the assumption only composes
  std::string description;
  std::vector<FaultRule> rules;        // in keyword order
  std::vector<ProxyRule> proxyRules;   // rules= (target is an interface), in list order
  std::vector<PacketRule> packetRules; // rules= packet_*() items, in list order
  std::vector<std::string> faults;     // composed assumptions (faults=), in order
  std::vector<uint32_t> monitors;      // monitors=: indices into Spec::monitors
  Loc loc;
};

// ------------------------------------------------------------- temporal

// match.event(type=, service=, **fields), match.any(m, ...), match.all(m,
// ...), match.never(), or a callable given where a matcher goes (monitor
// on=, eventually anchor=, await_event, await_stable ignore=): which trace
// events something applies to (docs/ir.md "Monitors and temporal
// properties").
enum class MatcherKind { Event, Any, All, Never, Predicate };

struct Matcher {
  MatcherKind kind = MatcherKind::Never;
  // Event: key and pattern in call order; "type" is the event's type,
  // "service" its service, any other key a field. A pattern ending in '*'
  // matches by prefix, "" matches anything.
  std::vector<std::pair<std::string, std::string>> criteria;
  std::vector<Matcher> children; // Any / All
  FunctionRef fn;                // Predicate: called with the event
  Loc loc;
  // `event(type="stdout", event="fsm.apply")`, `any(event(...), never())`,
  // `predicate(lambda)`: one formatter for IR, plan and reasons.
  std::string display() const;
};

// monitor(name, on=, state_init=, update=, check=): a property checked on
// every event of its scope. Declared at load time it is spec-wide (every
// test) until a monitors= list claims it (then only where that applies).
struct Monitor {
  std::string name;
  Matcher on;
  star::Value stateInit;                     // None when absent
  std::string stateInitText;                 // its repr, for the IR
  std::shared_ptr<const FunctionRef> update; // (event, state) -> new state
  std::shared_ptr<const FunctionRef> check;  // (event, state) -> bool
  bool claimed = false;
  Loc loc;
};

// One end of always(between=(start, end)): a lifecycle anchor by name
// ("body_start", "body_end", "stable") or a matcher; neither: unset.
struct TemporalAnchor {
  std::string name;
  std::shared_ptr<const Matcher> matcher;
  bool set() const { return !name.empty() || matcher; }
  std::string display() const; // the name quoted, or the matcher
};

// eventually(pred, anchor=) / always(pred, between=): a property of the
// trace, given to test(expect=) or test(terminate_when=). `pred` is called
// with the trace object; the verdict is three-valued (docs/run.md).
enum class TemporalKind { Eventually, Always };
const char *temporalKindName(TemporalKind k); // "eventually", "always"

struct Temporal {
  TemporalKind kind = TemporalKind::Eventually;
  FunctionRef pred;
  std::shared_ptr<const Matcher> anchor; // eventually(anchor=)
  TemporalAnchor start, end;             // always(between=)
  Loc loc;                               // the eventually()/always() call
  // `eventually(pred)` (the reference's expectation name), then
  // ` anchor=...` / ` between=(start, end)` when given.
  std::string name() const;
  std::string display() const;
};

// assume(pred) at top level, test(assume=[...]): a predicate on the
// leaf's choices (a dict: named choose() axis -> the option it takes), or
// a bool.
struct Assume {
  std::string name; // the callable's name, or "const_True"/"const_False"
  FunctionRef fn;   // unset (null value) for a bool
  bool constant = false, value = false;
  Loc loc; // the element / the assume() call
};

// What a test() or a fault_scenario/matrix cell adds on top of its kind:
// scoped monitors (monitors=, indices into Spec::monitors), expect= and
// terminate_when= (test()), assume= (test()). Shared by a matrix's cells.
struct TestTemporal {
  std::vector<uint32_t> monitors;
  std::shared_ptr<const Temporal> expect, terminateWhen;
  std::vector<Assume> assumes;
};

// ------------------------------------------------------------ scenarios

// scenario(fn): a registered scenario (it also becomes a test).
struct Scenario {
  std::string name;
  FunctionRef fn;
  Loc loc; // the scenario() call
};

enum class ExpectKind { Function, Success, ErrorWithin, Hang };

// What a fault_scenario / matrix cell checks on the scenario's result: a
// Starlark callable or one of the expect_*() predicates.
struct Expect {
  ExpectKind kind = ExpectKind::Function;
  std::string name;     // function name, "lambda", "expect_success", ...
  int64_t withinMs = 0; // ErrorWithin
  FunctionRef fn;       // Function
  Loc loc;              // where the expect_*() value was made (predicates)
  // "expect_ok", "expect_error_within(ms=500)".
  std::string display() const;
};

struct MatrixCell {
  std::string scenario; // scenario function name
  std::string fault;    // assumption name
  Loc loc;              // the element (override key, exclude entry)
};

struct MatrixOverride {
  MatrixCell cell;
  Expect expect;
};

struct Matrix {
  uint32_t index = 0; // position in Spec::matrices
  std::vector<FunctionRef> scenarios;
  std::vector<std::string> faults;
  std::shared_ptr<const Expect> defaultExpect; // shared by the cells that use it
  std::vector<MatrixOverride> overrides;       // dict order
  std::vector<MatrixCell> exclude;
  bool requireFaultsFire = false;
  std::vector<uint32_t> monitors; // monitors=: indices into Spec::monitors
  Loc loc;
};

// --------------------------------------------------------------- tests

enum class TestKind { Def, Scenario, FaultScenario, FaultMatrix, TestBuiltin };
const char *testKindName(TestKind k); // def, scenario, fault_scenario, ...

// A large spec has tens of thousands of tests (mostly matrix cells), so the
// rarely-set parts are behind pointers (a cell shares its matrix's
// default_expect) and a cell's (scenario, fault) is not stored twice.
struct Test {
  std::string name;
  TestKind kind = TestKind::Def;
  FunctionRef body;                         // the def, scenario fn or body=
  std::shared_ptr<const FunctionRef> setup; // test(setup=)
  std::vector<std::string> faults;          // fault_scenario faults / the cell's fault
  std::shared_ptr<const Expect> expect;
  std::optional<int64_t> timeoutNs; // fault_scenario / matrix cell / test()
  // FaultMatrix: the matrix (index into Spec::matrices).
  std::optional<uint32_t> matrix;
  bool requireFaultsFire = false;
  std::shared_ptr<const TestTemporal> temporal; // null: none of them
  Loc loc;                                      // the def, or the registering call

  // FaultMatrix: the cell, (scenario function name, assumption name) at the
  // matrix's call.
  // Empty for other kinds.
  MatrixCell cell() const {
    if (kind != TestKind::FaultMatrix)
      return {};
    return MatrixCell{body.name, faults.empty() ? std::string() : faults[0], loc};
  }
  // The name `fbc plan` shows it under: a matrix cell's is its scenario's
  // row, "test_matrix_<scenario>"; any other test's is its own. `fbc run
  // --test` takes either.
  std::string planName() const {
    return kind == TestKind::FaultMatrix ? "test_matrix_" + body.name : name;
  }
};

// ---------------------------------------------------------- determinism

// The nondeterminism categories that determinism(allow=) and
// service(nondeterministic_ok=) may name and unmediated_io events carry
// (ir/unmediated.h), in the order messages list them. Spelled only here.
inline constexpr std::string_view kCategoryClock = "clock";
inline constexpr std::string_view kCategoryRand = "rand";
inline constexpr std::string_view kCategoryDns = "dns";
inline constexpr std::string_view kCategoryNetwork = "network-unmediated";
inline constexpr std::string_view kCategoryFs = "fs-unmediated";
llvm::ArrayRef<std::string_view> determinismCategories();
bool isDeterminismCategory(std::string_view c);

struct Determinism {
  std::string level = "L1";        // L0 | L1
  std::string runtime = "default"; // default | gvisor
  bool strict = true;
  std::vector<std::string> allow; // categories, in the order given
  bool explicitCall = false;      // determinism() was called
  Loc loc;
};

// ----------------------------------------------------------- data files

// A file a load_file(), load_json() or load_yaml() call read while the spec
// loaded (ir/builtins/loaders.cpp). Its text is also in the loaded spec's
// SourceManager, so a run bundle's spec/ snapshot carries it.
struct DataFile {
  std::string builtin; // "load_file", "load_json", "load_yaml"
  std::string path;    // as written in the call
  uint64_t bytes = 0;
  Loc loc; // the call
};

// ---------------------------------------------------------------- spec

struct Spec {
  std::string path; // the root spec as given on the command line
  Determinism determinism;
  std::vector<Service> services;
  std::vector<FaultAssumption> assumptions;
  std::vector<Scenario> scenarios;
  std::vector<Matrix> matrices;
  std::vector<Test> tests;
  std::vector<DataFile> dataFiles; // call order
  std::vector<Monitor> monitors;   // declared at load time, call order
  std::vector<Assume> assumes;     // top-level assume() calls (held at load)
  std::vector<Client> clients;     // declaration order

  const Service *findService(std::string_view name) const;
  const Client *findClient(std::string_view name) const;
  const FaultAssumption *findAssumption(std::string_view name) const;
  const Test *findTest(std::string_view name) const;

private:
  NameIndex serviceIndex_, assumptionIndex_; // for findService / findAssumption
};

} // namespace fbc::ir
