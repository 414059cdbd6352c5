// The memcached text-protocol codec (runtime/protocols/proto_memcached.*):
// commands and their data blocks split from a client's byte stream at every
// chunk boundary, first keys, noreply, what is not framed, reply counting and
// the replies a rule synthesises.
#include "runtime/protocols/proto_memcached.h"
#include "tests/unit/runtime/codec_split.h"

#include <gtest/gtest.h>

namespace fbc::rt {
namespace {

TEST(ProtoMemcached, SplitsCommandsAndDataBlocksAtEveryChunkSize) {
  std::string stream = "set user:1 0 60 5\r\nalice\r\n"
                       "get user:1 user:2\r\n"
                       "incr visits 8\r\n"
                       "gat 30 flag:beta\r\n"
                       "delete user:1 noreply\r\n"
                       "ms k 2 T0\r\nhi\r\n"
                       "version\r\n";
  expectUnitsAtEveryChunkSize<MemcachedCodec>(
      stream, {"request set|user:1|26", "request get|user:1|19", "request incr|visits|15",
               "request gat|flag:beta|18", "request delete|user:1|23|noreply", "request ms|k|15",
               "request version||9"});
}

TEST(ProtoMemcached, BinaryQuietMetaAndHugeBlocksAreNotFramed) {
  MemcachedCodec codec;
  EXPECT_EQ(codec.splitRequest(std::string("\x80\x00\x00\x05", 4)).split, Split::NotThisProtocol);
  EXPECT_EQ(codec.splitRequest("mg k v q\r\n").split, Split::NotThisProtocol);
  EXPECT_EQ(codec.splitRequest("set k 0 0 2000000\r\n").split, Split::NotThisProtocol);
  RequestInfo quit = codec.splitRequest("quit\r\n");
  EXPECT_EQ(quit.split, Split::Passthrough);
  EXPECT_EQ(quit.length, 6u);
  // A storage command whose bytes word is not a number: the server's
  // CLIENT_ERROR answers the line.
  RequestInfo bad = codec.splitRequest("set k 0 0 x\r\n");
  EXPECT_EQ(bad.split, Split::Request);
  EXPECT_EQ(bad.length, 13u);
}

TEST(ProtoMemcached, CountsWholeRepliesAcrossChunks) {
  std::string replies = "STORED\r\n"
                        "VALUE user:1 0 5\r\nalice\r\nVALUE user:2 0 3\r\nbob\r\nEND\r\n"
                        "50\r\n"
                        "SERVER_ERROR out of memory\r\n"
                        "STAT pid 1\r\nSTAT uptime 2\r\nEND\r\n";
  for (size_t chunk = 1; chunk <= replies.size(); ++chunk) {
    SCOPED_TRACE("chunk " + std::to_string(chunk));
    MemcachedCodec codec;
    std::string last;
    size_t ended = countReplies(codec, replies, chunk, last);
    EXPECT_EQ(ended, 5u);
    EXPECT_EQ(last, "STAT"); // a reply's status is its first word
  }
  MemcachedReplyReader reader;
  reader.feed("VALUE k 0 4\r\nab\r\n\r\nEND\r\n");
  std::string status, line, value;
  bool hasValue = false;
  ASSERT_TRUE(reader.next(status, line, value, hasValue));
  EXPECT_EQ(status, "VALUE");
  EXPECT_TRUE(hasValue);
  EXPECT_EQ(value, "ab\r\n"); // the data block is bytes, line ends included
  EXPECT_EQ(reader.buffered(), 0u);
}

TEST(ProtoMemcached, RepliesARuleMakes) {
  MemcachedCodec codec;
  auto req = [&](std::string_view line) { return codec.splitRequest(line); };
  ReplySpec error;
  EXPECT_EQ(codec.reply(error, req("get k\r\n")), "SERVER_ERROR injected by fbc\r\n");
  error.message = "out of memory";
  EXPECT_EQ(codec.reply(error, req("get k\r\n")), "SERVER_ERROR out of memory\r\n");
  error.message = "CLIENT_ERROR bad data chunk";
  EXPECT_EQ(codec.reply(error, req("incr k 1\r\n")), "CLIENT_ERROR bad data chunk\r\n");
  ReplySpec miss;
  miss.kind = ReplyKind::Response;
  EXPECT_EQ(codec.reply(miss, req("get k\r\n")), "END\r\n");
  EXPECT_EQ(codec.reply(miss, req("mg k v\r\n")), "EN\r\n");
  EXPECT_EQ(codec.reply(miss, req("set k 0 0 1\r\nx\r\n")), "NOT_STORED\r\n");
  EXPECT_EQ(codec.reply(miss, req("incr k 1\r\n")), "NOT_FOUND\r\n");
  EXPECT_EQ(codec.reply(miss, req("delete k noreply\r\n")), "");
  ReplySpec hit = miss;
  hit.body = "on";
  hit.hasBody = true;
  EXPECT_EQ(codec.reply(hit, req("get flag\r\n")), "VALUE flag 0 2\r\non\r\nEND\r\n");
  EXPECT_EQ(codec.reply(hit, req("gets flag\r\n")), "VALUE flag 0 2 0\r\non\r\nEND\r\n");
  EXPECT_EQ(codec.reply(hit, req("mg flag v\r\n")), "VA 2\r\non\r\n");
  EXPECT_EQ(codec.reply(hit, req("incr n 1\r\n")), "on\r\n");
}

} // namespace
} // namespace fbc::rt
