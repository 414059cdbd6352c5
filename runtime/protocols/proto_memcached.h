// The memcached text protocol, as the fault proxy and the memcached steps
// read it (https://github.com/memcached/memcached/blob/master/doc/protocol.txt).
//
// The proxy codec of interface(protocol="memcached"). A request is one
// command line, with its data block for the storage commands (set, add,
// replace, append, prepend, cas) and ms. RequestInfo::method is the command
// as sent ("get"), target its first key ("" for stats, version, ...).
// A request ending in `noreply` has no reply (RequestInfo::noReply); quit
// and the meta commands in quiet mode (a `q` flag, whose replies the server
// may leave out) are not framed: quit passes through, and a quiet meta
// command turns the rest of the connection into plain TCP, as does the
// binary protocol (first byte 0x80) and a data block the proxy would not
// hold (over 1 MiB).
//
// Replies are self-delimiting: a VALUE / STAT sequence ends at END, a meta
// VA line with its data block, every other line (STORED, DELETED, a number,
// ERROR, SERVER_ERROR ...) is one reply.
//
// reply(): Error -> `SERVER_ERROR <message>` (default "injected by fbc"; a
// message that starts with ERROR, CLIENT_ERROR or SERVER_ERROR is sent as
// it is). Response -> with body=: a hit for get/gets/gat/gats (VALUE ...
// END; VA for mg), the body as the reply line for the other commands;
// without body=: the command's miss: END for a get, EN for mg, NOT_STORED
// for a storage command, NOT_FOUND for delete/incr/decr/touch, NF for the
// other meta commands. Nothing for a noreply request.
#pragma once

#include "runtime/protocols/proxy_protocol.h"

#include <memory>
#include <string>
#include <string_view>

namespace fbc::rt {

// Reads a reply stream: each call to next() takes one whole reply off the
// front of what was fed, or says more is needed.
class MemcachedReplyReader {
public:
  void feed(std::string_view bytes) { buf_.append(bytes); }
  // One reply: `status` its first line's first word ("STORED", "VALUE",
  // "END", "SERVER_ERROR", "5"), `line` its first line, `value` the data of
  // its first VALUE/VA block. False: no whole reply yet.
  bool next(std::string &status, std::string &line, std::string &value, bool &hasValue);
  // Bytes fed and not yet taken.
  size_t buffered() const { return buf_.size(); }

private:
  std::string buf_;
};

class MemcachedCodec final : public ProtocolCodec {
public:
  RequestInfo splitRequest(std::string_view pending) override;
  size_t feedResponse(std::string_view bytes, std::string &status) override;
  std::string reply(const ReplySpec &spec, const RequestInfo &req) override;

private:
  MemcachedReplyReader replies_;
};

} // namespace fbc::rt
