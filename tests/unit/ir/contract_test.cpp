#include "ir/contract.h"

#include <gtest/gtest.h>

namespace fbc::ir {
namespace {

// The reference's naming rule (RFC-055 §5.2), on its own examples.
TEST(Contract, CanonicalNames) {
  EXPECT_EQ(canonicalName("getOrder"), "get_order");
  EXPECT_EQ(canonicalName("GetOrderByID"), "get_order_by_id");
  EXPECT_EQ(canonicalName("ListOrdersV2"), "list_orders_v2");
  EXPECT_EQ(canonicalName("HTTPServer"), "http_server");
  EXPECT_EQ(canonicalName("get-order"), "get_order");
  EXPECT_EQ(canonicalName("orderId"), "order_id");
  EXPECT_EQ(canonicalName("X-Tenant"), "x_tenant");
  EXPECT_EQ(canonicalName("2fa"), "op_2fa");
  EXPECT_EQ(canonicalName("--"), "");
}

std::shared_ptr<Schema> typed(std::string type) {
  auto s = std::make_shared<Schema>();
  s->type = std::move(type);
  return s;
}

TEST(Contract, SynthesizesFromTheSchema) {
  Contract c;
  auto item = typed("object");
  item->properties = {
      {"sku", typed("string")}, {"qty", typed("integer")}, {"ok", typed("boolean")}};
  c.schemas["Item"] = item;
  auto list = typed("array");
  list->items = std::make_shared<Schema>();
  list->items->ref = "Item";
  EXPECT_EQ(synthesizeJson(c, *list), R"([{"ok":false,"qty":0,"sku":""}])");
  auto example = typed("string");
  example->exampleJson = R"("a\"b")";
  EXPECT_EQ(synthesizeJson(c, *example), R"("a\"b")");
  auto withDefault = typed("object");
  withDefault->defaultJson = R"({"n":[1,2.5,null,true]})"; // spliced as read
  EXPECT_EQ(synthesizeJson(c, *withDefault), R"({"n":[1,2.5,null,true]})");
  auto recursive = std::make_shared<Schema>();
  recursive->ref = "Node";
  auto node = typed("object");
  node->properties = {{"next", recursive}};
  c.schemas["Node"] = node;
  // Bounded: a recursive schema ends in {} past depth 16 rather than looping.
  std::string nested = "{}";
  for (int i = 0; i < 17; ++i)
    nested = R"({"next":)" + nested + "}";
  EXPECT_EQ(synthesizeJson(c, *recursive), nested);
}

TEST(Contract, PicksThePrimaryResponseAndItsExample) {
  Contract c;
  ContractOperation op;
  op.name = "get_order";
  op.method = "GET";
  op.path = "/orders/{id}";
  ContractResponse notFound{"404", {}};
  ContractResponse ok{"200", {}};
  ContractResponse::Media m;
  m.contentType = "application/json";
  m.examples = {{"b", "2"}, {"a", "1"}};
  ok.content.push_back(m);
  op.responses = {ok, notFound};
  std::string error;
  auto first = contractExample(c, op, "", error);
  ASSERT_TRUE(first) << error;
  EXPECT_EQ(first->status, 200);
  EXPECT_EQ(first->body, "1"); // the first example by name
  auto named = contractExample(c, op, "b", error);
  ASSERT_TRUE(named);
  EXPECT_EQ(named->body, "2");
  op.responses[0].content[0].examples.clear();
  EXPECT_FALSE(contractExample(c, op, "first", error));
  EXPECT_EQ(error, "GET /orders/{id}: no example declared (set examples=\"synthesize\" to fall "
                   "back to schema-based values)");
  op.responses[0].content[0].schema = typed("integer");
  auto synthesized = contractExample(c, op, "synthesize", error);
  ASSERT_TRUE(synthesized);
  EXPECT_EQ(synthesized->body, "0");
  EXPECT_EQ(op.signature(), "get_order()");
}

// application/json is served (and sent) when declared, though another media
// type sorts before it; else the first.
TEST(Contract, PrefersApplicationJson) {
  ContractResponse::Media hal, json;
  hal.contentType = "application/hal+json";
  hal.exampleJson = R"({"_links":{}})";
  json.contentType = "application/json";
  json.exampleJson = R"({"id":1})";
  Contract c;
  ContractOperation op;
  op.responses = {{"200", {hal, json}}};
  std::string error;
  auto ex = contractExample(c, op, "", error);
  ASSERT_TRUE(ex) << error;
  EXPECT_EQ(ex->contentType, "application/json");
  EXPECT_EQ(ex->body, R"({"id":1})");
  op.responses[0].content.pop_back();
  EXPECT_EQ(preferredMedia(op.responses[0].content)->contentType, "application/hal+json");
  EXPECT_EQ(preferredMedia({}), nullptr);
}

} // namespace
} // namespace fbc::ir
