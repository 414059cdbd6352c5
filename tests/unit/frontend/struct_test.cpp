// struct(**kwargs) and module values: exact results and Go's messages
// (ported from go.starlark.net/starlarkstruct/testdata/struct.star and
// starlark/testdata/module.star).
#include "frontend/eval/interpreter.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/printer.h"
#include "frontend/lib/struct.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace fbc::star {
namespace {

Value freezeFn(Thread &, Value, const Args &args) {
  args.positional[0].obj()->freeze();
  return args.positional[0];
}

// Runs a program with every dialect option on, plus freeze() and struct(),
// and returns repr(_) or "error: <message>".
class StructTest : public ::testing::Test {
protected:
  frontend::SourceManager sources;
  Builtin freeze{"freeze", freezeFn};
  int files = 0;

  std::string run(const std::string &program) {
    syntax::Dialect all{true, true, true, true, false};
    Interpreter in(sources, all);
    in.predeclared["freeze"] = Value::object(&freeze);
    in.predeclared["struct"] = makeStructBuiltin();
    frontend::DiagnosticList diags;
    auto *file = sources.add(std::to_string(files++).append(".star"), program + "\n");
    Interpreter::Result r = in.execFile(*file, diags);
    std::string out; // appended, not "literal" + string: GCC 12 -Wrestrict false positive
    if (r.staticErrors)
      out.append("static error: ").append(diags.all().front().message);
    else if (r.error)
      out.append("error: ").append(r.error->message());
    else
      out = repr(r.module->get("_"));
    return out;
  }
  std::string eval(const std::string &expr) { return run("_ = " + expr); }
};

TEST_F(StructTest, Basics) {
  EXPECT_EQ(eval("str(struct)"), "\"<built-in function struct>\"");
  EXPECT_EQ(eval("struct(port = 80, host = 'localhost')"),
            "struct(host = \"localhost\", port = 80)");
  EXPECT_EQ(eval("struct()"), "struct()");
  EXPECT_EQ(eval("type(struct())"), "\"struct\"");
  EXPECT_EQ(eval("bool(struct())"), "True");
  EXPECT_EQ(eval("struct(host = 'h', port = 80).port"), "80");
  EXPECT_EQ(eval("dir(struct(host = 'h', port = 80))"), "[\"host\", \"port\"]");
  EXPECT_EQ(eval("struct(1)"), "error: struct: unexpected positional arguments");
}

TEST_F(StructTest, MissingFields) {
  EXPECT_EQ(eval("struct(host = 'h', port = 80).protocol"),
            "error: struct has no .protocol attribute");
  EXPECT_EQ(eval("struct(host = 'h', port = 80).portt"),
            "error: struct has no .portt attribute (did you mean .port?)");
  EXPECT_EQ(eval("[hasattr(struct(city = 1), 'city'), hasattr(struct(city = 1), 'ageaa')]"),
            "[True, False]");
  EXPECT_EQ(eval("getattr(struct(city = 'NYC'), 'city')"), "\"NYC\"");
  EXPECT_EQ(eval("getattr(struct(), 'x', 42)"), "42");
  EXPECT_EQ(run("s = struct(x = 1)\ns.x = 2"), "error: can't assign to .x field of struct");
}

TEST_F(StructTest, EqualityAndHash) {
  EXPECT_EQ(eval("struct(a = 1, b = 'x') == struct(b = 'x', a = 1)"), "True");
  EXPECT_EQ(eval("struct(a = 1) == struct(a = 2)"), "False");
  EXPECT_EQ(eval("struct(a = 1) == struct(b = 1)"), "False");
  EXPECT_EQ(eval("struct(a = 1) == struct(a = 1, b = 2)"), "False");
  EXPECT_EQ(eval("{struct(a = 1): 'x'}[struct(a = 1)]"), "\"x\"");
  EXPECT_EQ(eval("{struct(a = []): 'x'}"), "error: unhashable type: list");
  EXPECT_EQ(eval("struct() < struct()"), "error: struct < struct not implemented");
}

TEST_F(StructTest, Concatenation) {
  EXPECT_EQ(run("bob = struct(name = 'bob', age = 50)\n_ = bob + bob == bob"), "True");
  EXPECT_EQ(eval("struct(name = 'bob', age = 50) + struct(name = 'alice', city = 'NYC')"),
            "struct(age = 50, city = \"NYC\", name = \"alice\")");
  EXPECT_EQ(eval("struct(name = 'alice', city = 'NYC') + struct(name = 'bob', age = 50)"),
            "struct(age = 50, city = \"NYC\", name = \"bob\")");
  EXPECT_EQ(eval("struct() + 1"), "error: unknown binary op: struct + int");
}

TEST_F(StructTest, FreezeReachesFields) {
  EXPECT_EQ(run("s = struct(l = [1])\nfreeze(s)\ns.l.append(2)"),
            "error: append: cannot append to frozen list");
}

TEST_F(StructTest, Modules) {
  Heap heap;
  Module *m = heap.make<Module>("assert");
  m->members = {{"eq", none()}, {"fails", none()}, {"true", none()}};
  EXPECT_EQ(repr(Value::object(m)), "<module \"assert\">");
  Thread t(heap);
  EXPECT_EQ(m->attr(t, "fails"), none());
  EXPECT_TRUE(m->attr(t, "falls").isNull());
  std::vector<std::string> names;
  m->attrNames(names);
  EXPECT_EQ(names, (std::vector<std::string>{"eq", "fails", "true"}));
  auto message = [&](auto &&f) -> std::string {
    try {
      f();
    } catch (const EvalError &e) {
      return e.message();
    }
    return "<no error>";
  };
  EXPECT_EQ(message([&] { m->setField(t, "foo", none()); }),
            "can't assign to .foo field of module");
  EXPECT_EQ(message([&] { m->hash(t); }), "unhashable: module");
}

} // namespace
} // namespace fbc::star
