// The binder of the spec and body builtins (ir/builtins/binder.h), through
// builtins of its own run by a Starlark program: the order arguments are
// read in, each mistake's message and code in each wording, the catch-all
// and Go's bindArgs as bindSlots. The builtins' own messages are the
// goldens' (tests/golden/ir_errors).
#include "frontend/eval/interpreter.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/printer.h"
#include "ir/builtins/binder.h"
#include "ir/protocols.h"

#include <gtest/gtest.h>

#include <string>

namespace fbc::ir::builtins {
namespace {

using star::Value;

// What a test builtin read, in order: "name=repr" each.
struct Seen {
  std::string log;
};

void readLog(Seen &s, const Arg &a) {
  // appended, not "literal" + string: GCC 12 -Wrestrict false positive
  if (!s.log.empty())
    s.log.append(" ");
  s.log.append(a.name).append("=").append(star::repr(a.value));
  // A reader's own check fails as the argument is read: `bad` values.
  if (auto *str = a.value.as<star::String>(); str && str->view() == "bad")
    a.call.fail(a.expr, "p: " + std::string(a.name) + " is bad", DiagCode::BadArgument);
}

constexpr Param<Seen> kParams[] = {
    {"first", readLog, Required | Positional, "p() requires first"},
    {"second", readLog, Positional},
    {"timeout", readLog},
    {"count", readLog, Required},
};

Seen *seen = nullptr;
Wording wording;

Value boundFn(star::Thread &t, Value, const star::Args &args) {
  bind(BindCall(t, args, wording), kParams, *seen);
  return star::none();
}

constexpr Param<Seen> kWithOthers[] = {
    {"label", readLog},
    {kOtherKeywords, readLog},
};

Value othersFn(star::Thread &t, Value, const star::Args &args) {
  bindKeywords(BindCall(t, args, wording), kWithOthers, *seen);
  return star::none();
}

Value slotsFn(star::Thread &t, Value, const star::Args &args) {
  Value a, b;
  bindSlots(BindCall(t, args, {"slots", UnknownForm::Go}), {"key", "default?"}, {&a, &b});
  seen->log = star::repr(a) + " " + (b ? star::repr(b) : "unset");
  return star::none();
}

// A step's arguments from its keywords in ir/protocols.h: memcached's set
// (key, value, ttl="0"), in the Step wording the plan's body check shares.
Value stepFn(star::Thread &t, Value, const star::Args &args) {
  const StepMethod *set = findStepMethod("memcached", "set");
  std::vector<Value> given = bindStep(t, "cache.main.set", *set, args, 2);
  seen->log.clear();
  for (Value v : given)
    seen->log.append(seen->log.empty() ? "" : " ").append(v ? star::repr(v) : "unset");
  return star::none();
}

class BinderTest : public ::testing::Test {
protected:
  void SetUp() override {
    seen = &seen_;
    wording = Wording{"p()"};
  }

  // The program's error as "CODE: message" ("" when it ran), and what the
  // builtins read in seen_.log.
  std::string run(const std::string &program) {
    seen_.log.clear();
    star::Interpreter in(sources_);
    in.predeclared["p"] = Value::object(&bound_);
    in.predeclared["o"] = Value::object(&others_);
    in.predeclared["s"] = Value::object(&slots_);
    in.predeclared["st"] = Value::object(&step_);
    frontend::DiagnosticList diags;
    auto *file = sources_.add(std::to_string(files_++) + ".star", program + "\n");
    star::Interpreter::Result r = in.execFile(*file, diags);
    if (r.staticErrors)
      return "static: " + diags.all().front().message;
    if (!r.error)
      return "";
    return r.error->code + ": " + r.error->message();
  }

  frontend::SourceManager sources_;
  star::Builtin bound_{"p", boundFn}, others_{"o", othersFn}, slots_{"s", slotsFn},
      step_{"st", stepFn};
  Seen seen_;
  int files_ = 0;
};

TEST_F(BinderTest, ReadsArgumentsInTheOrderWritten) {
  EXPECT_EQ(run("p(1, count = 3, timeout = '2s')"), "");
  EXPECT_EQ(seen_.log, "first=1 count=3 timeout=\"2s\"");
  EXPECT_EQ(run("p(count = 3, second = 2, first = 1)"), "");
  EXPECT_EQ(seen_.log, "count=3 second=2 first=1");
}

TEST_F(BinderTest, TheFirstMistakeInTheCallIsReported) {
  // A reader's check on an earlier keyword comes before a later unknown
  // keyword and before a missing parameter, as a loop over the keywords.
  EXPECT_EQ(run("p(1, timeout = 'bad', cuont = 3)"), "BAD_ARGUMENT: p: timeout is bad");
  EXPECT_EQ(seen_.log, "first=1 timeout=\"bad\"");
  EXPECT_EQ(run("p(1, cuont = 3, timeout = 'bad')"),
            "UNKNOWN_KEYWORD: p(): unknown keyword argument \"cuont\"; valid: first, second, "
            "timeout, count (did you mean \"count\"?)");
}

TEST_F(BinderTest, MissingRequiredParametersAfterEveryArgument) {
  EXPECT_EQ(run("p(count = 1)"), "BAD_ARGUMENT: p() requires first");
  EXPECT_EQ(seen_.log, "count=1");
  EXPECT_EQ(run("p(1)"), "BAD_ARGUMENT: p(): missing argument for count");
}

TEST_F(BinderTest, DoubledAndExtraArguments) {
  EXPECT_EQ(run("p(1, first = 2, count = 1)"),
            "BAD_ARGUMENT: p(): got multiple values for keyword argument \"first\"");
  EXPECT_EQ(run("p(1, count = 1, **{'count': 2})"),
            "BAD_ARGUMENT: p(): got multiple values for keyword argument \"count\"");
  EXPECT_EQ(run("p(1, 2, 3)"), "BAD_ARGUMENT: p(): got 3 arguments, want at most 2");
  wording = Wording{"client()", UnknownForm::Listed, "client", true};
  EXPECT_EQ(run("p(1, first = 2, count = 1)"),
            "BAD_ARGUMENT: client: got multiple values for parameter \"first\"");
  EXPECT_EQ(run("p(1)"), "BAD_ARGUMENT: client: missing argument for count");
}

TEST_F(BinderTest, EachWordingOfAnUnknownKeyword) {
  wording = Wording{"fault_scenario()", UnknownForm::Reference};
  EXPECT_EQ(run("p(1, count = 1, timeot = 2)"),
            "BAD_ARGUMENT: fault_scenario() unexpected keyword \"timeot\"; valid: first, second, "
            "timeout, count (did you mean \"timeout\"?)");
  wording = Wording{"monitor", UnknownForm::Go};
  EXPECT_EQ(run("p(1, count = 1, timeot = 2)"),
            "UNKNOWN_KEYWORD: monitor: unexpected keyword argument \"timeot\" (did you mean "
            "timeout?)");
  EXPECT_EQ(run("p(1, count = 1, zzz = 2)"),
            "UNKNOWN_KEYWORD: monitor: unexpected keyword argument \"zzz\"");
  wording = Wording::own("fault(db, ...)", [](std::string_view fn, std::string_view k) {
    return std::string(fn) + ": no " + std::string(k) + "= here";
  });
  EXPECT_EQ(run("p(1, count = 1, zzz = 2)"), "UNKNOWN_KEYWORD: fault(db, ...): no zzz= here");
}

TEST_F(BinderTest, StepsBindFromTheProtocolTable) {
  EXPECT_EQ(run("st('k', ttl = '5', value = 'v')"), "");
  EXPECT_EQ(seen_.log, "\"k\" \"v\" \"5\"");
  EXPECT_EQ(run("st('k')"), "BAD_ARGUMENT: cache.main.set(): requires value=");
  EXPECT_EQ(run("st('k', 'v', key = 'x')"), "BAD_ARGUMENT: cache.main.set(): key given twice");
  EXPECT_EQ(run("st('k', 'v', '5')"),
            "BAD_ARGUMENT: cache.main.set(): got 3 positional arguments, want at most 2 (key=, "
            "value=, ttl=)");
  EXPECT_EQ(run("st('k', 'v', tll = '5')"),
            "UNKNOWN_KEYWORD: cache.main.set(): unexpected keyword \"tll\" (want key=, value=, "
            "ttl=)");
}

TEST_F(BinderTest, TheCatchAllTakesTheOtherKeywordsUnlisted) {
  EXPECT_EQ(run("o(write = 1, label = 'x', read = 2)"), "");
  EXPECT_EQ(seen_.log, "write=1 label=\"x\" read=2");
  // Positionals are the builtin's own to read.
  EXPECT_EQ(run("o(1, 2, label = 'x')"), "");
  EXPECT_EQ(seen_.log, "label=\"x\"");
}

TEST_F(BinderTest, SlotsAreGoBindArgs) {
  EXPECT_EQ(run("s('k')"), "");
  EXPECT_EQ(seen_.log, "\"k\" unset");
  EXPECT_EQ(run("s(default = 2, key = 'k')"), "");
  EXPECT_EQ(seen_.log, "\"k\" 2");
  EXPECT_EQ(run("s()"), "BAD_ARGUMENT: slots: missing argument for key");
  EXPECT_EQ(run("s('k', kye = 1)"),
            "UNKNOWN_KEYWORD: slots: unexpected keyword argument \"kye\" (did you mean key?)");
  EXPECT_EQ(run("s('k', key = 1)"),
            "BAD_ARGUMENT: slots: got multiple values for keyword argument \"key\"");
  EXPECT_EQ(run("s(1, 2, 3)"), "BAD_ARGUMENT: slots: got 3 arguments, want at most 2");
}

} // namespace
} // namespace fbc::ir::builtins
