// The proxy's HTTP/2 (http2 and grpc interfaces): one bridge per proxied
// connection, terminating HTTP/2 on both sides with libnghttp2 (Debian
// libnghttp2-dev; docs/architecture.md says why the library frames it).
// Towards the client the bridge is an HTTP/2 server session, towards the
// service a client session; each request stream the client opens is
// decided by the rule table once its headers are in (a gRPC call by its
// full method name, the :path "/pkg.Service/Method"; plain HTTP/2 by
// :method and :path) and then, per stream:
//   forwarded   the same header fields on a stream of the upstream session,
//               its body as it comes, the response, body and trailers
//               (a gRPC call's grpc-status) back as they come;
//   delayed     a timer of the connection's loop holds that stream only,
//               the connection's other streams go on;
//   answered    error()/response() in the protocol: gRPC's trailers-only
//               response with grpc-status and a percent-encoded
//               grpc-message (error(status=) 0-16, default 13 INTERNAL), or
//               a length-prefixed message (response(body=)) with status 0;
//               plain HTTP/2 a :status with a body, as HTTP/1.1's codec
//               answers; the service never sees the stream;
//   dropped     the whole connection closes (FIN, or RST with reset=True).
// Both sessions keep their own SETTINGS, HPACK tables and flow-control
// windows, so what the proxy answers or holds never desynchronises either
// peer's header compression. Connection-level frames (SETTINGS, PING,
// WINDOW_UPDATE) are each session's own and are not relayed.
//
// The session towards the service writes nothing until a request is
// forwarded: a connection whose requests the proxy answers never occupies
// the service. Bytes that do not begin with the HTTP/2 client preface (an
// HTTP/1.1 client on an http2 interface) are handed back to be relayed as
// plain TCP.
//
// Threading: the proxy's loop thread only, like the codecs
// (proxy_protocol.h); the bridge does no I/O of its own.
#pragma once

#include "runtime/protocols/h2_session.h"
#include "runtime/proxy/proxy_rules.h"
#include "runtime/proxy/relay_socket.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

struct nghttp2_session;

namespace fbc::rt {

class H2Bridge {
public:
  // What the bridge asks of the connection it serves.
  struct Host {
    virtual ~Host() = default;
    // The rule table's decision on one request, its `proxy` event recorded
    // when a rule decided it (as for a codec's request).
    virtual ProxyDecision decide(const std::string &method, const std::string &target) = 0;
    // Runs `fn` on the loop after `ns`, unless the connection is gone by
    // then; the connection writes what the bridge then owes either side.
    virtual void after(int64_t ns, std::function<void()> fn) = 0;
    // drop(): closes the connection (with RST when `reset`). The bridge
    // does nothing more once it called this.
    virtual void drop(bool reset) = 0;
  };

  // `grpc`: requests are gRPC calls, matched and answered as such.
  H2Bridge(Host &host, bool grpc);
  ~H2Bridge();
  H2Bridge(const H2Bridge &) = delete;
  H2Bridge &operator=(const H2Bridge &) = delete;

  enum class Fed {
    Ok,
    NotHttp2, // no client preface: relay notHttp2Bytes() and the rest as TCP
    Broken,   // a protocol error: what the session owes the peer, then close
  };
  Fed fromClient(std::string_view bytes);
  Fed fromServer(std::string_view bytes);
  // The client's bytes so far, after fromClient() said NotHttp2.
  std::string notHttp2Bytes() { return std::move(early_); }

  // Appends the bytes each side is owed now to its out buffer (the
  // service's: none until a request was forwarded; true when it was owed
  // some).
  void takeForClient(tcp_relay::OutBuffer &to);
  bool takeForServer(tcp_relay::OutBuffer &to);

  using Fields = std::vector<std::pair<std::string, std::string>>;
  // One request stream, by the client's stream id.
  struct Stream {
    int32_t up = -1;            // its upstream stream once forwarded
    Fields request;             // the header fields as the client sent them
    std::string method, target; // what the rules match (grpc: the :path, "")
    // The request body not yet taken upstream (ended: the client's
    // END_STREAM came).
    H2Body body;
    bool answered = false; // the proxy replied: the client's body is discarded
    Fields response, trailers;
    // The response body not yet taken downstream (ended: the service's
    // END_STREAM came, or the proxy's reply is whole).
    H2Body resp;
    bool upClosed = false;
  };

private:
  void request(int32_t id);
  void apply(int32_t id, ProxyDecision d);
  void forward(int32_t id, Stream &s);
  void reply(int32_t id, Stream &s, const ReplySpec &spec);
  // Callbacks of the two sessions (proxy_h2.cpp).
  friend struct H2Callbacks;

  Host &host_;
  bool grpc_;
  nghttp2_session *down_ = nullptr;   // the client's: we are its server
  nghttp2_session *up_ = nullptr;     // the service's: we are its client
  bool upStarted_ = false;            // a request went upstream: its bytes flow
  bool dropped_ = false;              // a drop() closed the connection
  bool preface_ = false;              // the client's preface was accepted
  std::string early_;                 // the client's bytes until then
  std::map<int32_t, Stream> streams_; // by the client's stream id
  std::map<int32_t, int32_t> byUp_;   // upstream stream id -> client's
};

} // namespace fbc::rt
