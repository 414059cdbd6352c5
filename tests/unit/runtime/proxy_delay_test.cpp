// A delay() rule's request is the one the codec split when the rule fired:
// when the timer fires the proxy applies the decision to it, without the
// codec splitting the same bytes a second time. Both codecs here keep state
// per split (PostgreSQL's the replies a connection is owed, HTTP's an
// incremental parser), so a second split miscounted the connection: a
// pipelined error() reply overtook the reply it should wait for, and an
// HTTP request whose body came after the timer lost its framing (the rest
// of the connection went unframed, past the rules).
#include "ir/protocol_targets.h"
#include "runtime/proxy/proxy.h"
#include "runtime/trace/trace.h"
#include "tests/unit/runtime/loopback.h"
#include "tests/unit/runtime/pg_messages.h"

#include <gtest/gtest.h>

#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <thread>

namespace fbc::rt {
namespace {

using namespace std::chrono_literals;

ProxyRuleSpec rule(ir::ProxyAction action, const std::string &site) {
  ProxyRuleSpec spec;
  spec.rule.action = action;
  spec.siteKey = site;
  return spec;
}

TEST(ProxyDelay, ADelayedPostgresQueryIsOwedOneReply) {
  uint16_t serverPort = 0;
  int ls = listenLoopback(serverPort);
  ASSERT_GE(ls, 0);
  using namespace pgmsg;
  const std::string startup = pgmsg::startup();
  const std::string ready = msg('Z', "I");
  const std::string q1 = query("SELECT x FROM a"), q2 = query("SELECT y FROM b"),
                    q3 = query("SELECT z FROM c"), sync = pgmsg::sync();
  const std::string done1 = msg('C', cstr("SELECT 1")) + ready,
                    done2 = msg('C', cstr("SELECT 2")) + ready;
  std::string got; // what the server was sent
  // The server answers the startup, the first query, then the Sync and the
  // second query apart, so that the proxy's count of the replies it is owed
  // decides where its own reply to the third goes.
  std::thread server([&] {
    int c = accept(ls, nullptr, nullptr);
    auto answer = [&](size_t n, const std::string &reply) {
      got += readUpTo(c, n);
      send(c, reply.data(), reply.size(), MSG_NOSIGNAL);
    };
    answer(startup.size(), ready);
    answer(q1.size(), done1);
    answer(sync.size() + q2.size(), ready);
    std::this_thread::sleep_for(100ms);
    send(c, done2.data(), done2.size(), MSG_NOSIGNAL);
    got += readUpTo(c, SIZE_MAX); // until the proxy closes
    close(c);
  });
  Trace trace;
  {
    ProxyHub hub(trace);
    std::string error;
    ASSERT_TRUE(hub.add({0, "db", "main", "postgres", serverPort, 0, ""}, error)) << error;
    hub.start();
    std::vector<ProxyRuleSpec> rules{rule(ir::ProxyAction::Delay, "db.main:delay"),
                                     rule(ir::ProxyAction::Error, "db.main:error")};
    rules[0].rule.delayNs = 20000000;
    rules[0].rule.query = ir::sqlNormalizePattern("SELECT x FROM a");
    rules[1].rule.query = ir::sqlNormalizePattern("SELECT z FROM c");
    hub.rules().push(std::move(rules));
    int client = dialLoopback(hub.endpoints()[0].proxyPort);
    ASSERT_GE(client, 0);
    sendAll(client, startup);
    EXPECT_EQ(readUpTo(client, ready.size()), ready);
    sendAll(client, q1);
    EXPECT_EQ(readUpTo(client, done1.size()), done1);
    sendAll(client, sync + q2 + q3);
    // The Sync's ReadyForQuery ends no query: the injected error waits for
    // the second query's reply.
    const std::string injected = msg('E', cstr("SERROR") + cstr("VERROR") + cstr("CXX000") +
                                              cstr("Mfbc: injected fault") + std::string(1, '\0')) +
                                 ready;
    const std::string want = ready + done2 + injected;
    EXPECT_EQ(readUpTo(client, want.size()), want);
    close(client);
    server.join();
  }
  close(ls);
  EXPECT_EQ(got, startup + q1 + sync + q2);
}

TEST(ProxyDelay, AnHttpRequestWhoseBodyFollowsTheDelayKeepsItsFraming) {
  uint16_t serverPort = 0;
  int ls = listenLoopback(serverPort);
  ASSERT_GE(ls, 0);
  const std::string head = "POST /slow HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\n";
  const std::string ok = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";
  std::string got;
  std::thread server([&] {
    int c = accept(ls, nullptr, nullptr);
    got += readUpTo(c, head.size() + 5);
    send(c, ok.data(), ok.size(), MSG_NOSIGNAL);
    got += readUpTo(c, SIZE_MAX);
    close(c);
  });
  Trace trace;
  {
    ProxyHub hub(trace);
    std::string error;
    ASSERT_TRUE(hub.add({0, "api", "main", "http", serverPort, 0, ""}, error)) << error;
    hub.start();
    std::vector<ProxyRuleSpec> rules{rule(ir::ProxyAction::Delay, "api.main:delay"),
                                     rule(ir::ProxyAction::Error, "api.main:error")};
    rules[0].rule.delayNs = 20000000;
    rules[0].rule.path = "/slow";
    rules[1].rule.path = "/fail";
    hub.rules().push(std::move(rules));
    int client = dialLoopback(hub.endpoints()[0].proxyPort);
    ASSERT_GE(client, 0);
    sendAll(client, head);
    std::this_thread::sleep_for(150ms); // the timer fires with the head alone
    sendAll(client, "hello" + std::string("GET /fail HTTP/1.1\r\nHost: h\r\n\r\n"));
    const std::string body = "{\"error\":\"Internal Server Error\"}";
    const std::string want = ok +
                             "HTTP/1.1 500 Internal Server Error\r\nContent-Type: "
                             "application/json\r\nContent-Length: " +
                             std::to_string(body.size()) + "\r\n\r\n" + body;
    EXPECT_EQ(readUpTo(client, want.size()), want);
    close(client);
    server.join();
  }
  close(ls);
  EXPECT_EQ(got, head + "hello");
}

} // namespace
} // namespace fbc::rt
