// The proxy's pieces without sockets: matcher globs, the HTTP codec's
// request splitting (fed at every split point, as reads may arrive), its
// response counting and its replies, and the rule table's decisions.
#include "runtime/protocols/proxy_http.h"
#include "runtime/proxy/proxy_rules.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace fbc::rt {
namespace {

TEST(ProxyGlob, StarCrossesSlashesAndColons) {
  EXPECT_TRUE(proxyGlobMatch("", "/anything"));
  EXPECT_TRUE(proxyGlobMatch("/*", "/kv/a/b"));
  EXPECT_TRUE(proxyGlobMatch("/orders/*", "/orders/17"));
  EXPECT_FALSE(proxyGlobMatch("/orders/*", "/order/17"));
  EXPECT_TRUE(proxyGlobMatch("user:*", "user:42"));
  EXPECT_FALSE(proxyGlobMatch("user:*", "session:42"));
  EXPECT_TRUE(proxyGlobMatch("/a?c", "/abc"));
  EXPECT_FALSE(proxyGlobMatch("/a?c", "/ac"));
  EXPECT_TRUE(proxyGlobMatch("*from orders*", "select * from orders where id = $1"));
  EXPECT_FALSE(proxyGlobMatch("GET", "GETX"));
}

// Two pipelined requests, the second with a chunked body.
const std::string kTwo = "GET /kv/a?x=1 HTTP/1.1\r\nHost: h\r\n\r\n"
                         "POST /orders/7 HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
                         "5\r\nhello\r\n0\r\n\r\n";

struct Unit {
  Split split;
  std::string bytes, method, target;
  bool last;
};

// Feeds `input` in two reads split at `cut`, the proxy's way: the pending
// buffer keeps what no unit took.
std::vector<Unit> splitAll(const std::string &input, size_t cut) {
  auto codec = makeHttpCodec();
  std::vector<Unit> out;
  std::string pending;
  for (std::string_view read :
       {std::string_view(input).substr(0, cut), std::string_view(input).substr(cut)}) {
    pending.append(read);
    for (;;) {
      RequestInfo info = codec->splitRequest(pending);
      if (info.split == Split::NeedMore)
        break;
      out.push_back(
          {info.split, pending.substr(0, info.length), info.method, info.target, info.last});
      pending.erase(0, info.length);
      if (pending.empty())
        break;
    }
  }
  EXPECT_TRUE(pending.empty()) << cut;
  return out;
}

TEST(ProxyHttpCodec, SplitsPipelinedRequestsAtEveryReadBoundary) {
  for (size_t cut = 0; cut <= kTwo.size(); ++cut) {
    std::vector<Unit> units = splitAll(kTwo, cut);
    std::string joined;
    for (const Unit &u : units)
      joined += u.bytes;
    EXPECT_EQ(joined, kTwo) << cut; // every byte, in order, untouched
    ASSERT_GE(units.size(), 2u) << cut;
    EXPECT_EQ(units[0].split, Split::Request) << cut;
    EXPECT_EQ(units[0].method, "GET");
    EXPECT_EQ(units[0].target, "/kv/a");
    // The POST: one Request when all of it was there, else a Head and Body
    // units ending with `last`.
    EXPECT_TRUE(units[1].split == Split::Request || units[1].split == Split::Head) << cut;
    EXPECT_EQ(units[1].method, "POST");
    EXPECT_EQ(units[1].target, "/orders/7");
    EXPECT_TRUE(units.back().last) << cut;
    for (size_t i = 2; i < units.size(); ++i)
      EXPECT_EQ(units[i].split, Split::Body) << cut;
  }
}

TEST(ProxyHttpCodec, GarbageIsNotThisProtocol) {
  auto codec = makeHttpCodec();
  EXPECT_EQ(codec->splitRequest("\x16\x03\x01 not http\r\n\r\n").split, Split::NotThisProtocol);
}

TEST(ProxyHttpCodec, CountsResponsesAndSkipsInterimOnes) {
  auto codec = makeHttpCodec();
  codec->splitRequest("GET / HTTP/1.1\r\n\r\n");
  codec->splitRequest("HEAD / HTTP/1.1\r\n\r\n");
  std::string status;
  // A 100 Continue does not count; the HEAD response has no body despite
  // its Content-Length.
  EXPECT_EQ(codec->feedResponse("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-"
                                "Length: 2\r\n\r\nok",
                                status),
            1u);
  EXPECT_EQ(status, "200");
  EXPECT_EQ(codec->feedResponse("HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\n", status), 1u);
  EXPECT_EQ(status, "404");
}

TEST(ProxyHttpCodec, RepliesWithStatusBodyAndConnectionClose) {
  auto codec = makeHttpCodec();
  RequestInfo req = codec->splitRequest("GET /x HTTP/1.1\r\nConnection: close\r\n\r\n");
  EXPECT_TRUE(req.closeAfter);
  ReplySpec err;
  err.status = 503;
  err.message = "down \"now\"";
  EXPECT_EQ(codec->reply(err, req),
            "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
            "Content-Length: 24\r\nConnection: close\r\n\r\n{\"error\":\"down \\\"now\\\"\"}");
  RequestInfo keep = codec->splitRequest("GET /y HTTP/1.1\r\n\r\n");
  EXPECT_FALSE(keep.closeAfter);
  ReplySpec ok;
  ok.kind = ReplyKind::Response;
  ok.body = "mocked";
  ok.hasBody = true;
  EXPECT_EQ(codec->reply(ok, keep), "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                                    "Content-Length: 6\r\n\r\nmocked");
}

ProxyRuleSpec rule(ir::ProxyAction a, std::string path, double p = 1) {
  ProxyRuleSpec s;
  s.rule.action = a;
  s.rule.path = std::move(path);
  s.rule.probability = p;
  s.rule.delayNs = 5;
  s.siteKey = "svc.main:x";
  return s;
}

// method= and command= ignore case (an HTTP method, a Redis command); an
// AMQP exchange= is a name and matches only as written.
TEST(ProxyRuleTable, AnExchangeKeepsItsCaseAMethodDoesNot) {
  ProxyRuleTable t;
  ProxyRuleSpec exchange = rule(ir::ProxyAction::Drop, "");
  exchange.rule.exchange = "Orders*";
  ProxyRuleSpec method = rule(ir::ProxyAction::Error, "");
  method.rule.method = "get";
  std::vector<ProxyRuleSpec> rules{exchange, method};
  t.push(std::move(rules));
  EXPECT_EQ(*t.decide(0, ProxyUnit::Request, "Orders.eu", "k").action, ir::ProxyAction::Drop);
  EXPECT_EQ(*t.decide(0, ProxyUnit::Request, "GET", "/").action, ir::ProxyAction::Error);
  EXPECT_FALSE(t.decide(0, ProxyUnit::Request, "orders.eu", "k").rule);
}

TEST(ProxyRuleTable, InnermostFirstDelaysAddAndScopesEnd) {
  ProxyRuleTable t;
  std::vector<ProxyRuleSpec> outer{rule(ir::ProxyAction::Error, "/a/*")};
  uint64_t o = t.push(std::move(outer));
  std::vector<ProxyRuleSpec> inner{rule(ir::ProxyAction::Delay, "/*"),
                                   rule(ir::ProxyAction::Drop, "/b/*")};
  uint64_t i = t.push(std::move(inner));
  ProxyDecision d = t.decide(0, ProxyUnit::Request, "GET", "/a/1");
  EXPECT_EQ(d.delayNs, 5);
  ASSERT_TRUE(d.action);
  EXPECT_EQ(*d.action, ir::ProxyAction::Error);
  d = t.decide(0, ProxyUnit::Request, "GET", "/b/1");
  EXPECT_EQ(*d.action, ir::ProxyAction::Drop);
  EXPECT_FALSE(t.decide(1, ProxyUnit::Request, "GET", "/a/1").rule); // another interface
  std::vector<ProxyRuleStats> st = t.pop(i);
  ASSERT_EQ(st.size(), 2u);
  EXPECT_EQ(st[0].fires, 2u);
  EXPECT_EQ(st[1].fires, 1u);
  d = t.decide(0, ProxyUnit::Request, "GET", "/a/1");
  EXPECT_EQ(d.delayNs, 0);
  EXPECT_EQ(*d.action, ir::ProxyAction::Error);
  t.pop(o);
  EXPECT_FALSE(t.decide(0, ProxyUnit::Request, "GET", "/a/1").rule);
}

TEST(ProxyRuleTable, ProbabilityIsSeededAndPinsWin) {
  auto draws = [](uint64_t seed) {
    ProxyRuleTable t;
    t.setSeed(seed);
    std::vector<ProxyRuleSpec> r{rule(ir::ProxyAction::Error, "", 0.5)};
    t.push(std::move(r));
    std::string out;
    for (int k = 0; k < 32; ++k)
      out += t.decide(0, ProxyUnit::Request, "GET", "/").action ? '1' : '0';
    return out;
  };
  EXPECT_EQ(draws(7), draws(7));
  EXPECT_NE(draws(7), draws(8));
  ProxyRuleTable t;
  ProxyRuleSpec s = rule(ir::ProxyAction::Error, "", 0.5);
  s.decisionOverride = [](uint64_t k) -> std::optional<bool> {
    if (k < 2)
      return k == 1;
    return std::nullopt;
  };
  std::vector<ProxyRuleSpec> r{s};
  t.push(std::move(r));
  EXPECT_FALSE(t.decide(0, ProxyUnit::Request, "GET", "/").action);
  EXPECT_TRUE(t.decide(0, ProxyUnit::Request, "GET", "/").action);
}

// A chunk without a codec (plain TCP, or bytes the codec gave up on) has
// no protocol to answer in: response()/error() rules skip it without
// counting a match; delay()/drop() still decide it.
TEST(ProxyRuleTable, ChunksAreNeverAnswered) {
  ProxyRuleTable t;
  std::vector<ProxyRuleSpec> replies{rule(ir::ProxyAction::Error, ""),
                                     rule(ir::ProxyAction::Respond, "")};
  uint64_t r = t.push(std::move(replies));
  EXPECT_FALSE(t.decide(0, ProxyUnit::Chunk, "", "").rule);
  std::vector<ProxyRuleSpec> drop{rule(ir::ProxyAction::Drop, "")};
  uint64_t d = t.push(std::move(drop));
  ProxyDecision chunk = t.decide(0, ProxyUnit::Chunk, "", "");
  ASSERT_TRUE(chunk.action);
  EXPECT_EQ(*chunk.action, ir::ProxyAction::Drop);
  t.pop(d);
  ProxyDecision request = t.decide(0, ProxyUnit::Request, "GET", "/");
  ASSERT_TRUE(request.action);
  EXPECT_EQ(*request.action, ir::ProxyAction::Error);
  std::vector<ProxyRuleStats> st = t.pop(r);
  ASSERT_EQ(st.size(), 2u);
  EXPECT_EQ(st[0].matches, 1u); // the request only
  EXPECT_EQ(st[0].fires, 1u);
  EXPECT_EQ(st[0].unframed, 1u); // the first chunk (the inner drop() took the second)
}

// What a rule that matched nothing saw instead (its fault_zero_traffic
// event): every unit of its kind that reached it counted, the first
// kMaxSeen distinct ones kept in order; units it matched are not "seen".
TEST(ProxyRuleTable, RulesRememberWhatTheyPassedOver) {
  ProxyRuleTable t;
  std::vector<ProxyRuleSpec> rules{rule(ir::ProxyAction::Error, "/orders/*")};
  uint64_t id = t.push(std::move(rules));
  for (int i = 0; i < 12; ++i)
    EXPECT_FALSE(t.decide(0, ProxyUnit::Request, "GET", "/kv/" + std::to_string(i % 10)).rule);
  EXPECT_FALSE(t.decide(0, ProxyUnit::Request, "PUT", "/kv/0").rule);
  EXPECT_FALSE(t.decide(1, ProxyUnit::Request, "GET", "/x").rule); // another interface
  std::vector<ProxyRuleStats> st = t.pop(id);
  ASSERT_EQ(st.size(), 1u);
  EXPECT_EQ(st[0].matches, 0u);
  EXPECT_EQ(st[0].passedOver, 13u);
  EXPECT_EQ(st[0].seen,
            (std::vector<std::string>{"GET /kv/0", "GET /kv/1", "GET /kv/2", "GET /kv/3",
                                      "GET /kv/4", "GET /kv/5", "GET /kv/6", "GET /kv/7"}));
  std::vector<ProxyRuleSpec> again{rule(ir::ProxyAction::Error, "/orders/*")};
  id = t.push(std::move(again));
  EXPECT_FALSE(t.decide(0, ProxyUnit::Request, "", "/kv/0").rule); // a Postgres-like unit
  EXPECT_TRUE(t.decide(0, ProxyUnit::Request, "GET", "/orders/1").rule);
  st = t.pop(id);
  EXPECT_EQ(st[0].matches, 1u);
  EXPECT_EQ(st[0].seen, (std::vector<std::string>{"/kv/0"}));
}

} // namespace
} // namespace fbc::rt
