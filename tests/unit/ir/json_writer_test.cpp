#include "ir/json_writer.h"
#include "ir/quote.h"

#include <gtest/gtest.h>
#include <llvm/Support/raw_ostream.h>

#include <limits>

namespace fbc::ir {
namespace {

TEST(JsonWriter, PrettyPrintsNestedValues) {
  std::string out;
  llvm::raw_string_ostream os(out);
  JsonWriter w(os);
  w.beginObject();
  w.field("name", "db");
  w.field("port", int64_t(5432));
  w.field("p", 0.25);
  w.field("ok", true);
  w.nullField("none");
  w.key("tags");
  w.beginArray(true);
  w.value("a");
  w.value("b");
  w.endArray();
  w.key("loc");
  w.beginObject(true);
  w.field("line", int64_t(3));
  w.field("col", int64_t(7));
  w.endObject();
  w.key("empty");
  w.beginArray();
  w.endArray();
  w.key("items");
  w.beginArray();
  w.beginObject();
  w.endObject();
  w.value(int64_t(-1));
  w.endArray();
  w.endObject();
  w.finish();
  EXPECT_EQ(os.str(), R"({
  "name": "db",
  "port": 5432,
  "p": 0.25,
  "ok": true,
  "none": null,
  "tags": ["a", "b"],
  "loc": {"line": 3, "col": 7},
  "empty": [],
  "items": [
    {},
    -1
  ]
}
)");
}

// Compact (indent 0), as the run report's JSON lines and the bundle's
// report data are written.
TEST(JsonWriter, CompactKeepsOrderAndEscapes) {
  std::string out;
  JsonWriter w(out);
  w.beginObject().field("b", 1).field("a", "x\"\n\x01");
  w.key("list").beginArray().value(true).null().value(1.5).endArray();
  w.key("empty").beginObject().endObject();
  w.field("bad", std::string_view("\xff"));
  w.endObject();
  EXPECT_EQ(out, "{\"b\":1,\"a\":\"x\\\"\\n\\u0001\",\"list\":[true,null,1.5],\"empty\":{},"
                 "\"bad\":\"\\ufffd\"}");
  std::string pretty;
  JsonWriter p(pretty, 2);
  p.beginObject().field("k", 1).endObject();
  EXPECT_EQ(pretty, "{\n  \"k\": 1\n}");
}

TEST(JsonWriter, ControlCharactersByNameOrU00XX) {
  std::string out;
  writeJsonString(out, "\b\f\x1f\x7f");
  EXPECT_EQ(out, "\"\\b\\f\\u001f\x7f\"");
}

TEST(JsonWriter, NonFiniteDoublesAreNull) {
  std::string out;
  JsonWriter w(out);
  w.beginArray().value(std::numeric_limits<double>::infinity()).value(0.1).endArray();
  EXPECT_EQ(out, "[null,0.1]");
}

TEST(JsonWriter, EscapesStrings) {
  std::string out;
  llvm::raw_string_ostream os(out);
  writeJsonString(os, "q\"\\\n\t\x01 \xC3\xA9 \xFF");
  EXPECT_EQ(os.str(), "\"q\\\"\\\\\\n\\t\\u0001 \xC3\xA9 \\ufffd\"");
}

TEST(JsonWriter, OverlongsAndSurrogatesAreInvalidBytes) {
  std::string out;
  llvm::raw_string_ostream os(out);
  // An overlong "/" (C0 AF) and an encoded surrogate (ED A0 80): one \ufffd
  // per byte, as Go's decoder and Starlark's json.encode treat them; a
  // literal U+FFFD (EF BF BD) is valid and kept.
  writeJsonString(os, "\xC0\xAF|\xED\xA0\x80|\xEF\xBF\xBD");
  EXPECT_EQ(os.str(), "\"\\ufffd\\ufffd|\\ufffd\\ufffd\\ufffd|\xEF\xBF\xBD\"");
}

TEST(JsonWriter, NumbersAreShortest) {
  EXPECT_EQ(formatNumber(0.3), "0.3");
  EXPECT_EQ(formatNumber(1), "1");
  EXPECT_EQ(formatNumber(0.125), "0.125");
  EXPECT_EQ(formatNumber(1e-05), "1e-05");
}

} // namespace
} // namespace fbc::ir
