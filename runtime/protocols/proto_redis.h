// The Redis protocol (RESP2) as fbc reads and writes it, over hiredis's
// reader (Debian libhiredis-dev): one decoded value type for replies
// (RespValue: what the Redis step returns), its encoder, the error reply a
// proxy rule synthesises, an incremental reply reader, and the proxy codec
// (runtime/protocols/proxy_protocol.h) that splits a client's stream into commands
// (command name and first key, for rule matching) and counts the server's
// replies.
#pragma once

#include "runtime/protocols/proxy_protocol.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace fbc::rt {

struct RespValue {
  enum class Type { String, Status, Error, Integer, Nil, Array };
  Type type = Type::Nil;
  std::string str; // String, Status, Error (the message without "-")
  int64_t integer = 0;
  std::vector<RespValue> elements; // Array

  static RespValue string(std::string s);
  static RespValue status(std::string s);
  static RespValue error(std::string message);
  static RespValue integerValue(int64_t v);
  static RespValue nil() { return {}; }
  static RespValue array(std::vector<RespValue> elems);
  bool operator==(const RespValue &) const = default;
};

// The RESP2 bytes of `v` ("$3\r\nabc\r\n", ":1\r\n", "*-1"-free: a nil is
// "$-1\r\n"). CR and LF in a Status or Error become spaces.
std::string encodeResp(const RespValue &v);

// The error reply a proxy rule sends: "-<message>\r\n". A message that does
// not start with an upper-case error code ("ERR", "LOADING", "WRONGTYPE"
// followed by a space) gets "ERR " in front; empty is "ERR injected fault".
std::string respErrorReply(std::string_view message);

// A short, one-line rendering for traces: "abc", 1, nil, (error) ERR x,
// [a, 1, nil].
std::string describeResp(const RespValue &v);

// The first key of a command (args[0] is the name in any case): the
// position Redis's command table gives for the commands that have one
// elsewhere than args[1] (EVAL, BITOP, OBJECT, XREAD ...), "" for commands
// without a key (PING, INFO, AUTH, MULTI ...).
std::string respFirstKey(const std::vector<std::string> &args);

// Reads a server's byte stream into replies (a proxy forwards the bytes as
// they come and counts complete replies; one per command while the
// connection is not in pub/sub mode).
class RespReplyReader {
public:
  RespReplyReader();
  ~RespReplyReader();
  RespReplyReader(const RespReplyReader &) = delete;
  RespReplyReader &operator=(const RespReplyReader &) = delete;

  void feed(std::string_view bytes);
  enum class Next { Reply, NeedMore, ProtocolError };
  Next next(RespValue &out, std::string &error);

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The proxy codec of interface(protocol="redis"). A request is one command:
// a RESP array of bulk strings (what client libraries send, framed by
// hiredis's reader) or an inline command ("PING\r\n", split on blanks).
// RequestInfo::method is the command upper-cased, target its first key.
// SUBSCRIBE, PSUBSCRIBE, SSUBSCRIBE and MONITOR turn the connection into a
// stream of pushes that are not replies to commands: from there on it is
// passed through (NotThisProtocol), as is a stream hiredis cannot read
// (RESP3 after HELLO 3). reply(): Error -> respErrorReply(message);
// Response -> the body as a bulk string, "+OK" without one.
class RedisCodec final : public ProtocolCodec {
public:
  RedisCodec();
  ~RedisCodec() override;
  RequestInfo splitRequest(std::string_view pending) override;
  size_t feedResponse(std::string_view bytes, std::string &status) override;
  std::string reply(const ReplySpec &spec, const RequestInfo &req) override;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The short status of a reply for the proxy's trace: "+OK", "-ERR",
// ":1", "$3", "$-1" (nil), "*2".
std::string respStatus(const RespValue &v);

} // namespace fbc::rt
