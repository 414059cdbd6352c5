// The proxy's side of the hold queue (runtime/proxy/proxy_hold.h): with a
// sink set, each request the proxy would relay waits in it and goes to the
// sink, a connection at most one at a time; the server sees it only once
// released, in the order released; a delay() timer keeps the hub from
// being idle until it fires (the explorer's quiescence check reads that);
// a null sink stops holding.
#include "runtime/proxy/proxy.h"
#include "runtime/trace/trace.h"
#include "tests/unit/runtime/loopback.h"

#include <gtest/gtest.h>

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace fbc::rt {
namespace {

using namespace std::chrono_literals;

// A server that records every byte it is sent, in arrival order, and
// answers nothing.
struct Recorder {
  int ls = -1;
  uint16_t port = 0;
  std::atomic<bool> stop{false};
  std::mutex mu;
  std::string got;
  std::thread thread;

  Recorder() {
    ls = listenLoopback(port);
    thread = std::thread([this] { serve(); });
  }
  ~Recorder() {
    stop = true;
    thread.join();
    close(ls);
  }
  void serve() {
    std::vector<pollfd> fds{{ls, POLLIN, 0}};
    while (!stop) {
      if (poll(fds.data(), fds.size(), 20) <= 0)
        continue;
      if (fds[0].revents & POLLIN)
        fds.push_back({accept(ls, nullptr, nullptr), POLLIN, 0});
      for (size_t i = 1; i < fds.size(); ++i) {
        char buf[512];
        ssize_t n = (fds[i].revents & POLLIN) ? recv(fds[i].fd, buf, sizeof buf, 0) : 0;
        if (n > 0) {
          std::lock_guard lock(mu);
          got.append(buf, size_t(n));
        }
      }
    }
    for (size_t i = 1; i < fds.size(); ++i)
      close(fds[i].fd);
  }
  std::string seen() {
    std::lock_guard lock(mu);
    return got;
  }
  // Waits up to 5 s for what it was sent to be `want`.
  std::string waitFor(const std::string &want) {
    for (int i = 0; i < 500 && seen() != want; ++i)
      std::this_thread::sleep_for(10ms);
    return seen();
  }
};

struct Sink final : MessageSink {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<HeldMessage> held;
  void heldMessage(const HeldMessage &m) override {
    std::lock_guard lock(mu);
    held.push_back(m);
    cv.notify_all();
  }
  // The messages held so far, once there are `n` (or after `most`).
  std::vector<HeldMessage> waitFor(size_t n, std::chrono::milliseconds most = 5s) {
    std::unique_lock lock(mu);
    cv.wait_for(lock, most, [&] { return held.size() >= n; });
    return held;
  }
};

std::string resp(const std::vector<std::string> &args) {
  std::string out;
  out.append("*").append(std::to_string(args.size())).append("\r\n");
  for (const std::string &a : args)
    out.append("$").append(std::to_string(a.size())).append("\r\n").append(a).append("\r\n");
  return out;
}

TEST(ProxyHold, RequestsWaitOneAtATimePerConnectionAndGoInTheOrderReleased) {
  Recorder server;
  ASSERT_NE(server.port, 0);
  Trace trace;
  ProxyHub hub(trace);
  std::string error;
  ASSERT_TRUE(hub.add({3, "cache", "main", "redis", server.port, 0, ""}, error)) << error;
  hub.start();
  Sink sink;
  hub.holdMessages(&sink);
  int a = dialLoopback(hub.endpoints()[0].proxyPort);
  int b = dialLoopback(hub.endpoints()[0].proxyPort);
  ASSERT_GE(a, 0);
  ASSERT_GE(b, 0);
  std::string getA = resp({"GET", "hits"}), setA = resp({"SET", "hits", "1"});
  std::string getB = resp({"GET", "misses"});
  sendAll(a, getA + setA); // two commands in one write: the second waits behind the first
  std::vector<HeldMessage> held = sink.waitFor(1);
  sendAll(b, getB);
  held = sink.waitFor(2);
  ASSERT_EQ(held.size(), 2u);
  EXPECT_EQ(held[0].service, 3u);
  EXPECT_EQ(held[0].what, "GET");
  EXPECT_EQ(held[0].protocol, "redis");
  EXPECT_EQ(held[0].serverPort, server.port);
  EXPECT_EQ(held[0].bytes, getA);
  EXPECT_TRUE(held[0].framed);
  EXPECT_EQ(held[1].bytes, getB);
  EXPECT_NE(held[0].conn, held[1].conn);
  std::this_thread::sleep_for(100ms);
  EXPECT_EQ(server.seen(), "") << "nothing reaches the server before a release";
  EXPECT_TRUE(hub.idle());
  // B's first, then A's GET: only then is A's SET held.
  hub.releaseMessage(held[1].conn);
  EXPECT_EQ(server.waitFor(getB), getB);
  hub.releaseMessage(held[0].conn);
  EXPECT_EQ(server.waitFor(getB + getA), getB + getA);
  held = sink.waitFor(3);
  ASSERT_EQ(held.size(), 3u);
  EXPECT_EQ(held[2].what, "SET");
  EXPECT_EQ(held[2].conn, held[0].conn);
  EXPECT_EQ(held[2].bytes, setA);
  hub.releaseMessage(held[2].conn);
  EXPECT_EQ(server.waitFor(getB + getA + setA), getB + getA + setA);
  // A released connection with nothing held: nothing happens.
  hub.releaseMessage(held[2].conn);
  // Without a sink, requests go straight on.
  hub.holdMessages(nullptr);
  std::string getC = resp({"GET", "c"});
  sendAll(b, getC);
  EXPECT_EQ(server.waitFor(getB + getA + setA + getC), getB + getA + setA + getC);
  EXPECT_EQ(sink.waitFor(4, 200ms).size(), 3u);
  close(a);
  close(b);
}

// A delay() rule's timer is work the proxy will do on its own: the hub is
// not idle until it fires (then the request is held for the explorer).
TEST(ProxyHold, ADelayTimerKeepsTheHubBusy) {
  Recorder server;
  Trace trace;
  ProxyHub hub(trace);
  std::string error;
  ASSERT_TRUE(hub.add({0, "cache", "main", "redis", server.port, 0, ""}, error)) << error;
  hub.start();
  ProxyRuleSpec spec;
  spec.rule.action = ir::ProxyAction::Delay;
  spec.rule.command = "GET";
  spec.rule.delayNs = 300000000;
  spec.siteKey = "cache.main:delay";
  std::vector<ProxyRuleSpec> rules;
  rules.push_back(spec);
  hub.rules().push(std::move(rules));
  Sink sink;
  hub.holdMessages(&sink);
  int a = dialLoopback(hub.endpoints()[0].proxyPort);
  ASSERT_GE(a, 0);
  EXPECT_TRUE(hub.idle());
  auto sent = std::chrono::steady_clock::now();
  sendAll(a, resp({"GET", "k"}));
  std::this_thread::sleep_for(100ms);
  EXPECT_FALSE(hub.idle()) << "the delay's timer is armed";
  EXPECT_EQ(sink.waitFor(1).size(), 1u);
  EXPECT_GE(std::chrono::steady_clock::now() - sent, 300ms);
  EXPECT_TRUE(hub.idle());
  hub.releaseMessage(sink.waitFor(1)[0].conn);
  EXPECT_EQ(server.waitFor(resp({"GET", "k"})), resp({"GET", "k"}));
  hub.holdMessages(nullptr);
  close(a);
}

// A service that accepts the proxy's connection and resets it before the
// loop has seen the connect complete (a TLS terminator refusing the
// service's certificate does that under load): the connection existed, so
// the caller's ends as any reset service connection ends it, with a FIN,
// not with the reset of a refused dial. The hold queue stalls the loop
// between the dial and its completion: releasing A's first command dials,
// then holds the second in the same turn, and the sink waits there until
// the service has reset.
TEST(ProxyHold, AServiceResetBeforeTheConnectIsSeenEndsTheCallerNotResetsIt) {
  uint16_t port = 0;
  int ls = listenLoopback(port);
  ASSERT_GE(ls, 0);
  std::atomic<bool> reset{false};
  std::thread service([&] {
    int c = accept(ls, nullptr, nullptr);
    linger l{1, 0};
    setsockopt(c, SOL_SOCKET, SO_LINGER, &l, sizeof l);
    close(c);
    reset = true;
  });
  struct StallingSink final : MessageSink {
    std::atomic<bool> &reset;
    std::mutex mu;
    std::condition_variable cv;
    std::vector<HeldMessage> held;
    explicit StallingSink(std::atomic<bool> &r) : reset(r) {}
    void heldMessage(const HeldMessage &m) override {
      std::unique_lock lock(mu);
      held.push_back(m);
      cv.notify_all();
      if (held.size() < 2)
        return;
      for (int i = 0; i < 500 && !reset; ++i)
        std::this_thread::sleep_for(10ms);
      std::this_thread::sleep_for(50ms); // the reset reaches the proxy's socket
    }
  } sink(reset);
  Trace trace;
  ProxyHub hub(trace);
  std::string error;
  ASSERT_TRUE(hub.add({0, "cache", "main", "redis", port, 0, ""}, error)) << error;
  hub.start();
  hub.holdMessages(&sink);
  int a = dialLoopback(hub.endpoints()[0].proxyPort);
  ASSERT_GE(a, 0);
  sendAll(a, resp({"GET", "k"}) + resp({"GET", "j"}));
  {
    std::unique_lock lock(sink.mu);
    ASSERT_TRUE(sink.cv.wait_for(lock, 5s, [&] { return !sink.held.empty(); }));
  }
  hub.releaseMessage(sink.held[0].conn);
  service.join();
  EXPECT_TRUE(reset);
  pollfd p{a, POLLIN, 0};
  ASSERT_EQ(poll(&p, 1, 5000), 1);
  char byte = 0;
  errno = 0;
  EXPECT_EQ(recv(a, &byte, 1, 0), 0) << "the caller saw: " << std::strerror(errno);
  hub.holdMessages(nullptr);
  close(a);
  close(ls);
}

} // namespace
} // namespace fbc::rt
