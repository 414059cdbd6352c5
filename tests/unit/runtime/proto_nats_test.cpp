// The NATS codec (runtime/protocols/proto_nats.*): PUB and HPUB framed from
// a client's byte stream at every chunk boundary with their subjects, the
// other client operations passed through, what is not NATS, the server's
// stream framed (a payload that looks like +OK is no reply), verbose mode's
// reply counting, and the replies a rule makes.
#include "ir/protocol_targets.h"
#include "runtime/protocols/proto_nats.h"
#include "tests/unit/runtime/codec_split.h"

#include <gtest/gtest.h>

namespace fbc::rt {
namespace {

TEST(ProtoNats, SplitsPublishesAndPassesTheRestAtEveryChunkSize) {
  std::string stream = "CONNECT {\"verbose\":false,\"headers\":true}\r\n"
                       "SUB orders.> 1\r\n"
                       "PUB orders.created 3\r\no-1\r\n"
                       "pub orders.paid _INBOX.x 5\r\n+OK\r\n\r\n" // a payload like a reply
                       "HPUB orders.shipped 21 24\r\nNATS/1.0\r\nX-Id: 7\r\n\r\nabc\r\n"
                       "PING\r\n"
                       "UNSUB 1\r\n";
  expectUnitsAtEveryChunkSize<NatsCodec>(stream, {
                                                     "pass ||42",
                                                     "pass ||16",
                                                     "request PUB|orders.created|27|noreply",
                                                     "request PUB|orders.paid|35|noreply",
                                                     "request HPUB|orders.shipped|53|noreply",
                                                     "pass ||6",
                                                     "pass ||9",
                                                 });
}

TEST(ProtoNats, WhatIsNotNatsIsNotFramed) {
  NatsCodec codec;
  EXPECT_EQ(codec.splitRequest("GET / HTTP/1.1\r\n").split, Split::NotThisProtocol);
  EXPECT_EQ(codec.splitRequest("PUB a b c d\r\n").split, Split::NotThisProtocol);
  EXPECT_EQ(codec.splitRequest("PUB a x\r\n").split, Split::NotThisProtocol);
  EXPECT_EQ(codec.splitRequest("PUB a 3\r\nabcd\r\n").split, Split::NotThisProtocol);
  EXPECT_EQ(codec.splitRequest("HPUB a 9 3\r\n").split, Split::NotThisProtocol);
  EXPECT_EQ(codec.splitRequest(std::string(kNatsMaxLine + 1, 'x')).split, Split::NotThisProtocol);
  EXPECT_EQ(codec.splitRequest("PUB a 3\r\nab").split, Split::NeedMore);
}

// The server's stream, at every chunk boundary: MSG/HMSG payloads are
// skipped whole, so a payload "+OK" is no reply, and CONNECT's +OK is
// its own; the last -ERR is the PUB's. Without verbose mode nothing is a
// PUB's reply.
TEST(ProtoNats, ServerRepliesCountOnlyInVerboseMode) {
  std::string server = "INFO {\"server_id\":\"x\"}\r\n"
                       "+OK\r\n"
                       "MSG orders.created 1 5\r\n+OK\r\n\r\n"
                       "HMSG orders.paid 1 12 17\r\nNATS/1.0\r\n\r\n+OK\r\n\r\n"
                       "PING\r\nPONG\r\n"
                       "-ERR 'Maximum Payload Violation'\r\n";
  for (size_t chunk = 1; chunk <= server.size(); ++chunk) {
    SCOPED_TRACE("chunk " + std::to_string(chunk));
    NatsCodec quiet;
    NatsCodec verbose;
    verbose.splitRequest("CONNECT {\"verbose\": true}\r\n"); // owed its +OK
    std::string statusQuiet, statusVerbose;
    size_t endedQuiet = countReplies(quiet, server, chunk, statusQuiet);
    size_t endedVerbose = countReplies(verbose, server, chunk, statusVerbose);
    EXPECT_EQ(endedQuiet, 0u);
    EXPECT_EQ(statusQuiet, "");
    EXPECT_EQ(endedVerbose, 1u);
    EXPECT_EQ(statusVerbose, "-ERR 'Maximum Payload Violation'");
  }
  // Verbose: CONNECT's and SUB's +OK are theirs; the PUB's +OK and the
  // second PUB's -ERR end its replies.
  NatsCodec codec;
  EXPECT_EQ(codec.splitRequest("CONNECT {\"verbose\":true}\r\n").split, Split::Passthrough);
  EXPECT_EQ(codec.splitRequest("SUB a 1\r\n").split, Split::Passthrough);
  RequestInfo pub = codec.splitRequest("PUB a 0\r\n\r\n");
  EXPECT_EQ(pub.split, Split::Request);
  EXPECT_FALSE(pub.noReply);
  std::string status;
  EXPECT_EQ(codec.feedResponse("+OK\r\n+OK\r\n", status), 0u);
  EXPECT_EQ(codec.feedResponse("+OK\r\n-ERR 'Maximum Payload Violation'\r\n", status), 2u);
  EXPECT_EQ(status, "-ERR 'Maximum Payload Violation'");
}

TEST(ProtoNats, RepliesAreErrOrTheMessageSwallowed) {
  NatsCodec codec;
  RequestInfo pub = codec.splitRequest("PUB a 0\r\n\r\n");
  ReplySpec err;
  err.kind = ReplyKind::Error;
  err.message = "Slow Consumer Detected - messages dropped";
  EXPECT_EQ(codec.reply(err, pub), "-ERR 'Slow Consumer Detected - messages dropped'\r\n");
  EXPECT_EQ(codec.reply(ReplySpec{}, pub), "-ERR 'injected by fbc'\r\n");
  ReplySpec ok;
  ok.kind = ReplyKind::Response;
  EXPECT_EQ(codec.reply(ok, pub), "");
  NatsCodec verbose;
  verbose.splitRequest("CONNECT {\"verbose\":true}\r\n");
  EXPECT_EQ(verbose.reply(ok, pub), "+OK\r\n");
}

TEST(ProtoNats, FullWildcardBecomesAGlob) {
  EXPECT_EQ(ir::natsSubjectPattern(">"), "*");
  EXPECT_EQ(ir::natsSubjectPattern("orders.>"), "orders.*");
  EXPECT_EQ(ir::natsSubjectPattern("orders.*"), "orders.*");
  EXPECT_EQ(ir::natsSubjectPattern("orders.created"), "orders.created");
  EXPECT_EQ(ir::natsSubjectPattern("a>"), "a>");
}

TEST(ProtoNats, ParsesServerOperations) {
  NatsOp op;
  ASSERT_EQ(parseNatsOp("-ERR 'Authorization Violation'\r\n", op), NatsParse::Op);
  EXPECT_EQ(op.op, "-ERR");
  EXPECT_EQ(op.error, "Authorization Violation");
  ASSERT_EQ(parseNatsOp("MSG a.b 7 _INBOX.r 2\r\nhi\r\nPING\r\n", op), NatsParse::Op);
  EXPECT_EQ(op.subject, "a.b");
  EXPECT_EQ(op.sid, "7");
  EXPECT_EQ(op.reply, "_INBOX.r");
  EXPECT_EQ(op.payload, "hi");
  EXPECT_EQ(op.length, 26u);
  ASSERT_EQ(parseNatsOp("HMSG _INBOX.r 1 16 16\r\nNATS/1.0 503\r\n\r\n\r\n", op), NatsParse::Op);
  EXPECT_EQ(natsHeaderStatus(op.headers), "503");
  EXPECT_EQ(op.payload, "");
}

// What a TLS client reads in clear before its handshake: the INFO line,
// known whole only once its CRLF arrived; bytes that are not NATS count as
// whole, for the reader after it to refuse.
TEST(ProtoNats, GreetingIsTheInfoLineOnceWhole) {
  const std::string info = "INFO {\"server_id\":\"x\",\"tls_required\":true}\r\n";
  for (size_t cut = 0; cut < info.size(); ++cut)
    EXPECT_EQ(natsGreetingLength(info.substr(0, cut)), 0u) << cut;
  EXPECT_EQ(natsGreetingLength(info), info.size());
  EXPECT_EQ(natsGreetingLength(info + "PING\r\n"), info.size());
  EXPECT_EQ(natsGreetingLength("SSH-2.0-OpenSSH\r\n"), 17u);
}

} // namespace
} // namespace fbc::rt
