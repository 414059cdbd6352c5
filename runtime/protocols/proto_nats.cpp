#include "runtime/protocols/proto_nats.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <vector>

namespace fbc::rt {

namespace {

// Fields are separated by spaces or tabs, any number of them.
std::vector<std::string_view> fields(std::string_view line) {
  std::vector<std::string_view> out;
  size_t at = 0;
  while (at < line.size()) {
    size_t start = line.find_first_not_of(" \t", at);
    if (start == std::string_view::npos)
      break;
    size_t end = std::min(line.find_first_of(" \t", start), line.size());
    out.push_back(line.substr(start, end - start));
    at = end;
  }
  return out;
}

bool number(std::string_view s, size_t &out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return !s.empty() && ec == std::errc() && p == s.data() + s.size();
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (char &c : out)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

} // namespace

NatsParse parseNatsOp(std::string_view s, NatsOp &op) {
  size_t nl = s.find('\n');
  if (nl == std::string_view::npos)
    return s.size() > kNatsMaxLine ? NatsParse::Bad : NatsParse::NeedMore;
  std::string_view line = s.substr(0, nl);
  if (!line.empty() && line.back() == '\r')
    line.remove_suffix(1);
  std::vector<std::string_view> w = fields(line);
  op = NatsOp{};
  op.line = std::string(line);
  op.op = w.empty() ? "" : upper(w[0]);
  op.length = nl + 1;
  if (op.op == "-ERR") {
    std::string_view m = line.substr(std::min(line.size(), size_t(4)));
    m.remove_prefix(std::min(m.size(), m.find_first_not_of(" \t")));
    if (m.size() >= 2 && m.front() == '\'' && m.back() == '\'')
      m = m.substr(1, m.size() - 2);
    op.error = std::string(m);
    return NatsParse::Op;
  }
  if (op.op == "SUB" && (w.size() == 3 || w.size() == 4)) {
    op.subject = std::string(w[1]);
    op.sid = std::string(w.back());
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
  if (w.size() != fixed && w.size() != fixed + 1)
    return NatsParse::Bad;
  op.subject = std::string(w[1]);
  if (msg)
    op.sid = std::string(w[2]);
  if (w.size() == fixed + 1)
    op.reply = std::string(w[msg ? 3 : 2]);
  size_t total = 0, head = 0;
  if (!number(w.back(), total) || (headed && !number(w[w.size() - 2], head)) || head > total ||
      total > kNatsMaxPayload)
    return NatsParse::Bad;
  size_t need = op.length + total + 2;
  if (s.size() < need)
    return NatsParse::NeedMore;
  if (s.substr(op.length + total, 2) != "\r\n")
    return NatsParse::Bad;
  op.headers = std::string(s.substr(op.length, head));
  op.payload = std::string(s.substr(op.length + head, total - head));
  op.length = need;
  return NatsParse::Op;
}

std::string natsHeaderStatus(std::string_view headers) {
  std::string_view first = headers.substr(0, headers.find('\r'));
  std::vector<std::string_view> w = fields(first);
  return w.size() >= 2 && w[0].starts_with("NATS/") ? std::string(w[1]) : "";
}

} // namespace fbc::rt
