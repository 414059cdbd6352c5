// RESP values, encoding and the two stream readers: see proto_redis.h.
#include "runtime/protocols/proto_redis.h"

#include <hiredis/hiredis.h>
#include <llvm/ADT/StringRef.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <iterator>

namespace fbc::rt {

RespValue RespValue::string(std::string s) {
  RespValue v;
  v.type = Type::String;
  v.str = std::move(s);
  return v;
}

RespValue RespValue::status(std::string s) {
  RespValue v = string(std::move(s));
  v.type = Type::Status;
  return v;
}

RespValue RespValue::error(std::string message) {
  RespValue v = string(std::move(message));
  v.type = Type::Error;
  return v;
}

RespValue RespValue::integerValue(int64_t n) {
  RespValue v;
  v.type = Type::Integer;
  v.integer = n;
  return v;
}

RespValue RespValue::array(std::vector<RespValue> elems) {
  RespValue v;
  v.type = Type::Array;
  v.elements = std::move(elems);
  return v;
}

namespace {

std::string oneLine(std::string_view s) {
  std::string out(s);
  std::replace_if(
      out.begin(), out.end(), [](char c) { return c == '\r' || c == '\n'; }, ' ');
  return out;
}

void encodeInto(const RespValue &v, std::string &out) {
  switch (v.type) {
  case RespValue::Type::String:
    out += '$';
    out += std::to_string(v.str.size());
    out += "\r\n";
    out += v.str;
    out += "\r\n";
    return;
  case RespValue::Type::Status:
    out += '+';
    out += oneLine(v.str);
    out += "\r\n";
    return;
  case RespValue::Type::Error:
    out += '-';
    out += oneLine(v.str);
    out += "\r\n";
    return;
  case RespValue::Type::Integer:
    out += ':';
    out += std::to_string(v.integer);
    out += "\r\n";
    return;
  case RespValue::Type::Nil:
    out += "$-1\r\n";
    return;
  case RespValue::Type::Array:
    out += '*';
    out += std::to_string(v.elements.size());
    out += "\r\n";
    for (const RespValue &e : v.elements)
      encodeInto(e, out);
    return;
  }
}

// hiredis's reply tree -> RespValue (RESP2 types: what hiredis 0.14 reads).
RespValue fromHiredis(const redisReply *r) {
  switch (r->type) {
  case REDIS_REPLY_STRING:
    return RespValue::string(std::string(r->str, r->len));
  case REDIS_REPLY_STATUS:
    return RespValue::status(std::string(r->str, r->len));
  case REDIS_REPLY_ERROR:
    return RespValue::error(std::string(r->str, r->len));
  case REDIS_REPLY_INTEGER:
    return RespValue::integerValue(r->integer);
  case REDIS_REPLY_ARRAY: {
    std::vector<RespValue> elems;
    elems.reserve(r->elements);
    for (size_t i = 0; i < r->elements; ++i)
      elems.push_back(fromHiredis(r->element[i]));
    return RespValue::array(std::move(elems));
  }
  default:
    return RespValue::nil();
  }
}

// Commands without a key (server, connection, transaction, scripting admin
// and pub/sub commands). Sorted, for binary search.
constexpr std::string_view kKeyless[] = {
    "ACL",       "AUTH",         "BGREWRITEAOF", "BGSAVE",     "CLIENT",    "CLUSTER",
    "COMMAND",   "CONFIG",       "DBSIZE",       "DEBUG",      "DISCARD",   "ECHO",
    "EXEC",      "FAILOVER",     "FLUSHALL",     "FLUSHDB",    "FUNCTION",  "HELLO",
    "INFO",      "KEYS",         "LASTSAVE",     "LATENCY",    "LOLWUT",    "MODULE",
    "MONITOR",   "MULTI",        "PING",         "PSUBSCRIBE", "PSYNC",     "PUBLISH",
    "PUBSUB",    "PUNSUBSCRIBE", "QUIT",         "RANDOMKEY",  "READONLY",  "READWRITE",
    "REPLICAOF", "RESET",        "ROLE",         "SAVE",       "SCAN",      "SCRIPT",
    "SELECT",    "SHUTDOWN",     "SLAVEOF",      "SLOWLOG",    "SUBSCRIBE", "SWAPDB",
    "SYNC",      "TIME",         "UNSUBSCRIBE",  "UNWATCH",
};
static_assert(std::is_sorted(std::begin(kKeyless), std::end(kKeyless)));

} // namespace

std::string encodeResp(const RespValue &v) {
  std::string out;
  encodeInto(v, out);
  return out;
}

std::string respErrorReply(std::string_view message) {
  std::string m = oneLine(message);
  if (m.empty())
    return "-ERR injected fault\r\n";
  size_t sp = m.find(' ');
  std::string_view code = std::string_view(m).substr(0, sp == std::string::npos ? 0 : sp);
  bool hasCode = !code.empty() && std::all_of(code.begin(), code.end(), [](char c) {
    return std::isupper(static_cast<unsigned char>(c)) != 0;
  });
  std::string out = hasCode ? "-" : "-ERR ";
  out += m;
  out += "\r\n";
  return out;
}

std::string describeResp(const RespValue &v) {
  switch (v.type) {
  case RespValue::Type::String:
  case RespValue::Type::Status:
    return v.str;
  case RespValue::Type::Error:
    return "(error) " + v.str;
  case RespValue::Type::Integer:
    return std::to_string(v.integer);
  case RespValue::Type::Nil:
    return "nil";
  case RespValue::Type::Array: {
    std::string out = "[";
    for (size_t i = 0; i < v.elements.size(); ++i) {
      if (i)
        out += ", ";
      out += describeResp(v.elements[i]);
    }
    out += "]";
    return out;
  }
  }
  return "";
}

std::string respFirstKey(const std::vector<std::string> &args) {
  if (args.size() < 2)
    return "";
  std::string name = llvm::StringRef(args[0]).upper();
  if (std::binary_search(std::begin(kKeyless), std::end(kKeyless), std::string_view(name)))
    return "";
  auto at = [&](size_t i) { return i < args.size() ? args[i] : std::string(); };
  // numkeys, then the keys.
  if (name == "EVAL" || name == "EVALSHA" || name == "EVAL_RO" || name == "EVALSHA_RO" ||
      name == "FCALL" || name == "FCALL_RO")
    return at(2) == "0" ? "" : at(3);
  if (name == "LMPOP" || name == "ZMPOP" || name == "SINTERCARD" || name == "ZINTERCARD" ||
      name == "ZDIFF" || name == "ZINTER" || name == "ZUNION")
    return at(1) == "0" ? "" : at(2);
  if (name == "BLMPOP" || name == "BZMPOP") // a timeout first
    return at(2) == "0" ? "" : at(3);
  // A subcommand (or an operation) first.
  if (name == "BITOP" || name == "OBJECT" || name == "MEMORY" || name == "XINFO")
    return at(2);
  if (name == "MIGRATE")
    return at(3);
  if (name == "XREAD" || name == "XREADGROUP") {
    for (size_t i = 1; i + 1 < args.size(); ++i)
      if (llvm::StringRef(args[i]).upper() == "STREAMS")
        return args[i + 1];
    return "";
  }
  return args[1];
}

// --- readers ----------------------------------------------------------------

namespace {

struct ReaderDeleter {
  void operator()(redisReader *r) const { redisReaderFree(r); }
};
using ReaderPtr = std::unique_ptr<redisReader, ReaderDeleter>;

struct ReplyDeleter {
  void operator()(void *r) const { freeReplyObject(r); }
};
using ReplyPtr = std::unique_ptr<void, ReplyDeleter>;

ReaderPtr newReader() {
  ReaderPtr r(redisReaderCreate());
  if (!r)
    throw std::bad_alloc();
  return r;
}

// Redis refuses inline commands longer than this, and so does the codec.
constexpr size_t kMaxInline = 64 << 10;

// Commands after which the server pushes messages that answer no command.
bool startsPushMode(std::string_view name) {
  return name == "SUBSCRIBE" || name == "PSUBSCRIBE" || name == "SSUBSCRIBE" || name == "MONITOR";
}

} // namespace

struct RedisCodec::Impl {
  ReaderPtr reader = newReader();
  RespReplyReader replies;
  // Stream offsets (from the connection's first client byte): where the
  // proxy's `pending` starts, and how far the reader has been fed.
  uint64_t base = 0, fed = 0;
  bool passthrough = false;

  // The reader holds a partial command or unread bytes.
  bool readerBusy() const { return reader->ridx >= 0 || reader->pos < reader->len; }

  RequestInfo giveUp(std::string_view pending) {
    passthrough = true;
    RequestInfo out;
    out.split = Split::NotThisProtocol;
    out.length = pending.size();
    return out;
  }

  // The command in `args`, `length` bytes long.
  RequestInfo command(std::string_view pending, std::vector<std::string> args, size_t length) {
    RequestInfo out;
    out.split = Split::Request;
    out.length = length;
    out.last = true;
    out.method = llvm::StringRef(args[0]).upper();
    out.target = respFirstKey(args);
    if (startsPushMode(out.method))
      return giveUp(pending);
    return out;
  }
};

RedisCodec::RedisCodec() : impl_(std::make_unique<Impl>()) {}
RedisCodec::~RedisCodec() = default;

RequestInfo RedisCodec::splitRequest(std::string_view pending) {
  Impl &s = *impl_;
  if (s.passthrough)
    return s.giveUp(pending);
  if (!s.readerBusy()) {
    if (pending.empty())
      return {};
    if (pending.front() != '*') {
      // An inline command: one line, split on blanks.
      size_t nl = pending.find('\n');
      if (nl == std::string_view::npos)
        return pending.size() > kMaxInline ? s.giveUp(pending) : RequestInfo{};
      std::vector<std::string> args;
      std::string_view line = pending.substr(0, nl);
      size_t i = 0;
      while (i < line.size()) {
        while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i])))
          ++i;
        size_t start = i;
        while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i])))
          ++i;
        if (i > start)
          args.emplace_back(line.substr(start, i - start));
      }
      s.base += nl + 1;
      s.fed = s.base;
      if (args.empty()) { // Redis ignores an empty line
        RequestInfo out;
        out.split = Split::Passthrough;
        out.length = nl + 1;
        return out;
      }
      return s.command(pending, std::move(args), nl + 1);
    }
  }
  size_t seen = static_cast<size_t>(s.fed - s.base);
  if (seen < pending.size())
    redisReaderFeed(s.reader.get(), pending.data() + seen, pending.size() - seen);
  s.fed = s.base + pending.size();
  void *raw = nullptr;
  if (redisReaderGetReply(s.reader.get(), &raw) != REDIS_OK)
    return s.giveUp(pending);
  if (!raw)
    return {};
  ReplyPtr reply(raw);
  auto *r = static_cast<redisReply *>(raw);
  std::vector<std::string> args;
  for (size_t i = 0; r->type == REDIS_REPLY_ARRAY && i < r->elements; ++i) {
    if (r->element[i]->type != REDIS_REPLY_STRING)
      return s.giveUp(pending);
    args.emplace_back(r->element[i]->str, r->element[i]->len);
  }
  if (args.empty())
    return s.giveUp(pending);
  // The reader keeps what it has not consumed: the command ends there.
  uint64_t end = s.fed - (s.reader->len - s.reader->pos);
  size_t length = static_cast<size_t>(end - s.base);
  s.base = end;
  // An inline command may follow: take those bytes back from the reader
  // (they are still in the proxy's pending buffer).
  if (s.reader->pos < s.reader->len && s.reader->buf[s.reader->pos] != '*') {
    s.fed = end;
    s.reader->pos = s.reader->len;
  }
  return s.command(pending, std::move(args), length);
}

size_t RedisCodec::feedResponse(std::string_view bytes, std::string &status) {
  Impl &s = *impl_;
  if (s.passthrough)
    return 0;
  s.replies.feed(bytes);
  size_t ended = 0;
  for (;;) {
    RespValue v;
    std::string error;
    RespReplyReader::Next next = s.replies.next(v, error);
    if (next == RespReplyReader::Next::NeedMore)
      return ended;
    if (next == RespReplyReader::Next::ProtocolError) {
      s.passthrough = true; // replies can no longer be counted
      return ended;
    }
    ++ended;
    status = respStatus(v);
  }
}

std::string RedisCodec::reply(const ReplySpec &spec, const RequestInfo &) {
  if (spec.kind == ReplyKind::Error)
    return respErrorReply(spec.message);
  return spec.hasBody ? encodeResp(RespValue::string(spec.body)) : "+OK\r\n";
}

std::string respStatus(const RespValue &v) {
  // (Built by append: GCC 12's -Wrestrict misfires on "x" + std::string.)
  auto tagged = [](char tag, std::string_view s) {
    std::string out(1, tag);
    out.append(s);
    return out;
  };
  switch (v.type) {
  case RespValue::Type::Status:
    return tagged('+', std::string_view(v.str).substr(0, 32));
  case RespValue::Type::Error:
    return tagged('-', std::string_view(v.str).substr(0, v.str.find(' ')));
  case RespValue::Type::Integer:
    return tagged(':', std::to_string(v.integer));
  case RespValue::Type::String:
    return tagged('$', std::to_string(v.str.size()));
  case RespValue::Type::Nil:
    return "$-1";
  case RespValue::Type::Array:
    return tagged('*', std::to_string(v.elements.size()));
  }
  return "";
}

struct RespReplyReader::Impl {
  ReaderPtr reader = newReader();
};

RespReplyReader::RespReplyReader() : impl_(std::make_unique<Impl>()) {}
RespReplyReader::~RespReplyReader() = default;

void RespReplyReader::feed(std::string_view bytes) {
  if (!bytes.empty())
    redisReaderFeed(impl_->reader.get(), bytes.data(), bytes.size());
}

RespReplyReader::Next RespReplyReader::next(RespValue &out, std::string &error) {
  void *raw = nullptr;
  if (redisReaderGetReply(impl_->reader.get(), &raw) != REDIS_OK) {
    error = impl_->reader->errstr;
    return Next::ProtocolError;
  }
  if (!raw)
    return Next::NeedMore;
  ReplyPtr reply(raw);
  out = fromHiredis(static_cast<redisReply *>(raw));
  return Next::Reply;
}

} // namespace fbc::rt
