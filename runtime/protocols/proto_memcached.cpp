#include "runtime/protocols/proto_memcached.h"

#include "runtime/protocols/text_lines.h"

#include <algorithm>
#include <vector>

namespace fbc::rt {

namespace {

constexpr size_t kMaxLine = 8192;             // a command line longer than this is not memcached
constexpr size_t kMaxBlock = size_t(1) << 20; // the proxy's high-water mark

bool oneOf(std::string_view w, std::initializer_list<std::string_view> set) {
  return std::find(set.begin(), set.end(), w) != set.end();
}

bool isStorage(std::string_view cmd) {
  return oneOf(cmd, {"set", "add", "replace", "append", "prepend", "cas"});
}
bool isGet(std::string_view cmd) {
  return oneOf(cmd, {"get", "gets", "gat", "gats"});
}
bool isMeta(std::string_view cmd) {
  return cmd.size() == 2 && cmd[0] == 'm';
}

} // namespace

RequestInfo MemcachedCodec::splitRequest(std::string_view pending) {
  RequestInfo info;
  if (!pending.empty() && static_cast<unsigned char>(pending[0]) == 0x80) {
    info.split = Split::NotThisProtocol; // the binary protocol
    info.length = pending.size();
    return info;
  }
  std::string_view line;
  size_t length = 0;
  if (!firstLine(pending, line, length)) {
    if (pending.size() > kMaxLine) {
      info.split = Split::NotThisProtocol;
      info.length = pending.size();
    }
    return info;
  }
  std::vector<std::string_view> w = lineWords(line);
  std::string_view cmd = w.empty() ? "" : w[0];
  info.length = length;
  info.last = true;
  if (cmd == "quit") {
    info.split = Split::Passthrough;
    return info;
  }
  info.method = std::string(cmd);
  // The first key: gat/gats take the expiry first.
  size_t keyAt = cmd == "gat" || cmd == "gats" ? 2 : 1;
  bool keyed = isStorage(cmd) || isGet(cmd) || isMeta(cmd) ||
               oneOf(cmd, {"delete", "incr", "decr", "touch"});
  if (keyed && cmd != "mn" && cmd != "me" && w.size() > keyAt)
    info.target = std::string(w[keyAt]);
  // The data block of a storage command (bytes is the 5th word) and of ms
  // (the 3rd).
  size_t bytesAt = isStorage(cmd) ? 4 : cmd == "ms" ? 2 : 0;
  if (bytesAt) {
    size_t bytes = 0;
    if (w.size() <= bytesAt || !decimalSize(w[bytesAt], bytes)) {
      info.split = Split::Request; // the server answers CLIENT_ERROR for the line
      return info;
    }
    if (bytes > kMaxBlock) {
      info.split = Split::NotThisProtocol;
      info.length = pending.size();
      return info;
    }
    if (pending.size() < length + bytes + 2)
      return RequestInfo{}; // NeedMore
    info.length = length + bytes + 2;
  }
  if (isMeta(cmd))
    for (size_t i = 2; i < w.size(); ++i)
      if (w[i] == "q") { // quiet mode: replies the server may leave out
        info = RequestInfo{};
        info.split = Split::NotThisProtocol;
        info.length = pending.size();
        return info;
      }
  info.noReply = !w.empty() && w.back() == "noreply" && !isGet(cmd);
  info.split = Split::Request;
  return info;
}

bool MemcachedReplyReader::next(std::string &status, std::string &first, std::string &value,
                                bool &hasValue) {
  std::string_view rest = buf_;
  size_t used = 0;
  hasValue = false;
  value.clear();
  first.clear();
  while (true) {
    std::string_view line;
    size_t length = 0;
    if (!firstLine(rest, line, length))
      return false;
    std::vector<std::string_view> w = lineWords(line);
    std::string_view head = w.empty() ? "" : w[0];
    if (first.empty()) {
      first = std::string(line);
      status = std::string(head);
    }
    size_t block = 0;
    // VALUE <key> <flags> <bytes> [<cas>]; VA <bytes> <flags>*.
    bool blockLine = (head == "VALUE" && w.size() >= 4 && decimalSize(w[3], block)) ||
                     (head == "VA" && w.size() >= 2 && decimalSize(w[1], block));
    if (blockLine) {
      if (rest.size() < length + block + 2)
        return false;
      if (!hasValue) {
        value = std::string(rest.substr(length, block));
        hasValue = true;
      }
      length += block + 2;
    }
    used += length;
    rest.remove_prefix(length);
    // A VALUE / STAT sequence goes on to END; anything else ends a reply.
    if (head == "VALUE" || head == "STAT")
      continue;
    buf_.erase(0, used);
    return true;
  }
}

size_t MemcachedCodec::feedResponse(std::string_view bytes, std::string &status) {
  replies_.feed(bytes);
  size_t ended = 0;
  std::string s, line, value;
  bool hasValue = false;
  while (replies_.next(s, line, value, hasValue)) {
    status = s;
    ++ended;
  }
  return ended;
}

std::string MemcachedCodec::reply(const ReplySpec &spec, const RequestInfo &req) {
  if (req.noReply)
    return "";
  const std::string &cmd = req.method;
  if (spec.kind == ReplyKind::Error) {
    std::string m = spec.message.empty() ? "injected by fbc" : spec.message;
    bool whole = m == "ERROR" || m.starts_with("CLIENT_ERROR") || m.starts_with("SERVER_ERROR");
    return (whole ? m : "SERVER_ERROR " + m) + "\r\n";
  }
  if (spec.hasBody) {
    std::string len = std::to_string(spec.body.size());
    if (isGet(cmd))
      return "VALUE " + req.target + " 0 " + len + (cmd == "gets" || cmd == "gats" ? " 0" : "") +
             "\r\n" + spec.body + "\r\nEND\r\n";
    if (cmd == "mg")
      return "VA " + len + "\r\n" + spec.body + "\r\n";
    return spec.body + "\r\n";
  }
  if (isGet(cmd))
    return "END\r\n";
  if (cmd == "mg")
    return "EN\r\n";
  if (isStorage(cmd))
    return "NOT_STORED\r\n";
  if (isMeta(cmd))
    return "NF\r\n";
  return "NOT_FOUND\r\n";
}

} // namespace fbc::rt
