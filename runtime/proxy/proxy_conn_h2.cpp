// A connection's HTTP/2 bridge (proxy_h2.h): what the connection feeds it,
// writes for it, and does for it as its Host. See proxy_conn.h.
#include "runtime/proxy/proxy_conn.h"

namespace fbc::rt {

void ProxyHub::Conn::startH2(bool grpc) {
  h2 = std::make_unique<H2Bridge>(*this, grpc);
}

void ProxyHub::Conn::h2FromClient(std::string_view b) {
  switch (h2->fromClient(b)) {
  case H2Bridge::Fed::Ok:
    break;
  case H2Bridge::Fed::NotHttp2: // not HTTP/2's preface: plain TCP from here on
    pending = h2->notHttp2Bytes();
    h2.reset();
    return processClient();
  case H2Bridge::Fed::Broken:
    h2Flush(); // the GOAWAY the session owes, as far as the socket takes it
    client.out.flush(client.fd);
    return hub.retire(this);
  }
  if (!dead)
    h2Flush();
}

void ProxyHub::Conn::h2FromServer(std::string_view b) {
  if (h2->fromServer(b) == H2Bridge::Fed::Broken)
    return hub.retire(this);
  h2Flush();
}

void ProxyHub::Conn::h2Flush() {
  h2->takeForClient(client.out);
  if (h2->takeForServer(server.out) && server.fd < 0)
    hub.dial(*this);
}

ProxyDecision ProxyHub::Conn::decide(const std::string &method, const std::string &target) {
  RequestInfo info;
  info.method = method;
  info.target = target;
  return decideUnit(ProxyUnit::Request, info);
}

void ProxyHub::Conn::after(int64_t ns, std::function<void()> fn) {
  later(ns, [fn = std::move(fn)](Conn &c) {
    if (c.dead || !c.h2)
      return;
    fn();
    if (!c.dead)
      c.h2Flush(); // may dial, and a refused dial retires the connection
    if (!c.dead)
      c.pump();
  });
}

} // namespace fbc::rt
