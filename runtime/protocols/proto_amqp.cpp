#include "runtime/protocols/proto_amqp.h"

#include "ir/amqp_reply_codes.h"

#include <algorithm>
#include <utility>

namespace fbc::rt {

namespace {

uint8_t u8(std::string_view s, size_t at) {
  return static_cast<uint8_t>(s[at]);
}
uint16_t be16(std::string_view s, size_t at) {
  return static_cast<uint16_t>(u8(s, at) << 8 | u8(s, at + 1));
}
uint32_t be32(std::string_view s, size_t at) {
  return uint32_t(be16(s, at)) << 16 | be16(s, at + 2);
}
uint64_t be64(std::string_view s, size_t at) {
  return uint64_t(be32(s, at)) << 32 | be32(s, at + 4);
}
void put16(std::string &out, uint16_t v) {
  out.push_back(static_cast<char>(v >> 8));
  out.push_back(static_cast<char>(v & 0xff));
}
void put32(std::string &out, uint32_t v) {
  put16(out, static_cast<uint16_t>(v >> 16));
  put16(out, static_cast<uint16_t>(v & 0xffff));
}

// A short string at `at` of a method's arguments (a length octet, then
// the bytes); false if it runs past them.
bool shortString(std::string_view args, size_t &at, std::string_view &out) {
  if (at >= args.size() || args.size() - at - 1 < u8(args, at))
    return false;
  out = args.substr(at + 1, u8(args, at));
  at += 1 + out.size();
  return true;
}

bool validType(uint8_t type) {
  return type == kAmqpFrameMethod || type == kAmqpFrameHeader || type == kAmqpFrameBody ||
         type == 8; // heartbeat
}

constexpr int kDefaultReplyCode = 406;

// What the proxy tells the server when it closes a channel (or the
// connection) in the client's name: a normal close.
constexpr uint16_t kReplySuccess = 200;
constexpr std::string_view kClosedText = "closed by fbc's proxy";

} // namespace

AmqpParse parseAmqpFrame(std::string_view s, AmqpFrame &f) {
  if (s.size() < 7)
    return AmqpParse::NeedMore;
  f = AmqpFrame{};
  f.type = u8(s, 0);
  f.channel = be16(s, 1);
  uint32_t size = be32(s, 3);
  if (!validType(f.type) || size > kAmqpMaxFrame || (f.type == kAmqpFrameMethod && size < 4))
    return AmqpParse::Bad;
  size_t need = 7 + size_t(size) + 1;
  if (s.size() < need)
    return AmqpParse::NeedMore;
  if (u8(s, need - 1) != kAmqpFrameEnd)
    return AmqpParse::Bad;
  f.payload = s.substr(7, size);
  f.length = need;
  if (f.type == kAmqpFrameMethod) {
    f.classId = be16(f.payload, 0);
    f.methodId = be16(f.payload, 2);
  }
  return AmqpParse::Frame;
}

std::string amqpMethodFrame(uint16_t channel, uint16_t cls, uint16_t method,
                            std::string_view args) {
  std::string out;
  out.push_back(static_cast<char>(kAmqpFrameMethod));
  put16(out, channel);
  put32(out, static_cast<uint32_t>(4 + args.size()));
  put16(out, cls);
  put16(out, method);
  out.append(args);
  out.push_back(static_cast<char>(kAmqpFrameEnd));
  return out;
}

std::string amqpCloseArgs(uint16_t code, std::string_view text, uint16_t cls, uint16_t method) {
  std::string out;
  put16(out, code);
  text = text.substr(0, 255);
  out.push_back(static_cast<char>(text.size()));
  out.append(text);
  put16(out, cls);
  put16(out, method);
  return out;
}

AmqpCodec::Closing *AmqpCodec::closing(uint16_t channel) {
  for (Closing &c : closing_)
    if (c.channel == channel)
      return &c;
  return nullptr;
}

void AmqpCodec::forget(uint16_t channel) {
  std::erase_if(closing_,
                [&](const Closing &c) { return c.channel == channel && !c.client && !c.server; });
}

RequestInfo AmqpCodec::splitRequest(std::string_view pending) {
  RequestInfo info;
  auto notAmqp = [&] {
    info.split = Split::NotThisProtocol;
    info.length = pending.size();
    return info;
  };
  if (!headerPassed_) {
    // "AMQP" and the version: any version passes (the server answers one
    // it does not speak with its own header and closes).
    size_t n = std::min(pending.size(), size_t(4));
    if (pending.substr(0, n) != kAmqpProtocolHeader.substr(0, n))
      return notAmqp();
    if (pending.size() < kAmqpProtocolHeader.size())
      return info;
    headerPassed_ = true;
    info.split = Split::Passthrough;
    info.length = kAmqpProtocolHeader.size();
    return info;
  }
  AmqpFrame f;
  switch (parseAmqpFrame(pending, f)) {
  case AmqpParse::NeedMore:
    return info;
  case AmqpParse::Bad:
    return notAmqp();
  case AmqpParse::Frame:
    break;
  }
  // A channel the client closed (its Close-Ok came) before the server did:
  // its next frame (a Channel.Open of the same number) waits for the
  // server's Close-Ok, as a client waits for it after its own
  // Channel.Close. RabbitMQ sends that Close-Ok once it has forgotten the
  // channel; an Open before it is a connection error ("second
  // 'channel.open' seen"). filterResponse() ends the wait.
  if (Closing *c = f.channel ? closing(f.channel) : nullptr; c && !c->client && c->server)
    return info;
  info.length = f.length;
  info.split = Split::Passthrough;
  // A channel (or the connection) the proxy closed: the client's frames on
  // it are discarded up to its Close-Ok, as the server discards them after
  // its Channel.Close.
  for (uint16_t ch : {uint16_t(0), f.channel}) {
    Closing *c = closing(ch);
    if (!c || !c->client)
      continue;
    uint16_t cls = ch == 0 ? kAmqpConnection : kAmqpChannel;
    uint16_t ok = ch == 0 ? kAmqpConnCloseOk : kAmqpCloseOk;
    if (f.channel == ch && f.type == kAmqpFrameMethod && f.classId == cls && f.methodId == ok) {
      c->client = false;
      forget(ch);
    }
    info.split = Split::Discard;
    return info;
  }
  if (f.type != kAmqpFrameMethod || f.classId != kAmqpBasic || f.methodId != kAmqpPublish)
    return info;
  // Basic.Publish: reserved short, exchange, routing key, bits.
  size_t at = 6;
  std::string_view exchange, routingKey;
  if (!shortString(f.payload, at, exchange) || !shortString(f.payload, at, routingKey))
    return notAmqp();
  // Its content header, then body frames up to the header's body size,
  // all on its channel and next to it.
  size_t end = f.length;
  AmqpFrame h;
  AmqpParse p = parseAmqpFrame(pending.substr(end), h);
  if (p == AmqpParse::NeedMore)
    return RequestInfo{};
  if (p == AmqpParse::Bad || h.type != kAmqpFrameHeader || h.channel != f.channel ||
      h.payload.size() < 14)
    return notAmqp();
  uint64_t bodySize = be64(h.payload, 4);
  end += h.length;
  for (uint64_t got = 0; got < bodySize;) {
    AmqpFrame b;
    p = parseAmqpFrame(pending.substr(end), b);
    if (p == AmqpParse::NeedMore)
      return RequestInfo{};
    if (p == AmqpParse::Bad || b.type != kAmqpFrameBody || b.channel != f.channel ||
        b.payload.size() > bodySize - got)
      return notAmqp();
    got += b.payload.size();
    end += b.length;
  }
  info.split = Split::Request;
  info.length = end;
  info.last = true;
  info.method = exchange;
  info.target = routingKey;
  info.noReply = true;
  channel_ = f.channel;
  return info;
}

size_t AmqpCodec::feedResponse(std::string_view, std::string &) {
  return 0; // a publish is owed nothing (see proto_amqp.h)
}

std::string AmqpCodec::reply(const ReplySpec &spec, const RequestInfo &) {
  replacement_.clear();
  if (spec.kind == ReplyKind::Response)
    return "";
  std::string_view message = spec.message;
  // status= is one of the table's codes (ir/spec.cpp refuses any other at
  // load).
  const ir::AmqpReplyCode *named = ir::findAmqpReplyCode(message.substr(0, message.find(' ')));
  const ir::AmqpReplyCode *reply = spec.status ? ir::findAmqpReplyCode(spec.status) : named;
  if (!reply)
    reply = ir::findAmqpReplyCode(kDefaultReplyCode);
  std::string text(message);
  if (text.empty())
    text = std::string(reply->name) + " - injected by fbc";
  else if (!named)
    text = std::string(reply->name) + " - " + text;
  // The proxy asks for the reply of the publish it split last: it splits
  // nothing more while a unit waits for its decision.
  bool hard = reply->hard;
  uint16_t ch = hard ? 0 : channel_;
  uint16_t cls = hard ? kAmqpConnection : kAmqpChannel;
  uint16_t close = hard ? kAmqpConnClose : kAmqpClose;
  if (!closing(ch))
    closing_.push_back(Closing{ch});
  replacement_ = amqpMethodFrame(ch, cls, close, amqpCloseArgs(kReplySuccess, kClosedText, 0, 0));
  return amqpMethodFrame(
      ch, cls, close,
      amqpCloseArgs(static_cast<uint16_t>(reply->code), text, kAmqpBasic, kAmqpPublish));
}

std::string AmqpCodec::replacement() {
  return std::exchange(replacement_, {});
}

// Whether a server frame reaches the client: not on a channel (or a
// connection) the proxy closed before the server's Close-Ok, which ends
// the wait.
bool AmqpCodec::serverFrameKept(uint8_t type, uint16_t channel, std::string_view method) {
  for (uint16_t ch : {uint16_t(0), channel}) {
    Closing *c = closing(ch);
    if (!c || !c->server)
      continue;
    uint16_t cls = ch == 0 ? kAmqpConnection : kAmqpChannel;
    uint16_t ok = ch == 0 ? kAmqpConnCloseOk : kAmqpCloseOk;
    if (channel == ch && type == kAmqpFrameMethod && method.size() >= 4 && be16(method, 0) == cls &&
        be16(method, 2) == ok) {
      c->server = false;
      forget(ch);
    }
    return false;
  }
  return true;
}

bool AmqpCodec::filterResponse(std::string_view bytes, std::string &forward) {
  if (serverBad_)
    return false;
  // Nothing is kept from the client while no close is pending: the
  // frames are only counted (no copy), their header bytes sent as they come.
  const bool filtering = !closing_.empty() || (!serverHead_.empty() && !serverHeadSent_);
  std::string out;
  size_t i = 0;
  while (i < bytes.size()) {
    if (serverRest_ > 0) {
      size_t n = std::min(serverRest_, bytes.size() - i);
      if (filtering && !serverDropping_)
        out.append(bytes.substr(i, n));
      i += n;
      serverRest_ -= n;
      continue;
    }
    if (!serverStarted_) {
      serverStarted_ = true;
      if (bytes[i] == 'A') { // its protocol header: it refused the client's version
        serverRest_ = kAmqpProtocolHeader.size();
        serverDropping_ = false;
        continue;
      }
    }
    // A frame begins: its header, and a method frame's ids when a close
    // is pending, to tell a Close-Ok.
    size_t want = 7;
    for (;;) {
      size_t n = std::min(want - std::min(want, serverHead_.size()), bytes.size() - i);
      serverHead_.append(bytes.substr(i, n));
      i += n;
      if (serverHead_.size() < want)
        break;
      if (want == 7 && filtering && !serverHeadSent_ && u8(serverHead_, 0) == kAmqpFrameMethod &&
          be32(serverHead_, 3) >= 4) {
        want = 11;
        continue;
      }
      break;
    }
    if (serverHead_.size() < want) {
      serverHeadSent_ = serverHeadSent_ || !filtering;
      break;
    }
    uint8_t type = u8(serverHead_, 0);
    uint32_t size = be32(serverHead_, 3);
    if (!validType(type) || size > kAmqpMaxFrame) {
      // Not AMQP: forwarded as it is from here on.
      serverBad_ = true;
      if (filtering && !serverHeadSent_)
        out.append(serverHead_);
      if (filtering)
        out.append(bytes.substr(i));
      i = bytes.size();
      break;
    }
    bool kept =
        serverHeadSent_ || !filtering ||
        serverFrameKept(type, be16(serverHead_, 1), std::string_view(serverHead_).substr(7));
    if (filtering && kept && !serverHeadSent_)
      out.append(serverHead_);
    serverRest_ = 7 + size_t(size) + 1 - serverHead_.size();
    serverDropping_ = !kept;
    serverHead_.clear();
    serverHeadSent_ = false;
  }
  if (!filtering)
    return false;
  forward = std::move(out);
  return true;
}

} // namespace fbc::rt
