// The contract checker (runtime/values/contract_check.h): each schema keyword it
// checks, on a decoded JSON body, with the exact violation it reports; and
// the response and request rules around it (status, content type, empty
// and malformed bodies).
#include "runtime/values/contract_check.h"

#include "frontend/eval/thread.h"
#include "frontend/lib/heap.h"
#include "frontend/lib/json/json.h"

#include <gtest/gtest.h>

namespace fbc::rt {
namespace {

using ir::Schema;

std::shared_ptr<Schema> typed(std::string type) {
  auto s = std::make_shared<Schema>();
  s->type = std::move(type);
  return s;
}

class ContractCheck : public ::testing::Test {
protected:
  star::Heap heap;
  star::Thread t{heap};
  ir::Contract c;

  // "" or the first violation of `json` against `s`.
  std::string check(const Schema &s, std::string_view json) {
    return checkSchema(t, c, s, star::decodeJson(t, json), "body");
  }
  // An enum as the OpenAPI reader keeps it: each value encoded as JSON.
  std::vector<std::string> enumOf(std::vector<std::string_view> values) {
    std::vector<std::string> out;
    for (std::string_view v : values)
      out.push_back(star::encodeJson(t, star::decodeJson(t, v)));
    return out;
  }
};

TEST_F(ContractCheck, TypesAndNullable) {
  EXPECT_EQ(check(*typed("integer"), "1"), "");
  EXPECT_EQ(check(*typed("number"), "1"), ""); // integer fits number
  EXPECT_EQ(check(*typed("integer"), "1.5"), "body: got number, want integer");
  EXPECT_EQ(check(*typed("string"), "true"), "body: got boolean, want string");
  EXPECT_EQ(check(*typed("array"), "{}"), "body: got object, want array");
  EXPECT_EQ(check(*typed("string"), "null"), "body: got null, want string");
  auto nullable = typed("string");
  nullable->nullable = true;
  EXPECT_EQ(check(*nullable, "null"), "");
  EXPECT_EQ(check(Schema{}, "null"), ""); // no type: anything
}

TEST_F(ContractCheck, EnumBoundsAndLengths) {
  auto e = typed("string");
  e->enumJson = {R"("open")", R"("closed")"};
  EXPECT_EQ(check(*e, R"("open")"), "");
  EXPECT_EQ(check(*e, R"("gone")"), R"(body: "gone" is not one of ["open", "closed"])");
  auto n = typed("integer");
  n->enumJson = {"1", "2"};
  EXPECT_EQ(check(*n, "2"), "");
  EXPECT_EQ(check(*n, "3"), "body: 3 is not one of [1, 2]");
  // Compared as JSON, the encoding the contract's values were read in:
  // booleans, objects and non-ASCII strings match themselves.
  auto flag = typed("boolean");
  flag->enumJson = enumOf({"true"});
  EXPECT_EQ(check(*flag, "true"), "");
  EXPECT_EQ(check(*flag, "false"), "body: false is not one of [true]");
  auto tag = typed("string");
  tag->enumJson = enumOf({R"("caf\u00e9 <x>")", R"("plain")"});
  EXPECT_EQ(check(*tag, "\"caf\xc3\xa9 <x>\""), "");
  EXPECT_EQ(check(*tag, R"("plain")"), "");
  EXPECT_EQ(check(*tag, R"("other")"), R"(body: "other" is not one of ["caf)"
                                       "\xc3\xa9"
                                       R"( \u003cx\u003e", "plain"])");
  auto shape = typed("object");
  shape->enumJson = enumOf({R"({"a": 1})"});
  EXPECT_EQ(check(*shape, R"({"a":1})"), "");
  auto range = typed("number");
  range->minimum = 1;
  range->maximum = 2.5;
  EXPECT_EQ(check(*range, "0"), "body: 0 is less than the minimum 1");
  EXPECT_EQ(check(*range, "3"), "body: 3 is more than the maximum 2.5");
  EXPECT_EQ(check(*range, "2.5"), "");
  auto s = typed("string");
  s->minLength = 2;
  s->maxLength = 3;
  EXPECT_EQ(check(*s, R"("a")"), "body: string shorter than minLength 2");
  EXPECT_EQ(check(*s, R"("abcd")"), "body: string longer than maxLength 3");
  auto a = typed("array");
  a->minItems = 1;
  a->maxItems = 2;
  a->items = typed("integer");
  EXPECT_EQ(check(*a, "[]"), "body: 0 items, fewer than minItems 1");
  EXPECT_EQ(check(*a, "[1,2,3]"), "body: 3 items, more than maxItems 2");
  EXPECT_EQ(check(*a, R"([1,"x"])"), "body[1]: got string, want integer");
}

TEST_F(ContractCheck, ObjectsRefsAndCombinators) {
  auto item = typed("object");
  item->required = {"sku"};
  item->properties = {{"sku", typed("string")}, {"qty", typed("integer")}};
  item->closed = true;
  c.schemas["Item"] = item;
  auto order = typed("object");
  auto ref = std::make_shared<Schema>();
  ref->ref = "Item";
  auto items = typed("array");
  items->items = ref;
  order->properties = {{"items", items}};
  EXPECT_EQ(check(*order, R"({"items":[{"sku":"a","qty":1}]})"), "");
  EXPECT_EQ(check(*order, R"({"items":[{"qty":1}]})"),
            R"(body.items[0]: property "sku" is missing)");
  EXPECT_EQ(check(*order, R"({"items":[{"sku":"a","qty":"1"}]})"),
            "body.items[0].qty: got string, want integer");
  EXPECT_EQ(check(*order, R"({"items":[{"sku":"a","extra":1}]})"),
            R"(body.items[0]: property "extra" is not allowed)");

  Schema all;
  all.allOf = {typed("integer"), std::make_shared<Schema>()};
  all.allOf[1]->minimum = 5;
  EXPECT_EQ(check(all, "7"), "");
  EXPECT_EQ(check(all, "4"), "body: 4 is less than the minimum 5");
  Schema any;
  any.anyOf = {typed("string"), typed("integer")};
  EXPECT_EQ(check(any, "1"), "");
  EXPECT_EQ(check(any, "true"), "body: matches none of the anyOf schemas");
  Schema one;
  one.oneOf = {typed("integer"), typed("number")};
  EXPECT_EQ(check(one, "1.5"), "");
  EXPECT_EQ(check(one, "1"), "body: matches 2 of the oneOf schemas, want exactly 1");
}

TEST_F(ContractCheck, ResponsesAndRequests) {
  ir::ContractOperation op;
  op.method = "GET";
  op.path = "/orders/{id}";
  ir::ContractResponse::Media json;
  json.contentType = "application/json";
  json.schema = typed("object");
  json.schema->required = {"id"};
  op.responses = {{"200", {json}}, {"4XX", {}}};
  EXPECT_EQ(checkResponse(t, c, op, 200, "application/json; charset=utf-8", R"({"id":1})"), "");
  EXPECT_EQ(checkResponse(t, c, op, 200, "", R"({})"), R"(body: property "id" is missing)");
  EXPECT_EQ(checkResponse(t, c, op, 404, "text/plain", "gone"), ""); // 4XX, no content declared
  EXPECT_EQ(checkResponse(t, c, op, 503, "", ""),
            "status 503 is not declared for GET /orders/{id} (declared: 200, 4XX)");
  EXPECT_EQ(
      checkResponse(t, c, op, 200, "text/plain", "x"),
      R"(content type "text/plain" is not declared for GET /orders/{id} 200 (declared: application/json))");
  EXPECT_EQ(checkResponse(t, c, op, 200, "application/json", " \n"),
            "empty body, but GET /orders/{id} 200 declares a application/json schema");
  EXPECT_EQ(checkResponse(t, c, op, 200, "application/json", "{"),
            "malformed JSON body: at offset 1, unexpected end of file");

  op.acceptsBody = true;
  op.bodyRequired = true;
  op.bodySchema = typed("object");
  op.bodySchema->required = {"qty"};
  EXPECT_EQ(checkRequest(t, c, op, "application/json", R"({"qty":1})"), "");
  EXPECT_EQ(checkRequest(t, c, op, "application/json", ""), "request body is required");
  EXPECT_EQ(checkRequest(t, c, op, "application/json", "{}"), R"(body: property "qty" is missing)");
  EXPECT_EQ(checkRequest(t, c, op, "text/plain", "{}"), ""); // not JSON: not inspected
}

} // namespace
} // namespace fbc::rt
