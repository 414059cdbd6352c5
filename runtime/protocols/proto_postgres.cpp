// The PostgreSQL proxy codec and backend messages: see
// proto_postgres.h. Message formats: PostgreSQL 15 docs, "Frontend/Backend
// Protocol", "Message Formats".
#include "runtime/protocols/proto_postgres.h"

#include "ir/protocol_targets.h"

#include <cctype>
#include <cstdint>
#include <deque>
#include <map>
#include <vector>

namespace fbc::rt {
namespace {

// StartupMessage protocol codes.
constexpr uint32_t kProtocol3 = 196608;
constexpr uint32_t kCancelRequest = 80877102;
constexpr uint32_t kMaxStartup = 10000;    // the server's own limit
constexpr uint32_t kMaxMessage = 1u << 30; // 1 GiB: the server's MaxAllocSize
constexpr size_t kMaxKeptBody = 8192;      // of the 'E' and 'C' bodies read for the trace

uint32_t be32(std::string_view s, size_t at) {
  auto b = [&](size_t i) { return static_cast<uint32_t>(static_cast<unsigned char>(s[at + i])); };
  return b(0) << 24 | b(1) << 16 | b(2) << 8 | b(3);
}

void putBe32(std::string &out, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8)
    out += static_cast<char>((v >> shift) & 0xff);
}

// A backend message: type, length, body.
std::string message(char type, std::string_view body) {
  std::string out(1, type);
  putBe32(out, static_cast<uint32_t>(body.size() + 4));
  out.append(body);
  return out;
}

// The NUL-terminated string at `at` in `body`; `at` moves past it.
std::string_view cstr(std::string_view body, size_t &at) {
  size_t end = body.find('\0', at);
  if (end == std::string_view::npos)
    end = body.size();
  std::string_view s = body.substr(at, end - at);
  at = end + 1;
  return s;
}

} // namespace

std::string pgErrorResponse(std::string_view sqlstate, std::string_view msg) {
  std::string body;
  auto field = [&](char type, std::string_view v) {
    body += type;
    body.append(v);
    body += '\0';
  };
  field('S', "ERROR");
  field('V', "ERROR");
  field('C', sqlstate);
  field('M', msg);
  body += '\0';
  return message('E', body);
}

std::string pgReadyForQuery(char txnStatus) {
  return message('Z', std::string_view(&txnStatus, 1));
}

// --- codec --------------------------------------------------------------------

struct PostgresCodec::Impl {
  enum class Phase { Startup, Normal, Opaque } phase = Phase::Startup;
  bool awaitingSslAnswer = false;                // the server's 'N' / 'S' / 'G' byte
  std::map<std::string, std::string> statements; // prepared name -> query
  // One entry per ReadyForQuery the server owes, in order: true when it
  // ends a Request unit's cycle (a reply the proxy counts).
  std::deque<bool> cycles;
  char txn = 'I';
  // The last Request unit's message types (for reply()); 'd' is a
  // Describe of a statement, 'D' of a portal.
  std::string lastUnit;
  // Server stream: the current message's header and (kept) body.
  std::string header, body;
  uint32_t bodyLeft = 0;
  std::string cycleStatus; // "ERROR 42P01", "SELECT 1": the trace status

  RequestInfo result(Split split, size_t length, std::string target = "") {
    RequestInfo out;
    out.split = split;
    out.length = length;
    out.last = split == Split::Request;
    out.target = std::move(target);
    return out;
  }
  RequestInfo opaque(std::string_view pending) {
    phase = Phase::Opaque;
    return result(Split::NotThisProtocol, pending.size());
  }
  RequestInfo startup(std::string_view pending);
  RequestInfo extended(std::string_view pending);
  void serverMessage(char type, size_t &ended, std::string &status);
};

RequestInfo PostgresCodec::Impl::startup(std::string_view pending) {
  if (pending.size() < 8)
    return {};
  uint32_t len = be32(pending, 0), code = be32(pending, 4);
  if (len < 8 || len > kMaxStartup)
    return opaque(pending);
  if (pending.size() < len)
    return {};
  if (code == kPgSslRequest || code == kPgGssEncRequest) {
    awaitingSslAnswer = true;
  } else if (code == kProtocol3) {
    phase = Phase::Normal;
    cycles.push_back(false); // the startup ends in ReadyForQuery
  } else if (code != kCancelRequest) {
    return opaque(pending);
  }
  return result(Split::Passthrough, len);
}

// A run of extended-protocol messages (Parse, Bind, Describe, Execute,
// Close, Flush, Sync) at the front of `pending`.
RequestInfo PostgresCodec::Impl::extended(std::string_view pending) {
  std::string types, query, boundStatement;
  bool haveQuery = false, bound = false;
  size_t at = 0, flushEnd = 0;
  for (;;) {
    if (pending.size() - at < 5 || pending.size() - at < 1 + size_t(be32(pending, at + 1))) {
      // The client may wait for answers after a Flush: forward up to it.
      return flushEnd ? result(Split::Passthrough, flushEnd) : RequestInfo{};
    }
    char type = pending[at];
    uint32_t len = be32(pending, at + 1);
    if (len < 4 || len > kMaxMessage)
      return opaque(pending);
    if (std::string_view("PBDECHS").find(type) == std::string_view::npos) {
      // Not part of a unit (a client that never sends Sync): forward what
      // came before it.
      return result(Split::Passthrough, at);
    }
    std::string_view msg = pending.substr(at + 5, len - 4);
    size_t p = 0;
    if (type == 'P') {
      std::string name(cstr(msg, p));
      std::string text(cstr(msg, p));
      statements[name] = text;
      if (!haveQuery)
        query = text, haveQuery = true;
    } else if (type == 'B') {
      cstr(msg, p); // portal
      boundStatement = std::string(cstr(msg, p));
      bound = true;
    } else if (type == 'D') {
      type = !msg.empty() && msg[0] == 'S' ? 'd' : 'D';
    }
    types += type;
    at += 1 + len;
    if (type == 'H')
      flushEnd = at;
    if (type != 'S')
      continue;
    if (!haveQuery && bound)
      if (auto it = statements.find(boundStatement); it != statements.end())
        query = it->second, haveQuery = true;
    if (!haveQuery) {
      cycles.push_back(false);
      return result(Split::Passthrough, at);
    }
    cycles.push_back(true);
    lastUnit = types;
    return result(Split::Request, at, ir::sqlNormalizeQuery(query));
  }
}

PostgresCodec::PostgresCodec() : impl_(std::make_unique<Impl>()) {}
PostgresCodec::~PostgresCodec() = default;

RequestInfo PostgresCodec::splitRequest(std::string_view pending) {
  Impl &s = *impl_;
  if (s.phase == Impl::Phase::Opaque)
    return s.opaque(pending);
  if (s.phase == Impl::Phase::Startup)
    return s.startup(pending);
  if (pending.size() < 5)
    return {};
  char type = pending[0];
  uint32_t len = be32(pending, 1);
  if (len < 4 || len > kMaxMessage)
    return s.opaque(pending);
  if (std::string_view("PBDECHS").find(type) != std::string_view::npos)
    return s.extended(pending);
  if (pending.size() < 1 + size_t(len))
    return {};
  if (type == 'Q') {
    size_t p = 0;
    std::string_view text = cstr(pending.substr(5, len - 4), p);
    s.cycles.push_back(true);
    s.lastUnit.assign(1, 'Q');
    return s.result(Split::Request, 1 + len, ir::sqlNormalizeQuery(text));
  }
  if (type == 'F') // FunctionCall: answered, then ReadyForQuery
    s.cycles.push_back(false);
  return s.result(Split::Passthrough, 1 + len);
}

void PostgresCodec::Impl::serverMessage(char type, size_t &ended, std::string &status) {
  if (type == 'E') {
    std::string severity, code;
    for (size_t p = 0; p < body.size() && body[p] != '\0';) {
      char field = body[p++];
      std::string_view v = cstr(body, p);
      if (field == 'V' || (field == 'S' && severity.empty()))
        severity = std::string(v);
      else if (field == 'C')
        code = std::string(v);
    }
    cycleStatus = severity + " " + code;
  } else if (type == 'C' && cycleStatus.find("ERROR") == std::string::npos) {
    size_t p = 0;
    cycleStatus = std::string(cstr(body, p));
  } else if (type == 'Z') {
    if (!body.empty())
      txn = body[0];
    bool counted = !cycles.empty() && cycles.front();
    if (!cycles.empty())
      cycles.pop_front();
    if (counted) {
      ++ended;
      status = cycleStatus.empty() ? "OK" : cycleStatus;
    }
    cycleStatus.clear();
  }
}

size_t PostgresCodec::feedResponse(std::string_view bytes, std::string &status) {
  Impl &s = *impl_;
  size_t ended = 0;
  if (s.awaitingSslAnswer && !bytes.empty()) {
    s.awaitingSslAnswer = false;
    if (bytes[0] != 'N') { // TLS or GSS encryption follows: opaque
      s.phase = Impl::Phase::Opaque;
      return 0;
    }
    bytes.remove_prefix(1);
  }
  while (!bytes.empty() && s.phase != Impl::Phase::Opaque) {
    if (s.header.size() < 5) {
      size_t take = std::min(bytes.size(), 5 - s.header.size());
      s.header.append(bytes.substr(0, take));
      bytes.remove_prefix(take);
      if (s.header.size() < 5)
        break;
      uint32_t len = be32(s.header, 1);
      if (len < 4) {
        s.phase = Impl::Phase::Opaque;
        break;
      }
      s.bodyLeft = len - 4;
      s.body.clear();
    }
    size_t take = std::min<size_t>(bytes.size(), s.bodyLeft);
    if (s.body.size() < kMaxKeptBody)
      s.body.append(bytes.substr(0, std::min(take, kMaxKeptBody - s.body.size())));
    bytes.remove_prefix(take);
    s.bodyLeft -= static_cast<uint32_t>(take);
    if (s.bodyLeft > 0)
      break;
    s.serverMessage(s.header[0], ended, status);
    s.header.clear();
  }
  return ended;
}

std::string PostgresCodec::reply(const ReplySpec &spec, const RequestInfo &) {
  Impl &s = *impl_;
  if (!s.cycles.empty())
    s.cycles.pop_back(); // the unit is answered here, not by the server
  if (spec.kind == ReplyKind::Error)
    return pgErrorResponse(spec.code.empty() ? "XX000" : spec.code,
                           spec.message.empty() ? "fbc: injected fault" : spec.message) +
           pgReadyForQuery(s.txn == 'I' ? 'I' : 'E');
  // What the server answers for each message of a statement without rows.
  std::string tag = spec.hasBody ? spec.body : "SELECT 0";
  std::string out;
  for (char type : s.lastUnit) {
    switch (type) {
    case 'P':
      out += message('1', "");
      break;
    case 'B':
      out += message('2', "");
      break;
    case 'd':
      out += message('t', std::string(2, '\0')); // no parameters
      out += message('n', "");
      break;
    case 'D':
      out += message('n', "");
      break;
    case 'E':
    case 'Q':
      out += message('C', tag + '\0');
      break;
    case 'C':
      out += message('3', "");
      break;
    default:
      break;
    }
  }
  return out + pgReadyForQuery(s.txn);
}

} // namespace fbc::rt
