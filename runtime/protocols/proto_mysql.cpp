// The MySQL proxy codec: see proto_mysql.h.
#include "runtime/protocols/proto_mysql.h"

#include "ir/protocol_targets.h"

#include <deque>
#include <string>

namespace fbc::rt {
namespace {

constexpr size_t kHeader = 4;
constexpr uint32_t kMaxPayload = 0xFFFFFF; // a packet of this size continues in the next

constexpr uint32_t kClientProtocol41 = 1u << 9;
constexpr uint32_t kClientDeprecateEof = 1u << 24;
constexpr uint16_t kServerMoreResultsExist = 0x0008;
constexpr uint16_t kServerStatusAutocommit = 0x0002;

enum Command : uint8_t {
  kComQuit = 0x01,
  kComInitDb = 0x02,
  kComQuery = 0x03,
  kComPing = 0x0e,
  kComStmtPrepare = 0x16,
  kComStmtExecute = 0x17,
  kComStmtSendLongData = 0x18,
  kComStmtClose = 0x19,
  kComStmtReset = 0x1a,
  kComSetOption = 0x1b,
  kComResetConnection = 0x1f,
};

uint32_t le(std::string_view s, size_t at, size_t bytes) {
  uint32_t v = 0;
  for (size_t i = 0; i < bytes && at + i < s.size(); ++i)
    v |= uint32_t(uint8_t(s[at + i])) << (8 * i);
  return v;
}

// A length-encoded integer at `at`; advances `at`.
uint64_t lenenc(std::string_view s, size_t &at) {
  if (at >= s.size())
    return 0;
  uint8_t b = uint8_t(s[at++]);
  size_t n = b < 0xfb ? 0 : b == 0xfc ? 2 : b == 0xfd ? 3 : b == 0xfe ? 8 : 0;
  if (n == 0)
    return b < 0xfb ? b : 0;
  uint64_t v = 0;
  for (size_t i = 0; i < n && at + i < s.size(); ++i)
    v |= uint64_t(uint8_t(s[at + i])) << (8 * i);
  at += n;
  return v;
}

// The payload of the whole packet at the front of `buf`, or false.
bool packetAt(std::string_view buf, std::string_view &payload, size_t &length) {
  if (buf.size() < kHeader)
    return false;
  uint32_t n = le(buf, 0, 3);
  if (buf.size() < kHeader + n)
    return false;
  payload = buf.substr(kHeader, n);
  length = kHeader + n;
  return true;
}

std::string packet(uint8_t seq, const std::string &payload) {
  std::string out;
  uint32_t n = uint32_t(payload.size());
  out += char(n & 0xff);
  out += char((n >> 8) & 0xff);
  out += char((n >> 16) & 0xff);
  out += char(seq);
  out += payload;
  return out;
}

// How the server answers a Request.
enum class Owed { Results, Prepare, Single };

// Where the reply being read is.
enum class ReplyStep { Start, Columns, ColumnsEof, Rows, PrepareDefs };

// The SQLSTATE MySQL sends with error number `code` ("40001" for 1213), or
// "HY000" for one fbc does not know.
std::string_view mysqlSqlstateOf(int code) {
  switch (code) {
  case 1040: // ER_CON_COUNT_ERROR
    return "08004";
  case 1045: // ER_ACCESS_DENIED_ERROR
    return "28000";
  case 1062: // ER_DUP_ENTRY
    return "23000";
  case 1064: // ER_PARSE_ERROR
    return "42000";
  case 1146: // ER_NO_SUCH_TABLE
    return "42S02";
  case 1205: // ER_LOCK_WAIT_TIMEOUT
    return "HY000";
  case 1213: // ER_LOCK_DEADLOCK
    return "40001";
  case 1290: // ER_OPTION_PREVENTS_STATEMENT (read only)
    return "HY000";
  case 1317: // ER_QUERY_INTERRUPTED
    return "70100";
  default:
    return "HY000";
  }
}

} // namespace

struct MysqlCodec::Impl {
  enum class Phase { Greeting, Auth, Command, Opaque } phase = Phase::Greeting;
  uint32_t serverCaps = 0, clientCaps = 0;
  bool sawHandshakeResponse = false;
  std::string server;    // server bytes not yet framed
  std::deque<Owed> owed; // replies owed to forwarded Requests
  ReplyStep step = ReplyStep::Start;
  uint64_t remaining = 0;      // definitions of the current block still to come
  std::deque<uint64_t> blocks; // a prepare's definition blocks after the current one

  bool deprecateEof() const { return (serverCaps & clientCaps & kClientDeprecateEof) != 0; }

  RequestInfo passthrough(size_t n) {
    RequestInfo r;
    r.split = Split::Passthrough;
    r.length = n;
    return r;
  }

  RequestInfo opaque(size_t n) {
    phase = Phase::Opaque;
    RequestInfo r;
    r.split = Split::NotThisProtocol;
    r.length = n;
    return r;
  }

  RequestInfo split(std::string_view pending) {
    if (phase == Phase::Opaque)
      return opaque(pending.size());
    if (phase != Phase::Command)
      return authPacket(pending);
    std::string_view payload;
    size_t length = 0;
    if (pending.size() >= 3 && le(pending, 0, 3) == kMaxPayload)
      return opaque(pending.size()); // a command over 16 MiB: not framed
    if (!packetAt(pending, payload, length))
      return {};
    if (payload.empty())
      return opaque(pending.size());
    switch (uint8_t(payload[0])) {
    case kComQuit:
    case kComStmtClose:
    case kComStmtSendLongData:
      return passthrough(length);
    case kComQuery:
      return request(length, payload, Owed::Results, true);
    case kComStmtPrepare:
      return request(length, payload, Owed::Prepare, true);
    case kComStmtExecute:
      return request(length, payload, Owed::Results, false);
    case kComPing:
    case kComInitDb:
    case kComResetConnection:
    case kComStmtReset:
    case kComSetOption:
      return request(length, payload, Owed::Single, false);
    default:
      return opaque(pending.size());
    }
  }

  RequestInfo request(size_t length, std::string_view payload, Owed kind, bool sql) {
    RequestInfo r;
    r.split = Split::Request;
    r.length = length;
    r.last = true;
    if (sql)
      r.target = ir::sqlNormalizeQuery(payload.substr(1));
    owed.push_back(kind);
    return r;
  }

  // The connection phase's client packets pass through; the handshake
  // response says whether TLS follows.
  RequestInfo authPacket(std::string_view pending) {
    if (sawHandshakeResponse || phase == Phase::Greeting)
      return passthrough(pending.size());
    if (pending.size() < kHeader + 4)
      return {};
    sawHandshakeResponse = true;
    clientCaps = le(pending, kHeader, 4);
    if (!(clientCaps & kClientProtocol41) || (clientCaps & kMysqlClientSsl))
      return opaque(pending.size());
    return passthrough(pending.size());
  }

  // One server packet of the connection phase.
  void authReply(std::string_view payload) {
    if (phase == Phase::Greeting) {
      if (payload.empty() || payload[0] != 0x0a) { // not a v10 greeting (an ERR: refused)
        phase = Phase::Opaque;
        return;
      }
      size_t at = payload.find('\0', 1); // server version
      if (at == std::string_view::npos) {
        phase = Phase::Opaque;
        return;
      }
      at += 1 + 4 + 8 + 1; // connection id, auth data part 1, filler
      serverCaps = le(payload, at, 2) | (le(payload, at + 2 + 1 + 2, 2) << 16);
      phase = Phase::Auth;
      return;
    }
    if (!sawHandshakeResponse || payload.empty())
      return;
    uint8_t b = uint8_t(payload[0]);
    if (b == 0x00)
      phase = Phase::Command; // logged in
    else if (b == 0xff)
      phase = Phase::Opaque; // login refused: the server closes
    // 0xfe (auth switch) and 0x01 (more auth data): the exchange goes on
  }

  // The status flags of an OK or EOF packet.
  uint16_t statusOf(std::string_view payload) const {
    if (payload.size() <= 5 && uint8_t(payload[0]) == 0xfe) // EOF: warnings, status
      return uint16_t(le(payload, 3, 2));
    size_t at = 1;
    lenenc(payload, at); // affected rows
    lenenc(payload, at); // last insert id
    return uint16_t(le(payload, at, 2));
  }

  bool isEof(std::string_view payload) const {
    if (payload.empty() || uint8_t(payload[0]) != 0xfe)
      return false;
    return deprecateEof() ? payload.size() < kMaxPayload : payload.size() < 9;
  }

  // One server packet of a reply; true when the reply ended with it.
  bool replyPacket(std::string_view payload, std::string &status) {
    if (payload.empty())
      return false;
    uint8_t b = uint8_t(payload[0]);
    Owed kind = owed.front();
    switch (step) {
    case ReplyStep::Start:
      if (b == 0xff) {
        status = "ERROR " + std::to_string(le(payload, 1, 2));
        return true;
      }
      if (kind == Owed::Prepare && b == 0x00) {
        // statement id, then the column and parameter counts: the
        // parameters' definitions come first, then the columns'.
        status = "OK";
        blocks.clear();
        for (uint64_t n : {uint64_t(le(payload, 7, 2)), uint64_t(le(payload, 5, 2))})
          if (n > 0)
            blocks.push_back(n);
        step = ReplyStep::PrepareDefs;
        return nextBlock();
      }
      if (kind == Owed::Single || b == 0x00 || b == 0xfe) {
        status = "OK";
        return kind == Owed::Single || !(statusOf(payload) & kServerMoreResultsExist);
      }
      if (b == 0xfb) { // LOCAL INFILE: the client streams a file; not framed
        phase = Phase::Opaque;
        return false;
      }
      {
        size_t at = 0;
        remaining = lenenc(payload, at);
      }
      step = remaining ? ReplyStep::Columns : ReplyStep::Rows;
      return false;
    case ReplyStep::Columns:
      if (--remaining == 0)
        step = deprecateEof() ? ReplyStep::Rows : ReplyStep::ColumnsEof;
      return false;
    case ReplyStep::ColumnsEof:
      step = ReplyStep::Rows;
      return false;
    case ReplyStep::Rows:
      if (b == 0xff) {
        step = ReplyStep::Start;
        status = "ERROR " + std::to_string(le(payload, 1, 2));
        return true;
      }
      if (!isEof(payload))
        return false; // a row
      step = ReplyStep::Start;
      status = "OK";
      return !(statusOf(payload) & kServerMoreResultsExist);
    case ReplyStep::PrepareDefs:
      if (remaining > 0 && --remaining > 0)
        return false;
      if (remaining == 0 && !deprecateEof() && !blockEofSeen) {
        blockEofSeen = true; // the last definition; its block's EOF follows
        return false;
      }
      return nextBlock();
    }
    return false;
  }

  // The next block of a prepare's definitions; true when none is left (the
  // reply ended).
  bool nextBlock() {
    blockEofSeen = false;
    if (blocks.empty()) {
      step = ReplyStep::Start;
      return true;
    }
    remaining = blocks.front();
    blocks.pop_front();
    return false;
  }

  bool blockEofSeen = false;

  size_t feed(std::string_view bytes, std::string &status) {
    if (phase == Phase::Opaque)
      return 0;
    server.append(bytes);
    size_t ended = 0, used = 0;
    std::string_view payload;
    size_t length = 0;
    while (phase != Phase::Opaque &&
           packetAt(std::string_view(server).substr(used), payload, length)) {
      used += length;
      if (phase != Phase::Command) {
        authReply(payload);
        continue;
      }
      if (owed.empty()) {
        phase = Phase::Opaque; // a packet no request asked for: stop framing
        break;
      }
      if (replyPacket(payload, status)) {
        owed.pop_front();
        ++ended;
      }
    }
    server.erase(0, used);
    return ended;
  }

  std::string reply(const ReplySpec &spec) {
    if (!owed.empty())
      owed.pop_back(); // answered here: the server never sees the request
    std::string p;
    if (spec.kind == ReplyKind::Response) {
      p += '\x00'; // OK: no rows affected, no insert id, autocommit, no warnings
      p += '\x00';
      p += '\x00';
      p += char(kServerStatusAutocommit);
      p += '\x00';
      p += '\x00';
      p += '\x00';
      return packet(1, p);
    }
    int code = spec.errorNumber ? spec.errorNumber : 1105;
    std::string state = spec.code.size() == 5 ? spec.code : std::string(mysqlSqlstateOf(code));
    p += '\xff';
    p += char(code & 0xff);
    p += char((code >> 8) & 0xff);
    p += '#';
    p += state;
    p += spec.message.empty() ? "injected by fbc" : spec.message;
    return packet(1, p);
  }
};

MysqlCodec::MysqlCodec() : impl_(std::make_unique<Impl>()) {}
MysqlCodec::~MysqlCodec() = default;

RequestInfo MysqlCodec::splitRequest(std::string_view pending) {
  return impl_->split(pending);
}

size_t MysqlCodec::feedResponse(std::string_view bytes, std::string &status) {
  return impl_->feed(bytes, status);
}

std::string MysqlCodec::reply(const ReplySpec &spec, const RequestInfo &) {
  return impl_->reply(spec);
}

} // namespace fbc::rt
