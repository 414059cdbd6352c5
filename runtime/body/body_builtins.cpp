// The body-time builtin table (name -> Executor member; every name the
// spec binds as body-time, plus choose) and the builtins that need no
// services: choose(), nondet(), parallel() and wait_*(), sleep(), halt(), assert_eq(),
// assert_true(). Fault, trace, event and step builtins have files of
// their own.
#include "runtime/driver/executor.h"

#include "frontend/eval/thread.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/printer.h"
#include "ir/builtins/binder.h"
#include "ir/builtins/values.h"
#include "ir/duration.h"
#include "ir/fanout_sites.h"
#include "ir/quote.h"
#include "runtime/body/builtin_args.h"
#include "runtime/explore/hold_window.h"
#include "runtime/supervisor/supervisor.h"

#include <algorithm>
#include <chrono>

namespace fbc::rt {

using star::Value;

namespace {

// interleavings=`p` at a site the plan could not read: checked as the
// plan checks a literal (ir/fanout_sites.h).
ir::ParallelPolicy parallelPolicyArg(star::Thread &t, Value p, std::string_view fn) {
  std::string error;
  std::optional<ir::ParallelPolicy> checked;
  if (p.isSmallInt())
    checked = ir::parallelPolicyOf(p.smallInt(), error, fn);
  else if (p.isInt())
    error = ir::parallelPolicyCountError(star::repr(p), fn); // a big int: never valid
  else if (auto *s = p.as<star::String>())
    checked = ir::parallelPolicyOf(s->view(), error, fn);
  else
    error = ir::parallelPolicyTypeError(star::typeName(p), fn);
  if (!checked)
    failBadArgument(t, error);
  return *checked;
}

// wait_n's n: an int from 1 to the number of branches.
size_t waitCountArg(star::Thread &t, Value n, size_t branches) {
  if (!n.isInt())
    failBadArgument(t, ir::waitCountTypeError(star::typeName(n)));
  int64_t v = n.isSmallInt() ? n.smallInt() : INT64_MAX;
  if (v < 1 || v > int64_t(branches))
    failBadArgument(t, ir::waitCountRangeError(v, branches));
  return size_t(v);
}

// "<file>:<line>" of a call (its column dropped), as the plan names a site.
std::string siteOf(const ir::Loc &loc) {
  std::string site = loc.str();
  if (size_t c = site.rfind(':'); c != std::string::npos)
    site.resize(c);
  return site;
}

} // namespace

llvm::ArrayRef<Executor::Builtin> Executor::builtinTable() {
  // Sorted by name (checked by tests/unit/runtime/builtin_table_test.cpp
  // against the names the spec binds as body-time).
  static constexpr Builtin kTable[] = {
      {"always", &Executor::temporalBuiltin},
      {"assert_before", &Executor::assertBefore},
      {"assert_eq", &Executor::assertEq},
      {"assert_eventually", &Executor::queryEvents},
      {"assert_never", &Executor::queryEvents},
      {"assert_true", &Executor::assertTrue},
      {"await_event", &Executor::temporalBuiltin},
      {"await_stable", &Executor::temporalBuiltin},
      {"bandwidth", &Executor::gatewayBuiltin},
      {"choose", &Executor::choose},
      {"events", &Executor::queryEvents},
      {"eventually", &Executor::temporalBuiltin},
      {"fault", &Executor::fault},
      {"fault_all", &Executor::faultAll},
      {"fault_start", &Executor::faultStart},
      {"fault_stop", &Executor::faultStop},
      {"halt", &Executor::halt},
      {"monitor", &Executor::temporalBuiltin},
      {"mtu", &Executor::gatewayBuiltin},
      {"nondet", &Executor::nondet},
      {"parallel", &Executor::parallel},
      {"partition", &Executor::gatewayBuiltin},
      {"partition_start", &Executor::gatewayBuiltin},
      {"partition_stop", &Executor::gatewayBuiltin},
      {"sleep", &Executor::sleep},
      {"trace", &Executor::traceBuiltin},
      {"trace_start", &Executor::traceBuiltin},
      {"trace_stop", &Executor::traceBuiltin},
      {"wait_all", &Executor::parallel},
      {"wait_first", &Executor::parallel},
      {"wait_n", &Executor::parallel},
      {"watch", &Executor::gatewayBuiltin},
      {"watch_start", &Executor::gatewayBuiltin},
      {"watch_stop", &Executor::gatewayBuiltin},
  };
  return kTable;
}

Value Executor::callBuiltin(star::Thread &t, std::string_view name, const star::Args &args) {
  if (!sup_)
    t.fail(std::string(name) + "() can only be called inside a test body");
  llvm::ArrayRef<Builtin> table = builtinTable();
  auto it = std::lower_bound(table.begin(), table.end(), name,
                             [](const Builtin &b, std::string_view n) { return b.name < n; });
  if (it == table.end() || it->name != name)
    t.fail(std::string(name) + "() is not supported by fbc run yet");
  return (this->*(it->fn))(t, name, args);
}

// nondet(): not an axis; True, with a warning. nondet(svc, ...): the
// services fbc run --explore holds none of the calls of. The plan reads the
// call (passes/trap_scan.h: a global naming a service) and the leaf
// program's holds lines leave them out; the run only checks the arguments,
// and warns when a named service is held all the same (a computed
// argument, which the plan could not read).
Value Executor::nondet(star::Thread &t, std::string_view, const star::Args &args) {
  if (!args.kwargs.empty())
    failUnknownKeyword(t, "nondet(): keyword arguments are not accepted");
  if (args.positional.empty()) {
    warnOnce(t, "nondet() is not a planned axis: it returns True (its first option); name the "
                "choice with choose(\"name\", [True, False]) to run both");
    return star::trueValue();
  }
  for (size_t i = 0; i < args.positional.size(); ++i) {
    auto *svc = ir::builtins::valueAs<ir::builtins::ServiceValue>(args.positional[i]);
    if (!svc)
      failBadArgument(t, "nondet(): argument " + std::to_string(i + 1) + " is not a service (got " +
                             std::string(star::typeName(args.positional[i])) + ")");
    std::optional<ServiceId> id = sup_->findService(svc->data.name);
    if (exploring_ && id && *id < exploring_->holds.size() && !exploring_->holds[*id].empty())
      warnOnce(t, "nondet(" + svc->data.name +
                      "): fbc reads nondet()'s services before the run, from globals naming "
                      "them; this one it could not read, so its calls are held");
  }
  return star::none();
}

// choose("name", options) / choose(options), after chooseFn checked the
// arguments: the leaf's option of a planned axis, else the first option.
Value Executor::choose(star::Thread &t, std::string_view, const star::Args &args) {
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
  std::optional<uint64_t> d = leafDigitAt(ir::AxisKind::Choose, callerLoc(t), n);
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
// wait_all(...), wait_n(n, ...), wait_first(...) are the same call that
// returns once all / n / the first of the branches have finished: the
// others are cancelled; in a launch order, the first n run and the rest
// do not start. wait_n's list holds the n results in argument order;
// wait_first returns its one result.
//
// A planned site's policy and size are the leaf program's (the plan
// checked its literal interleavings= there): the call looks its axis up by
// call site and parses nothing. Only a site the plan could not read (a
// computed policy, a call in a helper) checks the value it is given, with
// the same policy code and messages (ir/fanout_sites.h).
Value Executor::parallel(star::Thread &t, std::string_view name, const star::Args &args) {
  ir::FanOut fan = ir::fanOutOf(name).value_or(ir::FanOut::Parallel);
  std::string fn(name);
  ir::Loc loc = callerLoc(t);
  int axis = leafTest_ ? leafTest_->findAxis(ir::AxisKind::Interleaving, loc) : -1;
  const ir::LeafAxis *planned =
      axis >= 0 && leafTest_->axes[size_t(axis)].known ? &leafTest_->axes[size_t(axis)] : nullptr;
  std::optional<ir::ParallelPolicy> policy; // nullopt: the program's
  if (!planned) {
    Value p = kwarg(args, "interleavings");
    policy = p ? parallelPolicyArg(t, p, fn) : ir::ParallelPolicy{};
  }
  // Both read below (kwarg): the binding checks no other is given.
  ir::builtins::bindKeywords(
      ir::builtins::BindCall(
          t, args,
          ir::builtins::Wording::own(fn,
                                     [](std::string_view fn, std::string_view k) {
                                       return ir::parallelUnknownKeyword(k, fn);
                                     })),
      {{"interleavings"}, {"preemptions"}}, [](size_t, const ir::builtins::Arg &) {});
  size_t first = fan == ir::FanOut::WaitN ? 1 : 0; // wait_n's n comes first
  size_t b = args.positional.size() > first ? args.positional.size() - first : 0;
  if (b < 2)
    failBadArgument(t, ir::parallelTooFewBranches(fn));
  size_t wanted = fan == ir::FanOut::WaitFirst ? 1 : b;
  if (fan == ir::FanOut::WaitN)
    wanted = waitCountArg(t, args.positional[0], b);
  bool dpor = policy && policy->kind == ir::ParallelPolicy::Kind::Dpor;
  if (Value n = kwarg(args, "preemptions")) {
    // The plan read a literal bound into the leaf program; checked here
    // as it checks one.
    if (!dpor)
      failBadArgument(t, ir::parallelPreemptionsWithoutDpor(fn));
    if (!n.isInt())
      failBadArgument(t, ir::parallelPreemptionsTypeError(star::typeName(n), fn));
    if (!n.isSmallInt() || n.smallInt() < 0 || n.smallInt() > ir::kMaxPreemptions)
      failBadArgument(t, ir::parallelPreemptionsError(n.isSmallInt() ? n.smallInt() : -1, fn));
  }
  for (size_t i = first; i < args.positional.size(); ++i) {
    Value f = args.positional[i];
    if (!f.isObject() || !f.obj()->callable())
      failBadArgument(t, ir::parallelNotCallable(i + 1, star::typeName(f), fn));
  }
  std::optional<std::vector<uint32_t>> order;
  if (!dpor && (planned || policy->kind != ir::ParallelPolicy::Kind::Single)) {
    uint64_t size = planned ? planned->size : policy->size(uint32_t(b)).value_or(UINT64_MAX);
    if (std::optional<uint64_t> d = leafDigit(axis, size))
      order = ir::launchOrder(*d < size ? *d : 0, uint32_t(b));
    else
      warnOnce(t, fn + "() site " + ir::quote(siteOf(loc)) +
                      " is not a planned axis of this test: its branches run once, concurrently");
  }
  llvm::ArrayRef<Value> fns(args.positional.data() + first, b);
  std::vector<BranchResult> results;
  std::vector<uint32_t> finished;
  if (order) {
    results = body_.runInOrder(t, fns, *order, wanted);
    finished = *order;
  } else if (std::unique_ptr<explore::HoldWindow> window = openHoldWindow(b)) {
    // fbc run --explore: the services' calls are held while the branches
    // run and released in the leaf's order; the window closes once they
    // have returned and nothing is held.
    BodyThreads::BranchWatch watch{[&](pid_t tid) { window->branchStarted(tid); },
                                   [&](pid_t tid) { window->branchEnded(tid); }};
    results = body_.runConcurrently(t, fns, &watch, wanted, &finished);
    InterpreterLock::Released waiting(body_.lock());
    window.reset();
  } else {
    if (dpor)
      warnOnce(t, fn + "(interleavings=\"dpor\") site " + ir::quote(siteOf(loc)) +
                      " is not explored in this leaf (a site fbc plan does not see, or a test "
                      "that also fans out on another axis): its branches run once, "
                      "concurrently");
    results = body_.runConcurrently(t, fns, nullptr, wanted, &finished);
  }
  // The branches waited for, in argument order; the first failing one (by
  // argument index) fails the call.
  finished.resize(std::min(finished.size(), wanted));
  std::sort(finished.begin(), finished.end());
  std::vector<Value> values;
  for (uint32_t i : finished) {
    const BranchResult &r = results[i];
    if (r.exception)
      std::rethrow_exception(r.exception);
    if (r.failed) {
      // The branch's frames continue the caller's (see runBranch()), so
      // its traceback runs from the test through parallel() to the raise.
      star::EvalError e(fn + "() callable " + std::to_string(i) + " failed: " + r.error);
      e.frames = r.frames;
      e.code = r.code;
      throw e;
    }
    values.push_back(r.value);
  }
  if (fan == ir::FanOut::WaitFirst)
    return values.front();
  return Value::object(t.heap.make<star::List>(std::move(values)));
}

Value Executor::assertEq(star::Thread &t, std::string_view, const star::Args &args) {
  if (args.positional.size() < 2)
    failBadArgument(t, "assert_eq() requires two arguments");
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

Value Executor::assertTrue(star::Thread &t, std::string_view, const star::Args &args) {
  if (args.positional.empty())
    failBadArgument(t, "assert_true() requires a condition");
  Value msg = args.positional.size() > 1 ? args.positional[1] : kwarg(args, "msg");
  if (!star::truth(args.positional[0]))
    t.fail(msg ? star::str(msg) : "assertion failed");
  return star::none();
}

// halt([reason]): ends the body without a verdict.
Value Executor::halt(star::Thread &t, std::string_view, const star::Args &args) {
  if (!args.kwargs.empty())
    failUnknownKeyword(t, "halt() takes at most one argument (a reason)");
  if (args.positional.size() > 1)
    failBadArgument(t, "halt() takes at most one argument (a reason)");
  if (args.positional.empty())
    throw HaltSignal("halt()");
  Value r = args.positional[0];
  auto *s = r.as<star::String>();
  throw HaltSignal("halt: " + (s ? std::string(s->view()) : star::str(r)));
}

Value Executor::sleep(star::Thread &t, std::string_view, const star::Args &args) {
  if (args.positional.size() != 1)
    failBadArgument(t, "sleep() takes one argument (a duration such as \"500ms\", or nanoseconds)");
  Value d = args.positional[0];
  int64_t ns = 0;
  if (auto *s = d.as<star::String>()) {
    std::string error;
    std::optional<int64_t> v = ir::parseDuration(s->view(), error);
    if (!v)
      failBadDuration(t, "sleep(): bad duration " + ir::quote(s->view()) + ": " + error);
    ns = *v;
  } else if (d.isSmallInt()) {
    ns = d.smallInt();
  } else {
    failBadArgument(t, "sleep(): want a duration string or nanoseconds, got " +
                           std::string(star::typeName(d)));
  }
  int64_t deadline = deadlineAfter(std::max<int64_t>(ns, 0));
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

} // namespace fbc::rt
