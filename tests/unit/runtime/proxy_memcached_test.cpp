// The proxy with the memcached codec in front of a server (a thread of the
// test that reads and never answers): a request sent with `noreply` is owed
// no reply, so a rule's answer to the next request goes out at once instead
// of waiting behind a reply that never comes.
#include "runtime/proxy/proxy.h"
#include "runtime/trace/trace.h"
#include "tests/unit/runtime/loopback.h"

#include <gtest/gtest.h>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>
#include <thread>

namespace fbc::rt {
namespace {

TEST(ProxyMemcached, ANoreplyRequestIsOwedNoReply) {
  uint16_t serverPort = 0;
  int ls = listenLoopback(serverPort);
  ASSERT_GE(ls, 0);
  std::thread server([ls] { // reads what the proxy forwards, answers nothing
    int c = accept(ls, nullptr, nullptr);
    char buf[256];
    while (c >= 0 && recv(c, buf, sizeof buf, 0) > 0) {
    }
    if (c >= 0)
      close(c);
  });
  Trace trace;
  {
    ProxyHub hub(trace);
    std::string error;
    ASSERT_TRUE(hub.add({0, "cache", "main", "memcached", serverPort, 0, ""}, error)) << error;
    hub.start();
    ProxyRuleSpec spec;
    spec.rule.action = ir::ProxyAction::Error;
    spec.rule.command = "get";
    spec.siteKey = "cache.main:error";
    std::vector<ProxyRuleSpec> rules;
    rules.push_back(spec);
    hub.rules().push(std::move(rules));
    int client = dialLoopback(hub.endpoints()[0].proxyPort);
    ASSERT_GE(client, 0);
    std::string req = "set k 0 0 1 noreply\r\nx\r\nget k\r\n";
    ASSERT_EQ(send(client, req.data(), req.size(), MSG_NOSIGNAL), ssize_t(req.size()));
    std::string want = "SERVER_ERROR injected by fbc\r\n";
    EXPECT_EQ(readUpTo(client, want.size()), want);
    close(client);
  }
  shutdown(ls, SHUT_RDWR);
  close(ls);
  server.join();
}

} // namespace
} // namespace fbc::rt
