// The MySQL proxy codec (runtime/protocols/proto_mysql.*): the login passed
// through, commands split from a client's byte stream at every chunk
// boundary, replies counted however the server's bytes arrive (result sets
// with and without CLIENT_DEPRECATE_EOF, several results, a prepare), TLS
// left alone, and the packets a rule synthesises.
#include "runtime/protocols/proto_mysql.h"
#include "tests/unit/runtime/codec_split.h"

#include <gtest/gtest.h>

namespace fbc::rt {
namespace {

constexpr uint32_t kProtocol41 = 1u << 9, kSsl = 1u << 11, kDeprecateEof = 1u << 24;

std::string pkt(uint8_t seq, const std::string &payload) {
  std::string out;
  out += char(payload.size() & 0xff);
  out += char((payload.size() >> 8) & 0xff);
  out += char((payload.size() >> 16) & 0xff);
  out += char(seq);
  return out + payload;
}

std::string le(uint32_t v, size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i)
    out += char((v >> (8 * i)) & 0xff);
  return out;
}

// A v10 greeting with capability flags `caps`.
std::string greeting(uint32_t caps) {
  std::string p = "\x0a"
                  "10.11.19-MariaDB" +
                  std::string(1, '\0') + le(7, 4) + "abcdefgh" + std::string(1, '\0') +
                  le(caps & 0xffff, 2) + "\x21" + le(2, 2) + le(caps >> 16, 2) + "\x15" +
                  std::string(10, '\0') + "ijklmnopqrst" + std::string(1, '\0') +
                  "mysql_native_password" + std::string(1, '\0');
  return pkt(0, p);
}

std::string handshakeResponse(uint32_t caps) {
  return pkt(1, le(caps, 4) + le(16777216, 4) + "\x21" + std::string(23, '\0') + "app" +
                    std::string(1, '\0'));
}

// A NUL byte ("\x00" + s would be the empty C string + s).
const std::string nul(1, '\0');

std::string ok(uint8_t seq, uint16_t status = 2) {
  return pkt(seq, nul + nul + nul + le(status, 2) + le(0, 2));
}

std::string eof(uint8_t seq, uint16_t status = 2) {
  return pkt(seq, "\xfe" + le(0, 2) + le(status, 2));
}

std::string command(uint8_t cmd, const std::string &arg = "") {
  return pkt(0, std::string(1, char(cmd)) + arg);
}

// A codec past the login, both sides offering `caps`.
MysqlCodec &loggedIn(MysqlCodec &c, uint32_t caps = kProtocol41) {
  std::string status;
  EXPECT_EQ(c.feedResponse(greeting(caps), status), 0u);
  RequestInfo r = c.splitRequest(handshakeResponse(caps));
  EXPECT_EQ(r.split, Split::Passthrough);
  EXPECT_EQ(c.feedResponse(ok(2), status), 0u); // the login's OK is no reply
  return c;
}

// Feeds `bytes` `chunk` at a time; the replies that ended.
size_t feedInChunks(MysqlCodec &c, const std::string &bytes, size_t chunk, std::string &status) {
  size_t ended = 0;
  for (size_t at = 0; at < bytes.size(); at += chunk)
    ended += c.feedResponse(std::string_view(bytes).substr(at, chunk), status);
  return ended;
}

TEST(ProtoMysql, SplitsCommandsAtEveryChunkSize) {
  std::string stream = command(0x03, "SELECT * FROM Orders WHERE id=42") + command(0x0e) +
                       command(0x16, "INSERT INTO orders VALUES (?, 'x')") +
                       command(0x19, le(1, 4)) + command(0x01);
  for (size_t chunk = 1; chunk <= stream.size(); ++chunk) {
    SCOPED_TRACE("chunk " + std::to_string(chunk));
    MysqlCodec codec;
    std::vector<RequestInfo> units = splitInChunks(loggedIn(codec), stream, chunk);
    std::vector<std::string> got;
    for (const RequestInfo &r : units)
      got.push_back(std::to_string(int(r.split)) + "|" + r.target + "|" + std::to_string(r.length));
    int req = int(Split::Request), pass = int(Split::Passthrough);
    EXPECT_EQ(got, (std::vector<std::string>{
                       std::to_string(req) + "|select * from orders where id = $1|37",
                       std::to_string(req) + "||5",
                       std::to_string(req) + "|insert into orders values($1, $2)|39",
                       std::to_string(pass) + "||9", std::to_string(pass) + "||5"}));
  }
}

TEST(ProtoMysql, CountsResultSetsErrorsAndMoreResults) {
  std::string coldef = pkt(2, "\x03"
                              "def" +
                                  std::string(60, 'c'));
  std::string resultSet = pkt(1, "\x02") + coldef + coldef + eof(4) +
                          pkt(5, "\x01"
                                 "1\x01"
                                 "a") +
                          pkt(6, "\x01"
                                 "2\xfb") +
                          eof(7);
  std::string err = pkt(1, "\xff" + le(1146, 2) + "#42S02Table 'shop.missing' doesn't exist");
  std::string twoResults = ok(1, 2 | 0x0008) + pkt(2, "\x01") + coldef + eof(4) + eof(5);
  for (size_t chunk = 1; chunk <= 7; ++chunk) {
    SCOPED_TRACE("chunk " + std::to_string(chunk));
    MysqlCodec codec;
    loggedIn(codec);
    for (int i = 0; i < 3; ++i)
      ASSERT_EQ(codec.splitRequest(command(0x03, "SELECT 1")).split, Split::Request);
    std::string status;
    EXPECT_EQ(feedInChunks(codec, resultSet, chunk, status), 1u);
    EXPECT_EQ(status, "OK");
    EXPECT_EQ(feedInChunks(codec, err, chunk, status), 1u);
    EXPECT_EQ(status, "ERROR 1146");
    EXPECT_EQ(feedInChunks(codec, twoResults, chunk, status), 1u);
  }
}

TEST(ProtoMysql, DeprecateEofAndPrepareReplies) {
  MysqlCodec codec;
  loggedIn(codec, kProtocol41 | kDeprecateEof);
  std::string coldef = pkt(2, "\x03"
                              "def");
  // No EOF after the definitions; the rows end in an OK with a 0xfe header.
  std::string rows = pkt(1, "\x01") + coldef +
                     pkt(3, "\x01"
                            "7") +
                     pkt(4, "\xfe" + nul + nul + le(2, 2) + le(0, 2));
  ASSERT_EQ(codec.splitRequest(command(0x03, "SELECT 7")).split, Split::Request);
  std::string status;
  EXPECT_EQ(feedInChunks(codec, rows, 3, status), 1u);
  // A prepare of 2 parameters and 1 column: its OK, then the definitions.
  ASSERT_EQ(codec.splitRequest(command(0x16, "SELECT ? + ?")).split, Split::Request);
  std::string prepared =
      pkt(1, nul + le(1, 4) + le(1, 2) + le(2, 2) + nul + le(0, 2)) + coldef + coldef + coldef;
  EXPECT_EQ(feedInChunks(codec, prepared, 5, status), 1u);
  // Without CLIENT_DEPRECATE_EOF each block of definitions ends in an EOF.
  MysqlCodec old;
  loggedIn(old);
  ASSERT_EQ(old.splitRequest(command(0x16, "SELECT ? + ?")).split, Split::Request);
  std::string withEofs = pkt(1, nul + le(1, 4) + le(1, 2) + le(2, 2) + nul + le(0, 2)) + coldef +
                         coldef + eof(4) + coldef + eof(6);
  EXPECT_EQ(feedInChunks(old, withEofs.substr(0, withEofs.size() - 1), 4, status), 0u);
  EXPECT_EQ(old.feedResponse(withEofs.substr(withEofs.size() - 1), status), 1u);
}

TEST(ProtoMysql, TlsAndUnknownCommandsAreNotFramed) {
  MysqlCodec tls;
  std::string status;
  tls.feedResponse(greeting(kProtocol41 | kSsl), status);
  EXPECT_EQ(tls.splitRequest(handshakeResponse(kProtocol41 | kSsl)).split, Split::NotThisProtocol);
  MysqlCodec other;
  loggedIn(other);
  EXPECT_EQ(other.splitRequest(command(0x11, "root")).split, Split::NotThisProtocol);
}

TEST(ProtoMysql, RepliesAreErrAndOkPackets) {
  MysqlCodec codec;
  loggedIn(codec);
  RequestInfo req = codec.splitRequest(command(0x03, "INSERT INTO t VALUES (1)"));
  ReplySpec deadlock;
  deadlock.kind = ReplyKind::Error;
  deadlock.errorNumber = 1213;
  deadlock.message = "Deadlock found";
  EXPECT_EQ(codec.reply(deadlock, req), pkt(1, "\xff" + le(1213, 2) + "#40001Deadlock found"));
  ReplySpec plain;
  plain.kind = ReplyKind::Error;
  plain.code = "HY001";
  EXPECT_EQ(codec.reply(plain, req), pkt(1, "\xff" + le(1105, 2) + "#HY001injected by fbc"));
  ReplySpec fine;
  fine.kind = ReplyKind::Response;
  EXPECT_EQ(codec.reply(fine, req), pkt(1, std::string("\x00\x00\x00\x02\x00\x00\x00", 7)));
  // Answered here: the server owes no reply for it, so the next request's
  // reply is read as that request's (a prepare's OK does not end it: its
  // parameter definition and EOF follow).
  std::string status;
  ASSERT_EQ(codec.splitRequest(command(0x16, "SELECT ?")).split, Split::Request);
  EXPECT_EQ(
      codec.feedResponse(pkt(1, nul + le(1, 4) + le(0, 2) + le(1, 2) + nul + le(0, 2)), status),
      0u);
  EXPECT_EQ(codec.feedResponse(pkt(2, "\x03"
                                      "def"),
                               status),
            0u);
  EXPECT_EQ(codec.feedResponse(eof(3), status), 1u);
}

} // namespace
} // namespace fbc::rt
