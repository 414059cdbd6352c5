#include "runtime/executor.h"

#include "frontend/eval/objects.h"
#include "frontend/eval/ops.h"
#include "frontend/eval/printer.h"
#include "frontend/eval/thread.h"
#include "frontend/lib/json.h"
#include "ir/builtins/values.h"
#include "ir/duration.h"
#include "ir/quote.h"
#include "ir/syscalls.h"
#include "runtime/builtin_args.h"
#include "runtime/duration.h"
#include "runtime/errno_names.h"
#include "runtime/event_value.h"
#include "runtime/response_value.h"
#include "runtime/steps.h"
#include "runtime/supervisor.h"
#include "runtime/test_rules.h"

#include <limits.h>
#include <stdlib.h>
#include <time.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <thread>

namespace fbc::rt {

using ir::builtins::AssumptionValue;
using ir::builtins::InterfaceRefValue;
using ir::builtins::ServiceValue;
using ir::builtins::valueAs;
using star::Value;

const char *resultName(Result r) {
  switch (r) {
  case Result::Pass:
    return "pass";
  case Result::Fail:
    return "fail";
  case Result::Error:
    return "error";
  case Result::Inconclusive:
    return "inconclusive";
  case Result::Halted:
    return "halted";
  }
  return "error";
}

std::string TestOutcome::outcomeWord() const {
  switch (result) {
  case Result::Pass:
    return "passed";
  case Result::Fail:
    return expectationViolated ? "expectation_violated" : "failed";
  case Result::Error:
    return "errored";
  case Result::Inconclusive:
    return "inconclusive";
  case Result::Halted:
    return "halted";
  }
  return "errored";
}

size_t RunReport::count(Result r) const {
  return static_cast<size_t>(std::count_if(tests.begin(), tests.end(),
                                           [&](const TestOutcome &t) { return t.result == r; }));
}

namespace {

int64_t realtimeNs() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

std::string upper(std::string s) {
  for (char &c : s)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::string dirOf(const std::string &path) {
  char buf[PATH_MAX];
  std::string abs = realpath(path.c_str(), buf) ? std::string(buf) : path;
  size_t slash = abs.rfind('/');
  if (slash == std::string::npos)
    return ".";
  return slash == 0 ? "/" : abs.substr(0, slash);
}

// "tcp://localhost:5432" -> host, port. Loopback names become 127.0.0.1.
bool splitHostPort(std::string_view s, std::string &host, uint16_t &port) {
  size_t colon = s.rfind(':');
  if (colon == std::string_view::npos)
    return false;
  host = std::string(s.substr(0, colon));
  if (host.size() > 1 && host.front() == '[' && host.back() == ']')
    host = host.substr(1, host.size() - 2);
  if (host.empty() || host == "localhost")
    host = "127.0.0.1";
  long p = std::strtol(std::string(s.substr(colon + 1)).c_str(), nullptr, 10);
  if (p <= 0 || p > 65535)
    return false;
  port = static_cast<uint16_t>(p);
  return true;
}

const ir::Interface *defaultInterface(const ir::Service &s) {
  if (s.interfaces.size() == 1)
    return &s.interfaces.front();
  return s.findInterface("default");
}

Healthcheck healthOf(const ir::Service &s) {
  Healthcheck h;
  if (!s.healthcheck)
    return h;
  const ir::Healthcheck &hc = *s.healthcheck;
  int64_t ms = hc.timeoutNs / 1000000;
  std::string_view target = hc.target;
  auto loopback = [](std::string url) {
    // libcurl may try ::1 first for "localhost"; services here listen on
    // 127.0.0.1 as often as not.
    if (size_t p = url.find("://localhost"); p != std::string::npos)
      url.replace(p + 3, 9, "127.0.0.1");
    return url;
  };
  switch (hc.kind) {
  case ir::HealthcheckKind::Tcp: {
    std::string host;
    uint16_t port = 0;
    if (target.starts_with("tcp://"))
      target.remove_prefix(6);
    if (splitHostPort(target, host, port))
      h = Healthcheck::tcp(host, port, ms);
    break;
  }
  case ir::HealthcheckKind::Http:
    h = Healthcheck::http(loopback(hc.target), ms);
    break;
  case ir::HealthcheckKind::Ready:
    if (const ir::Interface *i = defaultInterface(s)) {
      if (i->protocol == "http" || i->protocol == "http2")
        h = Healthcheck::http("http://127.0.0.1:" + std::to_string(i->port) + "/", ms);
      else
        h = Healthcheck::tcp("127.0.0.1", static_cast<uint16_t>(i->port), ms);
    }
    break;
  }
  return h;
}

ServiceSpec serviceSpec(const ir::Spec &spec, const ir::Service &s, const std::string &dir,
                        std::vector<int> trapped) {
  ServiceSpec out;
  out.name = s.name;
  std::string bin = s.binary;
  if (bin.find('/') != std::string::npos && bin.front() != '/') {
    while (bin.starts_with("./"))
      bin.erase(0, 2);
    bin = dir + "/" + bin;
  }
  out.launch.binary = bin;
  out.launch.args = s.args;
  // The reference's discovery variables for every service's interfaces,
  // then the service's own env (which wins).
  for (const ir::Service &o : spec.services)
    for (const ir::Interface &i : o.interfaces) {
      std::string prefix = "FAULTBOX_" + upper(o.name) + "_" + upper(i.name) + "_";
      std::string port = std::to_string(i.port);
      out.launch.env.push_back(prefix + "HOST=localhost");
      out.launch.env.push_back(prefix + "PORT=" + port);
      out.launch.env.push_back(prefix + "ADDR=localhost:" + port);
    }
  for (const auto &[k, v] : s.env)
    out.launch.env.push_back(k + "=" + v);
  out.launch.cwd = dir;
  out.launch.trapped = std::move(trapped);
  for (const ir::Interface &i : s.interfaces)
    if (i.port > 0 && i.port <= 65535)
      out.ports.push_back(static_cast<uint16_t>(i.port));
  out.health = healthOf(s);
  return out;
}

// Applied/removed pairs of every fault rule, in application order.
std::vector<FaultSummary> faultSummaries(const std::vector<TraceEvent> &events,
                                         const std::vector<std::string> &names) {
  std::vector<FaultSummary> out;
  std::vector<std::pair<ServiceId, size_t>> open;
  for (const TraceEvent &e : events) {
    if (e.type == EventType::FaultApplied) {
      FaultSummary f;
      f.service = e.service < names.size() ? names[e.service] : "test";
      f.syscall = e.field("syscall");
      std::string action = e.field("action");
      f.action = action.substr(0, action.find('('));
      if (f.action == "deny")
        f.errnoName = e.field("errno");
      if (f.action == "delay" && action.size() > 7)
        f.delay = action.substr(6, action.size() - 7);
      f.label = e.field("label");
      f.path = e.field("path");
      open.emplace_back(e.service, out.size());
      out.push_back(std::move(f));
    } else if (e.type == EventType::FaultRemoved) {
      std::string sc = e.field("syscall"), label = e.field("label"), action = e.field("action");
      for (auto it = open.begin(); it != open.end(); ++it) {
        FaultSummary &f = out[it->second];
        if (it->first == e.service && f.syscall == sc && f.label == label &&
            f.action == action.substr(0, action.find('('))) {
          f.hits = std::strtoull(e.field("hits").c_str(), nullptr, 10);
          open.erase(it);
          break;
        }
      }
    }
  }
  return out;
}

std::string truncate(std::string s, size_t n) {
  if (s.size() > n)
    s.resize(n);
  return s;
}

// A field of a scenario result: a dict key or an attribute.
Value resultField(star::Thread &t, Value v, std::string_view name) {
  if (auto *d = v.as<star::Dict>())
    return d->table.get(t, star::makeString(t.heap, name));
  return star::getAttrOrNull(t, v, name);
}

} // namespace

Executor::Executor(ir::LoadedSpec &loaded, RunConfig cfg) : loaded_(loaded), cfg_(cfg) {}

Executor::~Executor() {
  loaded_.setBodyRuntime(nullptr);
}

bool Executor::cancelled() const {
  return body_.cancelled() || interrupted();
}

bool Executor::interrupted() const {
  return cfg_.interrupted && cfg_.interrupted->load(std::memory_order_relaxed);
}

void Executor::record(RunReport &report, TestOutcome o) {
  report.tests.push_back(std::move(o));
  if (cfg_.onOutcome)
    cfg_.onOutcome(report, report.tests.back());
}

RunReport Executor::run(const std::vector<const ir::Test *> &tests) {
  const ir::Spec &spec = loaded_.spec();
  RunReport report;
  report.starFile = spec.path;
  report.seed = cfg_.seed;
  for (const ir::Service &s : spec.services)
    report.serviceNames.push_back(s.name);
  int64_t t0 = monotonicNs();
  loaded_.setBodyRuntime(this);
  warnings_.clear();
  warnedAt_.clear();
  for (size_t i = 0; i < tests.size(); ++i) {
    const ir::LeafTest *lt = nullptr;
    if (cfg_.leaves)
      for (const ir::LeafTest &x : cfg_.leaves->tests)
        if (x.test == tests[i])
          lt = &x;
    if (lt && lt->fansOut()) {
      if (interrupted() || !runLeaves(*tests[i], *lt, report)) {
        report.interrupted = true;
        report.notRun = tests.size() - i;
        break;
      }
      continue;
    }
    // A test without fan-out has only leaf 0: any other --leaf is an
    // error row, and the test does not run.
    if (cfg_.leafId && *cfg_.leafId != 0) {
      record(report, noSuchLeaf(*tests[i], *cfg_.leafId, "1 leaf"));
      continue;
    }
    bool intr = interrupted();
    TestOutcome o;
    if (!intr)
      o = runTest(*tests[i], intr);
    if (intr) {
      report.interrupted = true;
      report.notRun = tests.size() - i;
      break;
    }
    record(report, std::move(o));
  }
  report.warnings = std::move(warnings_);
  loaded_.setBodyRuntime(nullptr);
  report.durationMs = (monotonicNs() - t0) / 1000000;
  return report;
}

bool Executor::runLeaves(const ir::Test &t, const ir::LeafTest &lt, RunReport &report) {
  // A copy: axes of unknown size are sized while leaf 0 runs.
  ir::LeafTest work = lt;
  bool unknown = std::any_of(work.axes.begin(), work.axes.end(),
                             [](const ir::LeafAxis &a) { return !a.known; });
  std::optional<uint64_t> only = cfg_.leafId;
  auto runOne = [&](uint64_t index, bool keep) {
    leafTest_ = &work;
    leaf_ = work.decode(index);
    sizing_ = index == 0 && unknown;
    if (sizing_)
      sized_.assign(work.axes.size(), 0);
    bool intr = false;
    TestOutcome o = runTest(t, intr);
    bool wasSizing = sizing_;
    leafTest_ = nullptr;
    sizing_ = false;
    if (intr)
      return false;
    if (wasSizing) {
      // An axis the body never reached adds no leaves.
      for (size_t a = 0; a < work.axes.size(); ++a)
        if (!work.axes[a].known)
          work.resize(a, std::max<uint64_t>(1, sized_[a]));
      unknown = false;
    }
    if (!keep)
      return true;
    LeafInfo info;
    info.id = leaf_.id();
    info.label = ir::leafAxesLabel(work, leaf_);
    for (size_t a = 0; a < work.axes.size(); ++a) {
      const ir::LeafAxis &ax = work.axes[a];
      uint64_t d = leaf_.digits[a];
      switch (ax.kind) {
      case ir::AxisKind::Choose:
        info.choices.emplace_back(ax.name, d);
        break;
      case ir::AxisKind::Probability:
        info.probability.emplace_back(ax.name, ir::probabilityVector(d, ax.maxFires));
        break;
      case ir::AxisKind::Interleaving:
        info.interleavings.emplace_back(ax.name, d);
        break;
      }
    }
    std::sort(info.choices.begin(), info.choices.end());
    std::sort(info.probability.begin(), info.probability.end());
    std::sort(info.interleavings.begin(), info.interleavings.end());
    o.leaf = std::move(info);
    record(report, std::move(o));
    return true;
  };
  if (only) {
    if (*only > 0 && unknown && !runOne(0, false)) // sizes the axes, not reported
      return false;
    if (*only >= work.count.value) {
      record(report, noSuchLeaf(t, *only, work.count.str() + " leaves"));
      return true;
    }
    return runOne(*only, true);
  }
  if (!runOne(0, true))
    return false;
  for (uint64_t k = 1; k < work.count.value; ++k) {
    if (interrupted() || !runOne(k, true))
      return false;
  }
  return true;
}

void Executor::warnOnce(star::Thread &t, std::string message) {
  ir::Loc loc;
  if (t.top && t.top->parent && t.top->parent->file)
    loc = ir::Loc{t.top->parent->file, t.top->parent->pos};
  std::string key = loc.str() + "\n" + message;
  if (std::find(warnedAt_.begin(), warnedAt_.end(), key) != warnedAt_.end())
    return;
  warnedAt_.push_back(key);
  warnings_.push_back({loc, std::move(message)});
}

std::optional<uint64_t> Executor::leafDigit(ir::AxisKind kind, const std::string &name,
                                            const ir::Loc &loc, uint64_t size) {
  if (!leafTest_)
    return std::nullopt;
  const std::vector<ir::LeafAxis> &axes = leafTest_->axes;
  size_t found = axes.size();
  for (size_t a = 0; a < axes.size() && found == axes.size(); ++a)
    if (axes[a].kind == kind && axes[a].name == name)
      found = a;
  // choose(NAME, ...) with a computed name: the plan's "choose#k" axis at
  // the same call.
  if (found == axes.size() && kind == ir::AxisKind::Choose && loc.valid())
    for (size_t a = 0; a < axes.size() && found == axes.size(); ++a)
      if (axes[a].kind == kind && axes[a].loc.file == loc.file && axes[a].loc.pos == loc.pos)
        found = a;
  if (found == axes.size())
    return std::nullopt;
  if (sizing_ && !axes[found].known && sized_[found] == 0)
    sized_[found] = std::max<uint64_t>(1, size);
  return leaf_.digits[found];
}

namespace {

ir::Loc callerLoc(star::Thread &t) {
  if (t.top && t.top->parent && t.top->parent->file)
    return ir::Loc{t.top->parent->file, t.top->parent->pos};
  return ir::Loc{};
}

// A body-time argument error, located at the call.
[[noreturn]] void failAt(star::Thread &t, const std::string &msg) {
  ir::Loc loc = callerLoc(t);
  t.fail(loc.valid() ? loc.str() + ": " + msg : msg);
}

} // namespace

// choose("name", options) / choose(options), after chooseFn checked the
// arguments: the leaf's option of a planned axis, else the first option.
Value Executor::choose(star::Thread &t, const star::Args &args) {
  auto *list = args.positional.back().as<star::List>();
  Value first = list->elems.front();
  size_t n = list->elems.size();
  if (args.positional.size() == 1) {
    if (n > 1)
      warnOnce(t, "choose() without a name is not a planned axis: it returns its first option "
                  "(name it, choose(\"name\", options), to run every option)");
    return first;
  }
  std::string name(args.positional[0].as<star::String>()->view());
  std::optional<uint64_t> d = leafDigit(ir::AxisKind::Choose, name, callerLoc(t), n);
  if (!d) {
    if (n > 1)
      warnOnce(t, "choose(" + ir::quote(name) +
                      ") is not a planned axis of this test (fbc plan does not count choose() "
                      "reached through a helper): it returns its first option");
    return first;
  }
  return *d < n ? list->elems[*d] : first;
}

// parallel(f1, ..., fB, interleavings=P): with a planned interleaving axis
// the branches run one after another in the leaf's launch order (the d-th
// lexicographic permutation); otherwise (1 / omitted) once, concurrently,
// each on its own thread. The results come back in argument order.
Value Executor::parallel(star::Thread &t, const star::Args &args) {
  enum class Policy { Single, All, Critical, N } policy = Policy::Single;
  uint64_t cap = 1;
  if (Value p = kwarg(args, "interleavings")) {
    if (p.isInt()) {
      if (!p.isSmallInt() || p.smallInt() <= 0)
        failAt(t, "parallel(): interleavings= must be a positive integer, got " + star::repr(p));
      cap = uint64_t(p.smallInt());
      policy = cap == 1 ? Policy::Single : Policy::N;
    } else if (auto *s = p.as<star::String>()) {
      std::string v(s->view());
      if (v == "1")
        policy = Policy::Single;
      else if (v == "all")
        policy = Policy::All;
      else if (v == "critical")
        policy = Policy::Critical;
      else if (v == "dpor")
        failAt(t, "parallel(): interleavings=\"dpor\" is reserved for a future Faultbox release "
                  "(see RFC-009 — independence-relation refinement)");
      else if (v == "sut-internal")
        failAt(t, "parallel(): interleavings=\"sut-internal\" requires L5 "
                  "(instruction-boundary determinism); not available in this release (see "
                  "RFC-040 Appendix A)");
      else
        failAt(t, "parallel(): interleavings= must be 1, an integer N, \"all\", or "
                  "\"critical\"; got " +
                      ir::quote(v));
    } else {
      failAt(t, "parallel(): interleavings= must be int or string, got " +
                    std::string(star::typeName(p)));
    }
  }
  for (const star::Kwarg &k : args.kwargs)
    if (k.name->view() != "interleavings")
      failAt(t, "parallel(): unrecognized keyword argument " + ir::quote(k.name->view()));
  size_t b = args.positional.size();
  if (b < 2)
    failAt(t, "parallel() requires at least 2 callables");
  for (size_t i = 0; i < b; ++i) {
    Value f = args.positional[i];
    if (!f.isObject() || !f.obj()->callable())
      failAt(t, "parallel() argument " + std::to_string(i + 1) + " is not callable (got " +
                    std::string(star::typeName(f)) + ")");
  }
  std::optional<std::vector<uint32_t>> order;
  if (policy != Policy::Single) {
    // The size this call has: B!, min(2B-1, B!), min(N, B!).
    uint64_t fact = 1;
    for (uint64_t i = 2; i <= b && fact != UINT64_MAX; ++i)
      fact = fact > UINT64_MAX / i ? UINT64_MAX : fact * i;
    uint64_t size = policy == Policy::All        ? fact
                    : policy == Policy::Critical ? std::min<uint64_t>(2 * b - 1, fact)
                                                 : std::min<uint64_t>(cap, fact);
    ir::Loc loc = callerLoc(t);
    std::string key = loc.str();
    if (size_t c = key.rfind(':'); c != std::string::npos)
      key.resize(c);
    if (std::optional<uint64_t> d = leafDigit(ir::AxisKind::Interleaving, key, loc, size))
      order = ir::launchOrder(*d < size ? *d : 0, uint32_t(b));
    else
      warnOnce(t, "parallel() site " + ir::quote(key) +
                      " is not a planned axis of this test: its branches run once, concurrently");
  }
  llvm::ArrayRef<Value> fns(args.positional.data(), b);
  std::vector<BranchResult> results =
      order ? body_.runInOrder(t, fns, *order) : body_.runConcurrently(t, fns);
  // Every branch has finished; the first failing one (by argument index)
  // fails the call.
  std::vector<Value> values;
  for (size_t i = 0; i < b; ++i) {
    const BranchResult &r = results[i];
    if (r.exception)
      std::rethrow_exception(r.exception);
    if (r.failed) {
      // The branch's frames continue the caller's (see runBranch()), so
      // its traceback runs from the test through parallel() to the raise.
      star::EvalError e("parallel() callable " + std::to_string(i) + " failed: " + r.error);
      e.frames = r.frames;
      throw e;
    }
    values.push_back(r.value);
  }
  return Value::object(t.heap.make<star::List>(std::move(values)));
}

// The row of `t` before it runs: its identity, no result yet.
TestOutcome Executor::baseOutcome(const ir::Test &t) const {
  TestOutcome o;
  o.name = t.name;
  o.kind = t.kind;
  o.seed = cfg_.seed;
  o.matrix = t.matrix;
  o.scenario = t.cell.scenario;
  o.fault = t.cell.fault;
  if (t.expect)
    o.expectation = t.expect->name;
  return o;
}

TestOutcome Executor::noSuchLeaf(const ir::Test &t, uint64_t leaf, const std::string &has) const {
  TestOutcome o = baseOutcome(t);
  o.result = Result::Error;
  o.reason = "no leaf \"" + std::to_string(leaf) + "\": the test has " + has;
  return o;
}

TestOutcome Executor::runTest(const ir::Test &t, bool &intr) {
  const ir::Spec &spec = loaded_.spec();
  TestOutcome o = baseOutcome(t);
  int64_t t0 = monotonicNs();
  size_t n = spec.services.size();
  std::vector<std::string> names;
  for (const ir::Service &s : spec.services)
    names.push_back(s.name);

  std::string error;
  std::vector<RuleSpec> potential = potentialRules(loaded_, t);
  if (!trapSets(n, potential, traps_, error)) {
    o.result = Result::Error;
    o.reason = error;
    o.durationMs = (monotonicNs() - t0) / 1000000;
    return o;
  }

  SupervisorOptions so;
  so.seed = cfg_.seed;
  so.streamFd = cfg_.streamFd;
  so.stopGraceMs = cfg_.stopGraceMs;
  // Every trapped syscall is counted (syscall_summary); only those a rule
  // decided become events.
  so.recordAllowedSyscalls = false;
  o.startWallNs = realtimeNs();
  auto sup = std::make_unique<Supervisor>(so);
  std::string dir = dirOf(spec.path);
  std::vector<ServiceId> order;
  for (size_t i = 0; i < n; ++i)
    order.push_back(sup->addService(serviceSpec(spec, spec.services[i], dir, traps_[i])));
  sup_ = sup.get();
  started_.clear();
  traceStarted_.clear();

  ServiceError se = sup->startAll(order);
  if (!se && !interrupted())
    for (ServiceId id : order)
      if (!sup->running(id)) {
        // No healthcheck to notice it, but it is gone already.
        se.kind = ServiceError::Kind::CrashedAtStart;
        se.service = names[id];
        se.message = sup->exitDescription(id).value_or("exited");
        break;
      }

  bool timedOut = false, failed = false, internal = false, expectFailed = false, halted = false;
  std::string bodyError, returned;
  // Where an EvalError was thrown; for a timeout, where the cancelled body
  // was, down to the builtin it waited in.
  std::vector<std::string> bodyFrames;
  if (interrupted()) {
    intr = true;
  } else if (se) {
    o.result = Result::Error;
    o.reason = se.reason();
  } else {
    // The body allocates on a heap of its own, freed when the test ends:
    // nothing it makes outlives the test (the module's values are frozen,
    // declarations are refused once the spec is built, and outcomes keep
    // strings), so a run of many leaves does not grow with every leaf.
    star::Heap bodyHeap;
    star::Thread th(bodyHeap, loaded_.interpreter().thread);
    std::mutex mu;
    std::condition_variable cv;
    bool done = false;
    body_.reset();
    std::thread worker([&] {
      std::lock_guard turn(body_.lock());
      BodyThreads::Running running(body_, th);
      try {
        th.steps = 0;
        Value result;
        switch (t.kind) {
        case ir::TestKind::Def:
        case ir::TestKind::Scenario:
          result = star::call(th, t.body.value, llvm::ArrayRef<Value>{});
          break;
        case ir::TestKind::TestBuiltin:
          if (t.setup)
            star::call(th, t.setup->value, llvm::ArrayRef<Value>{});
          result = star::call(th, t.body.value, llvm::ArrayRef<Value>{});
          break;
        case ir::TestKind::FaultScenario:
        case ir::TestKind::FaultMatrix: {
          // The assumptions hold for the scenario's duration.
          std::vector<RuleSpec> rules;
          for (const std::string &a : t.faults)
            assumptionRules(spec, a, rules);
          std::optional<uint64_t> scope;
          if (!rules.empty())
            scope = pushRules(th, "fault_scenario", std::move(rules));
          try {
            result = star::call(th, t.body.value, llvm::ArrayRef<Value>{});
          } catch (...) {
            if (scope)
              sup_->removeFaults(*scope);
            throw;
          }
          if (scope)
            sup_->removeFaults(*scope);
          if (t.expect) {
            try {
              checkExpect(th, *t.expect, result ? result : star::none());
            } catch (const star::EvalError &) {
              expectFailed = true;
              throw;
            }
          }
          break;
        }
        }
        if (result && !result.is(star::Kind::None))
          returned = star::repr(result);
      } catch (const HaltSignal &h) {
        halted = true;
        bodyError = h.reason;
      } catch (const star::EvalError &e) {
        failed = true;
        bodyError = e.message();
        bodyFrames = e.frameLines(/*keepBuiltin=*/body_.cancelled());
      } catch (const std::exception &e) {
        internal = true;
        bodyError = std::string("internal error: ") + e.what();
      }
      std::lock_guard lock(mu);
      done = true;
      cv.notify_all();
    });

    int64_t timeout = cfg_.timeoutNs;
    if (!cfg_.timeoutExplicit && t.kind != ir::TestKind::Def && t.kind != ir::TestKind::Scenario &&
        t.timeoutNs)
      timeout = *t.timeoutNs;
    int64_t deadline = monotonicNs() + timeout;
    {
      std::unique_lock lock(mu);
      while (!done) {
        cv.wait_for(lock, std::chrono::milliseconds(20));
        if (done)
          break;
        if (interrupted()) {
          intr = true;
          break;
        }
        if (monotonicNs() >= deadline) {
          timedOut = true;
          break;
        }
      }
    }
    if (!done) {
      // Cancel the body: sleeps and steps return, and every Starlark thread
      // (the body's and its parallel() branches') stops at its next step.
      body_.cancel();
      sleepCv_.notify_all();
    }
    worker.join();
    th.setMaxSteps(UINT64_MAX);
    body_.reset();
    // An interrupt kills the services first, so a body that finished after
    // it saw dead services: its result means nothing.
    if (interrupted())
      intr = true;
    if (timedOut) {
      o.result = Result::Inconclusive;
      o.reason = "test timeout: body did not complete within " + formatGoDuration(timeout);
      o.traceback = std::move(bodyFrames);
    } else if (internal) {
      o.result = Result::Error;
      o.reason = bodyError;
    } else if (halted) {
      o.result = Result::Halted;
      o.reason = bodyError;
    } else if (failed) {
      o.result = Result::Fail;
      o.reason = bodyError;
      o.traceback = std::move(bodyFrames);
      o.expectationViolated = expectFailed;
    } else {
      o.result = Result::Pass;
      o.returnValue = returned;
    }
  }
  // Whatever fault_start() / trace_start() left open ends with the test.
  for (auto *open : {&started_, &traceStarted_}) {
    for (auto &[svc, scopes] : *open)
      endScopes(scopes);
    open->clear();
  }
  sup->stopAll();
  o.events = sup->trace().events();
  o.faults = faultSummaries(o.events, names);
  o.syscallSummary = sup->trace().syscallSummary();
  sup_ = nullptr;
  sup.reset();
  o.durationMs = (monotonicNs() - t0) / 1000000;
  return o;
}

// ------------------------------------------------------------ builtins

Value Executor::callBuiltin(star::Thread &t, std::string_view name, const star::Args &args) {
  if (!sup_)
    t.fail(std::string(name) + "() can only be called inside a test body");
  if (name == "choose")
    return choose(t, args);
  if (name == "nondet") {
    if (!args.positional.empty() || !args.kwargs.empty())
      t.fail("nondet() takes no arguments");
    warnOnce(t, "nondet() is not a planned axis: it returns True (its first option); name the "
                "choice with choose(\"name\", [True, False]) to run both");
    return star::trueValue();
  }
  if (name == "parallel")
    return parallel(t, args);
  if (name == "halt")
    halt(t, args);
  if (name == "fault")
    return fault(t, args);
  if (name == "fault_all")
    return faultAll(t, args);
  if (name == "trace" || name == "trace_start" || name == "trace_stop")
    return traceBuiltin(t, name, args);
  if (name == "fault_start")
    return faultStart(t, args);
  if (name == "fault_stop")
    return faultStop(t, args);
  if (name == "assert_eq")
    return assertEq(t, args);
  if (name == "assert_true")
    return assertTrue(t, args);
  if (name == "sleep")
    return sleep(t, args);
  if (name == "events" || name == "assert_eventually" || name == "assert_never")
    return queryEvents(t, name, args);
  if (name == "assert_before")
    return assertBefore(t, args);
  t.fail(std::string(name) + "() is not supported by fbc run yet");
}

void Executor::rulesFromKwargs(star::Thread &t, const char *who, ServiceId target,
                               const star::Args &args, std::vector<RuleSpec> &out) {
  const ir::Service &svc = loaded_.spec().services[target];
  for (const star::Kwarg &k : args.kwargs) {
    std::string key(k.name->view());
    if (key == "run")
      continue;
    const ir::Op *op = svc.findOp(key);
    if (!op && !ir::isSyscallKeyword(key)) {
      std::string msg = std::string(who) + "() unknown keyword " + ir::quote(key) +
                        " for service " + ir::quote(svc.name) +
                        ". Valid syscalls: " + syscallKeywordList();
      if (!svc.ops.empty()) {
        msg += ". Named operations on " + svc.name + ":";
        for (size_t i = 0; i < svc.ops.size(); ++i)
          msg += (i ? ", " : " ") + svc.ops[i].name;
      }
      t.fail(msg);
    }
    auto *fv = valueAs<ir::builtins::FaultValue>(k.value);
    if (!fv)
      t.fail(std::string(who) + "() " + key + "= must be a fault (delay/deny/allow), got " +
             std::string(star::typeName(k.value)) + ". Example: " + key +
             "=deny(\"ECONNREFUSED\")");
    keywordRules(target, svc, key, fv->data, out);
  }
}

uint64_t Executor::pushRules(star::Thread &t, const char *who, std::vector<RuleSpec> rules) {
  const ir::Spec &spec = loaded_.spec();
  for (const RuleSpec &r : rules) {
    std::vector<int> nrs;
    std::string error;
    if (!expandSyscallFamily(r.syscall, nrs, error))
      t.fail(std::string(who) + "(): " + error);
    const std::vector<int> &trapped = traps_.at(r.target);
    for (int nr : nrs) {
      if (std::binary_search(trapped.begin(), trapped.end(), nr))
        continue;
      std::string list;
      for (int x : trapped) {
        list += list.empty() ? "" : ", ";
        list += syscallName(x);
      }
      const std::string &svc = spec.services[r.target].name;
      bool tracing = r.action.kind == ActionKind::Trace;
      t.fail(std::string(who) + "(): service " + ir::quote(svc) + " is not intercepting " +
             std::string(syscallName(nr)) + ", so this " +
             (tracing ? "trace could not see it" : "fault could not fire") +
             " (intercepting: " + (list.empty() ? "nothing" : list) +
             "). fbc decides what to intercept from the spec before the test starts, and it "
             "could not see this rule: name the service and the syscall in the " +
             who + "() call itself, e.g. " +
             (tracing ? std::string(who) + "(" + svc + ", syscalls=[\"" + r.syscall + "\"], ...)"
                      : "fault(" + svc + ", " + r.syscall + "=deny(...), run=...)"));
    }
  }
  // Exhaustive probability rules: the leaf pins occurrence k to bit k of
  // its site's digit; past max_fires (or off the plan) the seeded stream.
  for (RuleSpec &r : rules) {
    if (!r.leafBits)
      continue;
    std::string key = !r.siteKey.empty() ? r.siteKey
                      : !r.label.empty() ? r.label
                                         : spec.services[r.target].name + ":" + r.syscall;
    uint64_t size = r.leafBits < 64 ? uint64_t(1) << r.leafBits : 0;
    std::optional<uint64_t> digit = leafDigit(ir::AxisKind::Probability, key, ir::Loc{}, size);
    if (!digit) {
      warnOnce(t, std::string(who) + "(): probability site " + ir::quote(key) +
                      " is not a planned axis of this test: its max_fires=" +
                      std::to_string(r.leafBits) +
                      " occurrences are drawn from the seeded "
                      "stream instead of fanning out");
      continue;
    }
    std::vector<bool> vec = ir::probabilityVector(*digit, int64_t(r.leafBits));
    r.decisionOverride = [vec](uint64_t k) -> std::optional<bool> {
      if (k < vec.size())
        return bool(vec[k]);
      return std::nullopt;
    };
  }
  std::string error;
  std::optional<ScopeId> scope = sup_->applyFaults(std::move(rules), error);
  if (!scope)
    t.fail(std::string(who) + "(): " + error);
  return *scope;
}

Value Executor::fault(star::Thread &t, const star::Args &args) {
  if (args.positional.empty())
    t.fail("fault() requires a service or interface argument");
  if (args.positional.size() > 1)
    t.fail("fault() takes one positional argument (the target), got " +
           std::to_string(args.positional.size()));
  Value target = args.positional[0];
  Value run = kwarg(args, "run");
  std::vector<RuleSpec> rules;
  if (auto *svc = valueAs<ServiceValue>(target)) {
    std::optional<ServiceId> id = sup_->findService(svc->data.name);
    if (!id)
      t.fail("fault(): service " + ir::quote(svc->data.name) + " is not running");
    rulesFromKwargs(t, "fault", *id, args, rules);
  } else if (auto *a = valueAs<AssumptionValue>(target)) {
    for (const star::Kwarg &k : args.kwargs)
      if (k.name->view() != "run")
        t.fail("fault(" + a->data.name + ", ...): a fault_assumption carries its own rules; got " +
               std::string(k.name->view()) + "=");
    assumptionRules(loaded_.spec(), a->data.name, rules);
  } else if (valueAs<InterfaceRefValue>(target)) {
    t.fail("fault(" + star::repr(target) +
           ", ...): protocol-level faults on an interface are not supported by fbc run yet");
  } else {
    t.fail("fault() first arg must be a service, interface_ref, or fault_assumption, got " +
           std::string(star::typeName(target)));
  }
  return runWithRules(t, "fault", std::move(rules), run);
}

// Puts `rules` in force while run() runs: one scope, removed also when run
// fails.
Value Executor::runWithRules(star::Thread &t, const char *who, std::vector<RuleSpec> rules,
                             Value run) {
  if (!run)
    t.fail(std::string(who) + "() requires run= keyword with a callback function");
  if (!run.isObject() || !run.obj()->callable())
    t.fail(std::string(who) + "() run= must be a callable");
  uint64_t scope = pushRules(t, who, std::move(rules));
  Value result;
  try {
    result = star::call(t, run, llvm::ArrayRef<Value>{});
  } catch (...) {
    sup_->removeFaults(scope);
    throw;
  }
  sup_->removeFaults(scope);
  return result ? result : star::none();
}

// fault_all([svc, ...], **rules, run=fn): fault() with the same rules on
// every listed service, in one scope.
Value Executor::faultAll(star::Thread &t, const star::Args &args) {
  if (args.positional.size() != 1)
    t.fail("fault_all() takes one positional argument (a list of services)");
  Value list = args.positional[0];
  llvm::ArrayRef<Value> elems;
  if (auto *l = list.as<star::List>())
    elems = l->elems;
  else if (auto *tu = list.as<star::Tuple>())
    elems = tu->elems();
  else
    t.fail("fault_all() first arg must be a list of services, got " +
           std::string(star::typeName(list)));
  if (elems.empty())
    t.fail("fault_all() requires at least one service in the list");
  std::vector<RuleSpec> rules;
  for (size_t i = 0; i < elems.size(); ++i) {
    auto *svc = valueAs<ServiceValue>(elems[i]);
    if (!svc)
      t.fail("fault_all() list element " + std::to_string(i) + " must be a service, got " +
             std::string(star::typeName(elems[i])));
    std::optional<ServiceId> id = sup_->findService(svc->data.name);
    if (!id)
      t.fail("fault_all(): service " + ir::quote(svc->data.name) + " is not running");
    rulesFromKwargs(t, "fault_all", *id, args, rules);
  }
  return runWithRules(t, "fault_all", std::move(rules), kwarg(args, "run"));
}

Value Executor::faultStart(star::Thread &t, const star::Args &args) {
  if (args.positional.size() != 1)
    t.fail("fault_start() takes one positional argument (the service)");
  auto *svc = valueAs<ServiceValue>(args.positional[0]);
  if (!svc)
    t.fail("fault_start() first arg must be a service, got " +
           std::string(star::typeName(args.positional[0])));
  std::optional<ServiceId> id = sup_->findService(svc->data.name);
  if (!id)
    t.fail("fault_start(): service " + ir::quote(svc->data.name) + " is not running");
  std::vector<RuleSpec> rules;
  rulesFromKwargs(t, "fault_start", *id, args, rules);
  started_[*id].push_back(pushRules(t, "fault_start", std::move(rules)));
  return star::none();
}

Value Executor::faultStop(star::Thread &t, const star::Args &args) {
  if (args.positional.size() != 1 || !args.kwargs.empty())
    t.fail("fault_stop() takes one argument (the service)");
  auto *svc = valueAs<ServiceValue>(args.positional[0]);
  if (!svc)
    t.fail("fault_stop() first arg must be a service, got " +
           std::string(star::typeName(args.positional[0])));
  std::optional<ServiceId> id = sup_->findService(svc->data.name);
  if (id)
    endScopes(started_[*id]);
  return star::none();
}

void Executor::endScopes(std::vector<uint64_t> &scopes) {
  for (auto it = scopes.rbegin(); it != scopes.rend(); ++it)
    sup_->removeFaults(*it);
  scopes.clear();
}

Value Executor::assertEq(star::Thread &t, const star::Args &args) {
  if (args.positional.size() < 2)
    t.fail("assert_eq() requires two arguments");
  Value msg = args.positional.size() > 2 ? args.positional[2] : kwarg(args, "msg");
  if (!star::equals(t, args.positional[0], args.positional[1])) {
    std::string m = "assert_eq failed: " + star::repr(args.positional[0]) +
                    " != " + star::repr(args.positional[1]);
    if (msg)
      m += " (" + star::str(msg) + ")";
    t.fail(m);
  }
  return star::none();
}

Value Executor::assertTrue(star::Thread &t, const star::Args &args) {
  if (args.positional.empty())
    t.fail("assert_true() requires a condition");
  Value msg = args.positional.size() > 1 ? args.positional[1] : kwarg(args, "msg");
  if (!star::truth(args.positional[0]))
    t.fail(msg ? star::str(msg) : "assertion failed");
  return star::none();
}

// halt([reason]): ends the body without a verdict.
void Executor::halt(star::Thread &t, const star::Args &args) {
  if (args.positional.size() > 1 || !args.kwargs.empty())
    t.fail("halt() takes at most one argument (a reason)");
  if (args.positional.empty())
    throw HaltSignal("halt()");
  Value r = args.positional[0];
  auto *s = r.as<star::String>();
  throw HaltSignal("halt: " + (s ? std::string(s->view()) : star::str(r)));
}

Value Executor::sleep(star::Thread &t, const star::Args &args) {
  if (args.positional.size() != 1)
    t.fail("sleep() takes one argument (a duration such as \"500ms\", or nanoseconds)");
  Value d = args.positional[0];
  int64_t ns = 0;
  if (auto *s = d.as<star::String>()) {
    std::string error;
    std::optional<int64_t> v = ir::parseDuration(s->view(), error);
    if (!v)
      t.fail("sleep(): bad duration " + ir::quote(s->view()) + ": " + error);
    ns = *v;
  } else if (d.isSmallInt()) {
    ns = d.smallInt();
  } else {
    t.fail("sleep(): want a duration string or nanoseconds, got " + std::string(star::typeName(d)));
  }
  int64_t deadline = monotonicNs() + std::max<int64_t>(ns, 0);
  {
    InterpreterLock::Released sleeping(body_.lock());
    std::unique_lock lock(sleepMu_);
    while (!cancelled()) {
      int64_t left = deadline - monotonicNs();
      if (left <= 0)
        return star::none();
      sleepCv_.wait_for(lock, std::chrono::nanoseconds(std::min<int64_t>(left, 50000000)));
    }
  }
  t.fail("sleep(): cancelled");
}

// ---------------------------------------------------------------- steps

Value Executor::callStep(star::Thread &t, Value receiver, std::string_view method,
                         const star::Args &args) {
  if (!sup_)
    t.fail(std::string(method) + "() can only be called inside a test body");
  const ir::Spec &spec = loaded_.spec();
  std::string svcName;
  ir::Interface iface;
  if (auto *sv = valueAs<ServiceValue>(receiver)) {
    svcName = sv->data.name;
    const ir::Service *s = spec.findService(svcName);
    const ir::Interface *def = s ? defaultInterface(*s) : nullptr;
    if (!def)
      t.fail("service " + ir::quote(svcName) + " has multiple interfaces, specify which one");
    iface = *def;
  } else if (auto *ref = valueAs<InterfaceRefValue>(receiver)) {
    svcName = ref->service;
    iface = ref->iface;
  } else {
    t.fail(std::string(method) + "(): not a service step");
  }
  std::optional<ServiceId> id = sup_->findService(svcName);
  if (!id)
    t.fail("service " + ir::quote(svcName) + " is not running");
  std::string what = svcName + "." + iface.name + "." + std::string(method);
  auto cancelledFn = [this] { return cancelled(); };
  uint16_t port = static_cast<uint16_t>(iface.port);

  if (method == "send") {
    std::string data;
    bool have = false;
    if (!args.positional.empty()) {
      data = strArg(t, args.positional[0], what + "(): data");
      have = true;
    }
    for (const star::Kwarg &k : args.kwargs) {
      if (k.name->view() != "data")
        t.fail(what + "(): unexpected keyword " + ir::quote(k.name->view()));
      data = strArg(t, k.value, what + "(): data");
      have = true;
    }
    if (!have)
      t.fail("tcp.send requires 'data' argument");
    sup_->trace().stepSend(*id, {{"method", "send"},
                                 {"interface", iface.name},
                                 {"protocol", iface.protocol},
                                 {"data", truncate(data, 200)}});
    TcpStepResult r;
    {
      InterpreterLock::Released waiting(body_.lock());
      r = tcpStep("127.0.0.1", port, data, cancelledFn);
    }
    std::vector<std::pair<std::string, std::string>> f{
        {"method", "send"},
        {"duration_ms", std::to_string(r.durationMs)},
        {"success", r.ok ? "true" : "false"}};
    if (r.ok)
      f.emplace_back("reply", truncate(r.reply, 200));
    else
      f.emplace_back("error", truncate(r.error, 200));
    sup_->trace().stepRecv(*id, std::move(f));
    if (!r.ok)
      t.fail("tcp send failed: " + r.error);
    return star::makeString(t.heap, r.reply);
  }

  HttpStepRequest req;
  req.method = upper(std::string(method));
  std::string path = "/";
  if (args.positional.size() > 1)
    t.fail(what + "(): takes at most one positional argument (path)");
  if (!args.positional.empty())
    path = strArg(t, args.positional[0], what + "(): path");
  for (const star::Kwarg &k : args.kwargs) {
    std::string_view key = k.name->view();
    if (key == "path") {
      path = strArg(t, k.value, what + "(): path");
    } else if (key == "body") {
      if (auto *s = k.value.as<star::String>())
        req.body = std::string(s->view());
      else if (!k.value.is(star::Kind::None))
        req.body = star::encodeJson(t, k.value);
      req.hasBody = !k.value.is(star::Kind::None);
    } else if (key == "headers") {
      auto *d = k.value.as<star::Dict>();
      if (!d)
        t.fail(what + "(): headers must be a dict, got " + std::string(star::typeName(k.value)));
      for (const auto &e : d->table.entries())
        if (e.value)
          req.headers.emplace_back(star::str(e.key), star::str(e.value));
    } else {
      t.fail(what + "(): unexpected keyword " + ir::quote(key) + " (want path=, body=, headers=)");
    }
  }
  if (path.empty() || path.front() != '/')
    path.insert(path.begin(), '/');
  req.url = "http://127.0.0.1:" + std::to_string(port) + path;
  std::vector<std::pair<std::string, std::string>> sf{{"method", std::string(method)},
                                                      {"interface", iface.name},
                                                      {"protocol", iface.protocol},
                                                      {"path", path}};
  if (req.hasBody)
    sf.emplace_back("body", truncate(req.body, 200));
  sup_->trace().stepSend(*id, std::move(sf));
  HttpStepResponse r;
  {
    InterpreterLock::Released waiting(body_.lock());
    r = httpStep(req, cancelledFn);
  }
  std::vector<std::pair<std::string, std::string>> f{{"method", std::string(method)}};
  if (r.status)
    f.emplace_back("status_code", std::to_string(r.status));
  f.emplace_back("duration_ms", std::to_string(r.durationMs));
  f.emplace_back("success", r.ok ? "true" : "false");
  if (!r.ok)
    f.emplace_back("error", truncate(r.error, 200));
  if (r.status && (r.status < 200 || r.status > 299))
    f.emplace_back("body", truncate(r.body, 2048));
  sup_->trace().stepRecv(*id, std::move(f));
  if (cancelled())
    t.fail(what + "(): cancelled");
  return Value::object(t.heap.make<ResponseValue>(std::move(r)));
}

// --------------------------------------------------------- expectations

Value Executor::callExpect(star::Thread &t, const ir::Expect &e, const star::Args &args) {
  if (args.positional.size() != 1 || !args.kwargs.empty())
    t.fail(e.display() + ": takes one argument (the scenario's result)");
  checkExpect(t, e, args.positional[0]);
  return star::none();
}

void Executor::checkExpect(star::Thread &t, const ir::Expect &e, Value result) {
  bool none = result.is(star::Kind::None);
  auto intField = [&](std::string_view name) -> std::optional<int64_t> {
    Value v = none ? Value() : resultField(t, result, name);
    if (v && v.isSmallInt())
      return v.smallInt();
    return std::nullopt;
  };
  auto status = [&] {
    std::optional<int64_t> s = intField("status");
    return s ? s : intField("status_code");
  };
  auto errorText = [&]() -> std::string {
    if (none)
      return "";
    if (ResponseValue *r = asResponse(result))
      return r->resp.ok ? "" : (r->resp.error.empty() ? "request failed" : r->resp.error);
    Value v = resultField(t, result, "error");
    auto *s = v ? v.as<star::String>() : nullptr;
    return s ? std::string(s->view()) : "";
  };
  switch (e.kind) {
  case ir::ExpectKind::Function:
    star::call(t, e.fn.value, llvm::ArrayRef<Value>{result});
    return;
  case ir::ExpectKind::Success: {
    if (none)
      t.fail("expect_success: scenario returned None (did it complete?)");
    if (std::string err = errorText(); !err.empty())
      t.fail("expect_success: request failed: " + err);
    if (std::optional<int64_t> s = status(); s && *s >= 500)
      t.fail("expect_success: status=" + std::to_string(*s) + " (want < 500)");
    return;
  }
  case ir::ExpectKind::ErrorWithin: {
    std::string head = "expect_error_within(ms=" + std::to_string(e.withinMs) + "): ";
    if (none)
      t.fail(head + "scenario didn't return (hang? use expect_hang instead)");
    std::optional<int64_t> s = status();
    bool errored = (s && *s >= 500) || !errorText().empty();
    if (!errored)
      t.fail(head + "scenario returned success (status=" + std::to_string(s.value_or(0)) +
             ") — expected an error");
    if (std::optional<int64_t> d = intField("duration_ms"); d && *d > e.withinMs)
      t.fail(head + "took " + std::to_string(*d) + "ms — exceeded budget");
    return;
  }
  case ir::ExpectKind::Hang:
    if (!none)
      t.fail("expect_hang: scenario returned " + star::repr(result) + " — expected no return");
    return;
  }
}

} // namespace fbc::rt
