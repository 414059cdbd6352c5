#include "runtime/protocols/proto_nats.h"

#include "runtime/protocols/text_lines.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace fbc::rt {

namespace {

// The operation as the protocol spells it, whatever the case sent (the
// protocol's operation names are case-insensitive); a word it does not
// have as sent.
std::string_view canonicalOp(std::string_view word) {
  static constexpr std::string_view kOps[] = {"PUB",  "HPUB", "MSG", "HMSG", "SUB",  "UNSUB",
                                              "PING", "PONG", "+OK", "-ERR", "INFO", "CONNECT"};
  for (std::string_view k : kOps)
    if (std::equal(k.begin(), k.end(), word.begin(), word.end(),
                   [](char a, char b) { return a == std::toupper(static_cast<unsigned char>(b)); }))
      return k;
  return word;
}

} // namespace

NatsParse parseNatsOp(std::string_view s, NatsOp &op) {
  std::string_view line;
  size_t lineLength = 0;
  if (!firstLine(s, line, lineLength))
    return s.size() > kNatsMaxLine ? NatsParse::Bad : NatsParse::NeedMore;
  // HMSG, the longest: op, subject, sid, reply, header and total counts.
  std::array<std::string_view, 6> w;
  size_t words = lineWords(line, " \t", w);
  op = NatsOp{};
  op.line = line;
  op.op = words == 0 ? "" : canonicalOp(w[0]);
  op.length = lineLength;
  if (op.op == "-ERR") {
    std::string_view m = line.substr(std::min(line.size(), size_t(4)));
    m.remove_prefix(std::min(m.size(), m.find_first_not_of(" \t")));
    if (m.size() >= 2 && m.front() == '\'' && m.back() == '\'')
      m = m.substr(1, m.size() - 2);
    op.error = m;
    return NatsParse::Op;
  }
  if (op.op == "SUB" && (words == 3 || words == 4)) {
    op.subject = w[1];
    op.sid = w[words - 1];
    return NatsParse::Op;
  }
  bool pub = op.op == "PUB" || op.op == "HPUB";
  bool msg = op.op == "MSG" || op.op == "HMSG";
  if (!pub && !msg)
    return NatsParse::Op; // INFO, CONNECT, PING, PONG, +OK, UNSUB, ...: the line alone
  // PUB <subject> [reply] <n>; HPUB ... <h> <n>; MSG and HMSG add the sid
  // after the subject.
  bool headed = op.op[0] == 'H';
  size_t fixed = 3 + (msg ? 1 : 0) + (headed ? 1 : 0); // op, subject, sid, counts
  if (words != fixed && words != fixed + 1)
    return NatsParse::Bad;
  op.subject = w[1];
  if (msg)
    op.sid = w[2];
  if (words == fixed + 1)
    op.reply = w[msg ? 3 : 2];
  size_t total = 0, head = 0;
  if (!decimalSize(w[words - 1], total) || (headed && !decimalSize(w[words - 2], head)) ||
      head > total || total > kNatsMaxPayload)
    return NatsParse::Bad;
  size_t need = op.length + total + 2;
  if (s.size() < need)
    return NatsParse::NeedMore;
  if (s.substr(op.length + total, 2) != "\r\n")
    return NatsParse::Bad;
  op.headers = s.substr(op.length, head);
  op.payload = s.substr(op.length + head, total - head);
  op.length = need;
  return NatsParse::Op;
}

std::string natsHeaderStatus(std::string_view headers) {
  std::string_view first = headers.substr(0, headers.find('\r'));
  std::array<std::string_view, 2> w;
  return lineWords(first, " \t", w) >= 2 && w[0].starts_with("NATS/") ? std::string(w[1]) : "";
}

namespace {

// Whether CONNECT's JSON asks for verbose mode ("verbose": true): the one
// option that changes what the server answers.
bool asksVerbose(std::string_view line) {
  size_t k = line.find("\"verbose\"");
  if (k == std::string_view::npos)
    return false;
  std::string_view rest = line.substr(k + 9);
  rest.remove_prefix(std::min(rest.size(), rest.find_first_not_of(" \t")));
  if (rest.empty() || rest.front() != ':')
    return false;
  rest.remove_prefix(1);
  rest.remove_prefix(std::min(rest.size(), rest.find_first_not_of(" \t")));
  return rest.starts_with("true");
}

} // namespace

RequestInfo NatsCodec::splitRequest(std::string_view pending) {
  RequestInfo info;
  NatsOp op;
  switch (parseNatsOp(pending, op)) {
  case NatsParse::NeedMore:
    return info;
  case NatsParse::Bad:
    info.split = Split::NotThisProtocol;
    info.length = pending.size();
    return info;
  case NatsParse::Op:
    break;
  }
  info.length = op.length;
  info.last = true;
  if (op.op == "PUB" || op.op == "HPUB") {
    info.split = Split::Request;
    info.method = op.op;
    info.target = op.subject;
    info.noReply = !verbose_;
    return info;
  }
  if (op.op == "CONNECT")
    verbose_ = asksVerbose(op.line);
  else if (op.op != "SUB" && op.op != "UNSUB" && op.op != "PING" && op.op != "PONG") {
    info.split = Split::NotThisProtocol; // no client operation of the protocol
    info.length = pending.size();
    return info;
  }
  if (verbose_ && op.op != "PING" && op.op != "PONG")
    ++passedOks_;
  info.split = Split::Passthrough;
  return info;
}

size_t NatsCodec::feedResponse(std::string_view bytes, std::string &status) {
  if (serverUnframed_)
    return 0;
  // Parsed where the bytes lie; only an operation a read cut short is
  // kept, to be parsed whole with the next.
  std::string_view s = bytes;
  if (!server_.empty()) {
    server_.append(bytes);
    s = server_;
  }
  size_t ended = 0;
  for (;;) {
    NatsOp op;
    NatsParse p = parseNatsOp(s, op);
    if (p == NatsParse::NeedMore)
      break;
    if (p == NatsParse::Bad) {
      serverUnframed_ = true;
      server_.clear();
      return ended;
    }
    s.remove_prefix(op.length);
    if (!verbose_ || (op.op != "+OK" && op.op != "-ERR"))
      continue; // MSG, PING, PONG, INFO: nothing a PUB is owed
    if (passedOks_ > 0) {
      --passedOks_;
      continue;
    }
    status = op.line;
    ++ended;
  }
  if (!server_.empty())
    server_.erase(0, server_.size() - s.size());
  else
    server_.assign(s);
  return ended;
}

std::string NatsCodec::reply(const ReplySpec &spec, const RequestInfo &) {
  if (spec.kind == ReplyKind::Response)
    return verbose_ ? "+OK\r\n" : "";
  std::string m = spec.message.empty() ? "injected by fbc" : spec.message;
  return "-ERR '" + m + "'\r\n";
}

size_t natsGreetingLength(std::string_view received) {
  NatsOp op;
  switch (parseNatsOp(received, op)) {
  case NatsParse::NeedMore:
    return 0;
  case NatsParse::Op:
    return op.length;
  case NatsParse::Bad:
    break;
  }
  return received.size();
}

} // namespace fbc::rt
