// The PostgreSQL codec (runtime/protocols/proto_postgres.*): the client stream split
// into startup, simple-query and extended-protocol units at every chunk
// boundary, reply cycles counted, the normaliser, synthesized replies.
#include "ir/protocol_targets.h"
#include "runtime/protocols/proto_postgres.h"
#include "tests/unit/runtime/codec_split.h"
#include "tests/unit/runtime/pg_messages.h"

#include <gtest/gtest.h>

namespace fbc::rt {
namespace {

using namespace pgmsg;

struct Unit {
  Split split;
  std::string target;
  size_t length;
};

std::vector<Unit> splitAll(PostgresCodec &codec, std::string_view stream, size_t chunk) {
  std::vector<Unit> out;
  for (const RequestInfo &r : splitInChunks(codec, stream, chunk))
    out.push_back({r.split, r.target, r.length});
  return out;
}

TEST(ProtoPostgres, SplitsStartupSimpleAndExtendedUnitsAtEveryChunkSize) {
  std::string ext = parse("", "SELECT id FROM orders WHERE id = $1") + bind("") + describePortal() +
                    execute() + sync();
  std::string prepared = parse("s1", "select  total\n FROM Orders where id=$1") + sync();
  std::string reuse = bind("s1") + execute() + sync();
  std::string stream = startup() + query("SELECT * FROM orders WHERE id = 42;") + ext + prepared +
                       reuse + sync() + msg('X', "");
  for (size_t chunk = 1; chunk <= stream.size(); chunk += (chunk < 40 ? 1 : 7)) {
    SCOPED_TRACE("chunk " + std::to_string(chunk));
    PostgresCodec codec;
    std::vector<Unit> u = splitAll(codec, stream, chunk);
    ASSERT_EQ(u.size(), 7u);
    EXPECT_EQ(u[0].split, Split::Passthrough);
    EXPECT_EQ(u[0].length, startup().size());
    EXPECT_EQ(u[1].split, Split::Request);
    EXPECT_EQ(u[1].target, "select * from orders where id = $1");
    EXPECT_EQ(u[2].split, Split::Request);
    EXPECT_EQ(u[2].target, "select id from orders where id = $1");
    EXPECT_EQ(u[2].length, ext.size());
    EXPECT_EQ(u[3].split, Split::Request);
    EXPECT_EQ(u[3].target, "select total from orders where id = $1");
    // Bind of the prepared statement: its text from the Parse before.
    EXPECT_EQ(u[4].split, Split::Request);
    EXPECT_EQ(u[4].target, "select total from orders where id = $1");
    EXPECT_EQ(u[4].length, reuse.size());
    EXPECT_EQ(u[5].split, Split::Passthrough); // a lone Sync
    EXPECT_EQ(u[6].split, Split::Passthrough); // Terminate
  }
}

TEST(ProtoPostgres, SslRequestAnsweredNGoesOnAndSGoesOpaque) {
  PostgresCodec plain;
  std::string status;
  EXPECT_EQ(plain.splitRequest(sslRequest()).split, Split::Passthrough);
  EXPECT_EQ(plain.feedResponse("N", status), 0u);
  EXPECT_EQ(plain.splitRequest(startup()).split, Split::Passthrough);
  EXPECT_EQ(plain.splitRequest(query("select 1")).split, Split::Request);

  PostgresCodec tls;
  EXPECT_EQ(tls.splitRequest(sslRequest()).split, Split::Passthrough);
  EXPECT_EQ(tls.feedResponse("S", status), 0u);
  RequestInfo r = tls.splitRequest(std::string("\x16\x03\x01\x02\x00", 5)); // a TLS hello
  EXPECT_EQ(r.split, Split::NotThisProtocol);
  EXPECT_EQ(r.length, 5u);
}

TEST(ProtoPostgres, FlushWithoutSyncIsForwarded) {
  PostgresCodec codec;
  codec.splitRequest(startup());
  std::string head = parse("q", "select 1") + describePortal() + flush();
  RequestInfo r = codec.splitRequest(head + bind("q").substr(0, 3));
  EXPECT_EQ(r.split, Split::Passthrough);
  EXPECT_EQ(r.length, head.size());
  r = codec.splitRequest(bind("q") + execute() + sync());
  EXPECT_EQ(r.split, Split::Request);
  EXPECT_EQ(r.target, "select $1");
}

// Backend messages as a PostgreSQL 15 server sends them.
std::string readyForQuery(char s) {
  return msg('Z', std::string(1, s));
}
std::string commandComplete(const std::string &tag) {
  return msg('C', cstr(tag));
}
std::string errorResponse(const std::string &code) {
  return msg('E', "SERROR" + cstr("") + "VERROR" + cstr("") + "C" + cstr(code) + "M" +
                      cstr("relation \"nope\" does not exist") + cstr(""));
}

TEST(ProtoPostgres, CountsOnlyTheCyclesOfRequests) {
  PostgresCodec codec;
  codec.splitRequest(startup());
  codec.splitRequest(query("select 1"));
  codec.splitRequest(query("select * from nope"));
  codec.splitRequest(sync()); // a lone Sync: its ReadyForQuery is no reply
  codec.splitRequest(query("begin"));
  std::string server = msg('R', be32(0)) + msg('S', cstr("server_version") + cstr("15.5")) +
                       msg('K', be32(1) + be32(2)) + readyForQuery('I') +
                       msg('T', std::string(2, '\0')) + commandComplete("SELECT 1") +
                       readyForQuery('I') + errorResponse("42P01") + readyForQuery('I') +
                       readyForQuery('I') + commandComplete("BEGIN") + readyForQuery('T');
  for (size_t chunk = 1; chunk <= server.size(); ++chunk) {
    PostgresCodec c;
    c.splitRequest(startup());
    c.splitRequest(query("select 1"));
    c.splitRequest(query("select * from nope"));
    c.splitRequest(sync());
    c.splitRequest(query("begin"));
    std::vector<std::string> statuses;
    std::string status;
    size_t total = 0;
    for (size_t at = 0; at < server.size(); at += chunk) {
      size_t n = c.feedResponse(std::string_view(server).substr(at, chunk), status);
      total += n;
      if (n)
        statuses.push_back(status);
    }
    EXPECT_EQ(total, 3u) << "chunk " << chunk;
    if (chunk == 1) {
      EXPECT_EQ(statuses, (std::vector<std::string>{"SELECT 1", "ERROR 42P01", "BEGIN"}));
    }
  }
}

TEST(ProtoPostgres, SynthesizedErrorEndsTheCycleWithTheTransactionStatus) {
  PostgresCodec codec;
  std::string status;
  codec.splitRequest(startup());
  codec.feedResponse(readyForQuery('I'), status);
  RequestInfo q = codec.splitRequest(query("SELECT * FROM orders"));
  ReplySpec spec;
  spec.code = "57P01";
  spec.message = "terminating connection due to administrator command";
  std::string expected = msg('E', "SERROR" + cstr("") + "VERROR" + cstr("") + "C" + cstr("57P01") +
                                      "M" + cstr(spec.message) + cstr("")) +
                         readyForQuery('I');
  EXPECT_EQ(codec.reply(spec, q), expected);
  EXPECT_EQ(pgErrorResponse("57P01", spec.message) + pgReadyForQuery('I'), expected);
  // The answered unit owes no cycle: the next real one is counted.
  codec.splitRequest(query("begin"));
  EXPECT_EQ(codec.feedResponse(commandComplete("BEGIN") + readyForQuery('T'), status), 1u);
  RequestInfo in = codec.splitRequest(query("select 2"));
  EXPECT_EQ(codec.reply(ReplySpec{}, in),
            pgErrorResponse("XX000", "fbc: injected fault") + readyForQuery('E'));
}

TEST(ProtoPostgres, SynthesizedResponseAnswersEachExtendedMessage) {
  PostgresCodec codec;
  codec.splitRequest(startup());
  RequestInfo r = codec.splitRequest(parse("", "update t set a = 1") + bind("") + describePortal() +
                                     execute() + sync());
  ReplySpec ok;
  ok.kind = ReplyKind::Response;
  ok.body = "UPDATE 0";
  ok.hasBody = true;
  EXPECT_EQ(codec.reply(ok, r), msg('1', "") + msg('2', "") + msg('n', "") +
                                    commandComplete("UPDATE 0") + readyForQuery('I'));
}

TEST(ProtoPostgres, Normalizer) {
  EXPECT_EQ(ir::sqlNormalizeQuery("SELECT *  FROM Orders WHERE id=42"),
            "select * from orders where id = $1");
  EXPECT_EQ(ir::sqlNormalizeQuery("select a,b from t where x = 'it''s' and y = ? -- note\n;"),
            "select a, b from t where x = $1 and y = $2");
  EXPECT_EQ(
      ir::sqlNormalizeQuery("SELECT count(*) FROM \"Orders\" o /* c /* nested */ */ "
                            "WHERE o.total >= 1.5e3 AND o.tag = E'a\\'b' AND o.d::date IS NULL"),
      "select count(*) from \"Orders\" o where o.total >= $1 and o.tag = $2 and "
      "o.d::date is null");
  EXPECT_EQ(ir::sqlNormalizeQuery("select $$x$$, $tag$y$tag$, $3"), "select $1, $2, $3");
  EXPECT_EQ(ir::sqlNormalizePattern("SELECT * FROM orders*"), "select * from orders*");
  EXPECT_EQ(ir::sqlNormalizePattern("select count(*) from orders where id = $1"),
            ir::sqlNormalizeQuery("SELECT COUNT(*) FROM orders WHERE id = 7"));
}

} // namespace
} // namespace fbc::rt
