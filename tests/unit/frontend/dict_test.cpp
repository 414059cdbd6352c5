// The dict type, its hash table and its methods: exact results and Go's
// messages (ported from go.starlark.net/starlark/testdata/dict.star).
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
class DictTest : public ::testing::Test {
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

TEST_F(DictTest, ReprAndEquality) {
  EXPECT_EQ(eval("{}"), "{}");
  EXPECT_EQ(eval("{'a': 1, 2: [None]}"), "{\"a\": 1, 2: [None]}");
  EXPECT_EQ(eval("{'a': 1, 'b': 2} == {'b': 2, 'a': 1}"), "True");
  EXPECT_EQ(eval("{'a': 1} == {'a': 2}"), "False");
  EXPECT_EQ(eval("{'a': 1} == {'b': 1}"), "False");
  EXPECT_EQ(eval("{1: 'x'} == {1.0: 'x'}"), "True");
  EXPECT_EQ(eval("{} < {}"), "error: dict < dict not implemented");
  EXPECT_EQ(eval("bool({False: False})"), "True");
  EXPECT_EQ(run("d = {}\nd['x'] = d\n_ = str(d)"), "\"{\\\"x\\\": {...}}\"");
}

TEST_F(DictTest, InsertionOrder) {
  EXPECT_EQ(eval("dict([('a', 0), ('b', 1), ('c', 2), ('b', 3)]).keys()"), "[\"a\", \"b\", \"c\"]");
  EXPECT_EQ(eval("dict([('b', 0), ('a', 1), ('b', 2), ('c', 3)])"),
            "{\"b\": 2, \"a\": 1, \"c\": 3}");
  // Past the small-table limit, through rehashes, and after deletions.
  EXPECT_EQ(run("d = {}\nfor i in range(1000):\n  d[i] = i\nfor i in range(0, 1000, 2):\n  "
                "d.pop(i)\nd[0] = 'new'\n_ = [len(d), d.keys()[:3], d.keys()[-2:], d[999]]"),
            "[501, [1, 3, 5], [999, 0], 999]");
  EXPECT_EQ(run("d = {'b': 2, 'a': 1}\nd.pop('b')\nd['b'] = 3\n_ = d"), "{\"a\": 1, \"b\": 3}");
  EXPECT_EQ(run("d = {'b': 2, 'a': 1}\nd['b'] = 5\n_ = d"), "{\"b\": 5, \"a\": 1}");
}

TEST_F(DictTest, KeysOfMixedNumbers) {
  EXPECT_EQ(eval("{1: 'a', 1.0: 'b'}"), "error: duplicate key: 1.0");
  EXPECT_EQ(run("d = {1: 'a'}\nd[1.0] = 'b'\nd[True] = 'c'\n_ = d"), "{1: \"b\", True: \"c\"}");
  EXPECT_EQ(eval("{float('nan'): 1}[float('nan')]"), "1");
  EXPECT_EQ(run("d = {}\nfor i in range(100):\n  d[i * 1.0] = i\n_ = [d[7], d[99.0], len(d)]"),
            "[7, 99, 100]");
}

TEST_F(DictTest, Indexing) {
  EXPECT_EQ(eval("{}['a']"), "error: key \"a\" not in dict");
  EXPECT_EQ(eval("{}[1]"), "error: key 1 not in dict");
  EXPECT_EQ(eval("{}[[]]"), "error: unhashable type: list");
  EXPECT_EQ(run("d = {}\nd[[]] = 1"), "error: unhashable type: list");
  EXPECT_EQ(run("d = freeze({})\nd['a'] = 1"), "error: cannot insert into frozen hash table");
  EXPECT_EQ(run("d = {1: 1, 2: 1}\nfor k in d:\n  d[2 * k] = d[k]"),
            "error: cannot insert into hash table during iteration");
  // Overwriting an existing key during iteration is a mutation too.
  EXPECT_EQ(run("d = {1: 1}\nfor k in d:\n  d[k] += 1"),
            "error: cannot insert into hash table during iteration");
  EXPECT_EQ(run("d = {1: 2, 2: 4}\na, d[0] = d\n_ = [a, d]"), "[1, {1: 2, 2: 4, 0: 2}]");
}

TEST_F(DictTest, GetSetdefault) {
  EXPECT_EQ(eval("[{'a': 1}.get('a'), {'a': 1}.get('b'), {'a': 1}.get('b', 2)]"), "[1, None, 2]");
  EXPECT_EQ(eval("{}.get([])"), "error: get: unhashable type: list");
  EXPECT_EQ(eval("{}.get()"), "error: get: got 0 arguments, want at least 1");
  EXPECT_EQ(run("d = {'a': 1}\n_ = [d.setdefault('a'), d.setdefault('b'), d.setdefault('c', 2), "
                "d.setdefault('c', 3), d]"),
            "[1, None, 2, 2, {\"a\": 1, \"b\": None, \"c\": 2}]");
  EXPECT_EQ(run("d = freeze({'a': 1})\n_ = d.setdefault('a', 5)"), "1");
  EXPECT_EQ(run("d = freeze({'a': 1})\n_ = d.setdefault('d', 1)"),
            "error: setdefault: cannot insert into frozen hash table");
}

TEST_F(DictTest, PopPopitemClear) {
  EXPECT_EQ(run("d = {'a': 1, 'b': 2}\n_ = [d.pop('a'), str(d), d.pop('c', 3), d.pop('c', None), "
                "d.pop('b'), len(d)]"),
            "[1, \"{\\\"b\\\": 2}\", 3, None, 2, 0]");
  EXPECT_EQ(eval("{}.pop('c')"), "error: pop: missing key");
  EXPECT_EQ(run("d = freeze({'a': 1})\nd.pop('a')"),
            "error: pop: cannot delete from frozen hash table");
  EXPECT_EQ(run("d = {1: 1, 2: 1}\nfor k in d:\n  d.pop(k)"),
            "error: pop: cannot delete from hash table during iteration");
  EXPECT_EQ(run("d = {'a': 1, 'b': 2}\n_ = [d.popitem(), d.popitem(), d]"),
            "[(\"a\", 1), (\"b\", 2), {}]");
  EXPECT_EQ(eval("{}.popitem()"), "error: popitem: empty dict");
  EXPECT_EQ(run("d = {}\nfor i in range(100):\n  d[i] = i\nfor i in range(99):\n  "
                "d.popitem()\n_ = d"),
            "{99: 99}");
  EXPECT_EQ(run("d = {'a': 1}\nd.clear()\n_ = d"), "{}");
  EXPECT_EQ(run("d = freeze({'a': 1})\nd.clear()"), "error: cannot clear frozen hash table");
}

TEST_F(DictTest, KeysValuesItems) {
  EXPECT_EQ(eval("{'a': 1, 'b': 2}.keys()"), "[\"a\", \"b\"]");
  EXPECT_EQ(eval("{'a': 1, 'b': 2}.values()"), "[1, 2]");
  EXPECT_EQ(eval("{'a': 1, 'b': 2}.items()"), "[(\"a\", 1), (\"b\", 2)]");
  EXPECT_EQ(eval("type({}.items())"), "\"list\"");
  EXPECT_EQ(eval("[(y, x) for x, y in {1: 2, 3: 4}.items()]"), "[(2, 1), (4, 3)]");
}

TEST_F(DictTest, UpdateAndConstructor) {
  EXPECT_EQ(run("d = {'a': 1}\nd.update(a=2, b=3)\nd.update([('b', 4), ('c', 5)])\nd.update({'c': "
                "6, 'd': 7})\n_ = d"),
            "{\"a\": 2, \"b\": 4, \"c\": 6, \"d\": 7}");
  EXPECT_EQ(run("d = freeze({'a': 1})\nd.update({'a': 8})"),
            "error: update: cannot insert into frozen hash table");
  EXPECT_EQ(eval("{}.update(None)"), "error: update: got NoneType, want iterable");
  EXPECT_EQ(eval("{}.update(1, 2)"), "error: update: got 2 arguments, want at most 1");
  EXPECT_EQ(eval("dict(None)"), "error: dict: got NoneType, want iterable");
  EXPECT_EQ(eval("dict([(1, 2), (3, 4)], foo='bar')"), "{1: 2, 3: 4, \"foo\": \"bar\"}");
  EXPECT_EQ(eval("dict({1: 2, 3: 4}.items())"), "{1: 2, 3: 4}");
  EXPECT_EQ(eval("dict((['a', 2], ['a', 3]), a=4)"), "{\"a\": 4}");
  EXPECT_EQ(eval("dict({'b': 3}, a=4, **dict(a=5))"), "error: dict: duplicate keyword arg: \"a\"");
  EXPECT_EQ(eval("dict([1])"), "error: dict: dictionary update sequence element #0 is not "
                               "iterable (int)");
  EXPECT_EQ(eval("dict([(1, 2, 3)])"),
            "error: dict: dictionary update sequence element #0 has length 3, want 2");
  EXPECT_EQ(eval("dict([(1, 2)], [])"), "error: dict: got 2 arguments, want at most 1");
  EXPECT_EQ(eval("dict([([], 2)])"), "error: dict: unhashable type: list");
  EXPECT_EQ(run("d = {'a': 1}\nd.update(d)\n_ = d"), "{\"a\": 1}");
}

// The table itself: tombstones keep positions until a rehash compacts
// them, first() skips them, and small tables are compacted eagerly.
// x |= y updates the dict in place: an alias sees the update (the main
// line's dict.star test_dict_union_assignment); a non-dict operand is x | y.
TEST_F(DictTest, UnionAssignmentInPlace) {
  EXPECT_EQ(run("x = {\"a\": 1}\nsaved = x\nx |= {\"b\": 2, \"a\": 3}\n_ = saved"),
            "{\"a\": 3, \"b\": 2}");
  EXPECT_EQ(run("x = {}\nx |= []"), "error: unknown binary op: dict | list");
  EXPECT_EQ(run("x = freeze({})\nx |= {1: 2}"), "error: cannot apply |= to frozen hash table");
}

TEST_F(DictTest, HashTableTombstones) {
  Heap heap;
  Thread t(heap);
  HashTable table;
  auto I = [](int64_t i) { return Value::small(i); };
  EXPECT_EQ(table.first(), -1);
  EXPECT_TRUE(table.get(t, I(1)).isNull());
  for (int i = 0; i < 4; ++i)
    table.set(t, I(i), I(10 * i));
  table.erase(t, I(0));
  EXPECT_EQ(table.entries().size(), 3u); // small: erased in place
  EXPECT_EQ(table.first(), 0);
  EXPECT_EQ(table.entries()[0].key, I(1));
  for (int i = 4; i < 40; ++i)
    table.set(t, I(i), I(10 * i));
  EXPECT_EQ(table.erase(t, I(1)), I(10));
  EXPECT_TRUE(table.erase(t, I(1)).isNull());
  EXPECT_EQ(table.entries().size(), 39u); // indexed: a tombstone stays
  EXPECT_TRUE(table.entries()[0].value.isNull());
  EXPECT_EQ(table.first(), 1);
  EXPECT_EQ(table.size(), 38u);
  for (int i = 2; i < 30; ++i)
    table.erase(t, I(i));
  EXPECT_EQ(table.size(), 10u);
  // Compacted once tombstones outnumbered live entries (at 19 live of 39).
  EXPECT_EQ(table.entries().size(), 19u);
  EXPECT_EQ(table.entries()[table.first()].key, I(30));
  EXPECT_EQ(table.get(t, I(39)), I(390));
  table.set(t, I(30), I(0)); // an update keeps the position
  EXPECT_EQ(table.entries()[table.first()].key, I(30));
  std::vector<int64_t> keys;
  for (const HashTable::Entry &e : table.entries())
    if (!e.value.isNull())
      keys.push_back(e.key.smallInt());
  EXPECT_EQ(keys, (std::vector<int64_t>{30, 31, 32, 33, 34, 35, 36, 37, 38, 39}));
  table.clear();
  EXPECT_EQ(table.size(), 0u);
  EXPECT_EQ(table.first(), -1);
}

TEST_F(DictTest, MethodValues) {
  EXPECT_EQ(eval("dir({})"), "[\"clear\", \"get\", \"items\", \"keys\", \"pop\", \"popitem\", "
                             "\"setdefault\", \"update\", \"values\"]");
  EXPECT_EQ(eval("str({}.get)"), "\"<built-in method get of dict value>\"");
  EXPECT_EQ(eval("{}.nope"), "error: dict has no .nope field or method");
}

} // namespace
} // namespace fbc::star
