// The RESP codec (runtime/protocols/proto_redis.*): commands split from a client's
// byte stream at every chunk boundary, first keys, reply counting, the
// replies a rule synthesises.
#include "runtime/protocols/proto_redis.h"
#include "tests/unit/runtime/codec_split.h"

#include <gtest/gtest.h>

namespace fbc::rt {
namespace {

// What redis-cli and every client library send: arrays of bulk strings.
std::string resp(std::initializer_list<std::string> args) {
  std::vector<RespValue> elems;
  for (const std::string &a : args)
    elems.push_back(RespValue::string(a));
  return encodeResp(RespValue::array(std::move(elems)));
}

struct Split3 {
  std::string method, target;
  size_t length;
};

// Feeds `stream` to a fresh codec in chunks of `chunk` bytes the way the
// proxy does (pending grows until a unit is consumed) and returns the units.
std::vector<Split3> splitAll(std::string_view stream, size_t chunk) {
  RedisCodec codec;
  std::vector<Split3> out;
  for (const RequestInfo &r : splitInChunks(codec, stream, chunk))
    if (r.split == Split::Request)
      out.push_back({r.method, r.target, r.length});
    else
      out.push_back({"<" + std::to_string(static_cast<int>(r.split)) + ">", "", r.length});
  return out;
}

TEST(ProtoRedis, SplitsPipelinedCommandsAtEveryChunkSize) {
  std::string stream = resp({"SET", "user:1", "alice"}) + resp({"get", "user:1"}) + "PING\r\n" +
                       resp({"DEL", "a", "b"}) + "  set  k   v \r\n" +
                       resp({"EVAL", "return 1", "1", "script-key"}) + resp({"INCR", "n"});
  for (size_t chunk = 1; chunk <= stream.size(); ++chunk) {
    SCOPED_TRACE("chunk " + std::to_string(chunk));
    std::vector<Split3> units = splitAll(stream, chunk);
    ASSERT_EQ(units.size(), 7u);
    EXPECT_EQ(units[0].method, "SET");
    EXPECT_EQ(units[0].target, "user:1");
    EXPECT_EQ(units[0].length, resp({"SET", "user:1", "alice"}).size());
    EXPECT_EQ(units[1].method, "GET");
    EXPECT_EQ(units[1].target, "user:1");
    EXPECT_EQ(units[2].method, "PING");
    EXPECT_EQ(units[2].target, "");
    EXPECT_EQ(units[2].length, 6u);
    EXPECT_EQ(units[3].method, "DEL");
    EXPECT_EQ(units[3].target, "a");
    EXPECT_EQ(units[4].method, "SET");
    EXPECT_EQ(units[4].target, "k");
    EXPECT_EQ(units[4].length, 15u);
    EXPECT_EQ(units[5].method, "EVAL");
    EXPECT_EQ(units[5].target, "script-key");
    EXPECT_EQ(units[6].method, "INCR");
  }
}

TEST(ProtoRedis, FirstKeys) {
  EXPECT_EQ(respFirstKey({"GET", "k"}), "k");
  EXPECT_EQ(respFirstKey({"ping"}), "");
  EXPECT_EQ(respFirstKey({"INFO", "server"}), "");
  EXPECT_EQ(respFirstKey({"AUTH", "secret"}), "");
  EXPECT_EQ(respFirstKey({"EVAL", "s", "0"}), "");
  EXPECT_EQ(respFirstKey({"BITOP", "AND", "dest", "a"}), "dest");
  EXPECT_EQ(respFirstKey({"OBJECT", "ENCODING", "k"}), "k");
  EXPECT_EQ(respFirstKey({"XREAD", "COUNT", "2", "STREAMS", "s1", "0"}), "s1");
  EXPECT_EQ(respFirstKey({"BLMPOP", "0", "1", "l", "LEFT"}), "l");
}

TEST(ProtoRedis, PushModeAndGarbagePassThrough) {
  RedisCodec sub;
  EXPECT_EQ(sub.splitRequest(resp({"SUBSCRIBE", "news"})).split, Split::NotThisProtocol);
  EXPECT_EQ(sub.splitRequest(resp({"GET", "k"})).split, Split::NotThisProtocol);
  RedisCodec bad;
  RequestInfo r = bad.splitRequest("*1\r\n:5\r\n"); // an integer is not a command argument
  EXPECT_EQ(r.split, Split::NotThisProtocol);
  EXPECT_EQ(r.length, 8u);
}

TEST(ProtoRedis, CountsRepliesAcrossChunks) {
  // The replies a Redis 7 server sends for SET, GET, GET of a missing key,
  // LRANGE, INCR and an unknown command.
  std::string replies = "+OK\r\n$5\r\nalice\r\n$-1\r\n*2\r\n$1\r\na\r\n$1\r\nb\r\n:7\r\n"
                        "-ERR unknown command 'NOPE', with args beginning with: \r\n";
  for (size_t chunk = 1; chunk <= replies.size(); ++chunk) {
    RedisCodec codec;
    std::string status;
    std::vector<std::string> statuses;
    size_t total = 0;
    for (size_t at = 0; at < replies.size(); at += chunk) {
      size_t n = codec.feedResponse(std::string_view(replies).substr(at, chunk), status);
      if (n)
        statuses.push_back(status);
      total += n;
    }
    EXPECT_EQ(total, 6u) << "chunk " << chunk;
    EXPECT_EQ(statuses.back(), "-ERR");
    if (chunk == 1) {
      EXPECT_EQ(statuses, (std::vector<std::string>{"+OK", "$5", "$-1", "*2", ":7", "-ERR"}));
    }
  }
}

TEST(ProtoRedis, SynthesizedReplies) {
  RedisCodec codec;
  RequestInfo get = codec.splitRequest(resp({"GET", "user:1"}));
  ReplySpec err;
  EXPECT_EQ(codec.reply(err, get), "-ERR injected fault\r\n");
  err.message = "LOADING Redis is loading the dataset in memory";
  EXPECT_EQ(codec.reply(err, get), "-LOADING Redis is loading the dataset in memory\r\n");
  err.message = "boom\r\nno second line";
  EXPECT_EQ(codec.reply(err, get), "-ERR boom  no second line\r\n");
  ReplySpec ok;
  ok.kind = ReplyKind::Response;
  EXPECT_EQ(codec.reply(ok, get), "+OK\r\n");
  ok.body = "cached";
  ok.hasBody = true;
  EXPECT_EQ(codec.reply(ok, get), "$6\r\ncached\r\n");
}

TEST(ProtoRedis, EncodesAndReadsBackEveryType) {
  RespValue v =
      RespValue::array({RespValue::string("a\r\nb"), RespValue::integerValue(-3), RespValue::nil(),
                        RespValue::status("OK"), RespValue::error("ERR x"), RespValue::array({})});
  std::string bytes = encodeResp(v);
  EXPECT_EQ(bytes, "*6\r\n$4\r\na\r\nb\r\n:-3\r\n$-1\r\n+OK\r\n-ERR x\r\n*0\r\n");
  RespReplyReader reader;
  reader.feed(bytes);
  RespValue back;
  std::string error;
  ASSERT_EQ(reader.next(back, error), RespReplyReader::Next::Reply);
  EXPECT_EQ(back, v);
  EXPECT_EQ(describeResp(back), "[a\r\nb, -3, nil, OK, (error) ERR x, []]");
  EXPECT_EQ(reader.next(back, error), RespReplyReader::Next::NeedMore);
}

} // namespace
} // namespace fbc::rt
