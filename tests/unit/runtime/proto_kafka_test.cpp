// The Kafka codec (runtime/protocols/proto_kafka.*), on bytes librdkafka
// 2.0.2 and its mock cluster exchanged (captured through a relay: the
// client's ApiVersions v3 and v0, two Metadata v2, a Produce v7 the broker
// refused with NOT_LEADER_FOR_PARTITION and the client's retry of it):
// Produce framed with its topic at every chunk boundary, the rest passed,
// the broker's responses counted at every chunk boundary, what is not
// Kafka, flexible Produce v9 and acks=0, and the replies a rule makes,
// compared with the broker's own refusal.
#include "runtime/protocols/proto_kafka.h"
#include "tests/unit/runtime/codec_split.h"

#include <gtest/gtest.h>

namespace fbc::rt {
namespace {

std::string unhex(std::string_view h) {
  std::string out;
  for (size_t i = 0; i + 1 < h.size(); i += 2)
    out.push_back(static_cast<char>(std::stoi(std::string(h.substr(i, 2)), nullptr, 16)));
  return out;
}

// The client's stream: ApiVersions v3 (corr 1), v0 (2), Metadata v2 (3),
// Produce v7 to orders partition 0 (4), the same again (5).
const std::string kClient =
    unhex("000000240012000300000001000772646b61666b61000b6c696272646b61666b6106322e302e320000000011"
          "0012000000000002000772646b61666b610000001d0003000200000003000772646b61666b61000000010006"
          "6f7264657273000000780000000700000004000772646b61666b61ffffffff000075300000000100066f7264"
          "65727300000001000000000000004700000000000000000000003b0000000002a11fbaca0000000000000000"
          "01a24eedf735000001a24eedf735ffffffffffffffffffffffffffff000000011200000001066f2d31000000"
          "00780000000700000005000772646b61666b61ffffffff000075300000000100066f72646572730000000100"
          "0000000000004700000000000000000000003b0000000002a11fbaca000000000000000001a24eedf7350000"
          "01a24eedf735ffffffffffffffffffffffffffff000000011200000001066f2d3100");

// The broker's refusal of the first Produce (corr 4): orders partition 0,
// error code 6, no offsets, no throttle.
const std::string kRefusal =
    unhex("00000036000000040000000100066f726465727300000001000000000006ffff"
          "ffffffffffffffffffffffffffffffffffffffffffff00000000");

// The broker's stream: the answers to corr 1-3, the refusal, the retry's
// acceptance (corr 5).
const std::string kServer =
    unhex("0000001100000001002301001200000002000000000000007000000002000000000011000000000007000100"
          "00000b000200000005000300000002000800000007000900000005000a00000002000b00000005000c000000"
          "03000d00000001000e00000003001200000002001600000004001800000001001900000001001a0000000100"
          "1c000000020000006700000003000000010000000100093132372e302e302e3100004a95ffff00176d6f636b"
          "436c75737465723135363736373265353862380000000000000001000000066f726465727300000000010000"
          "000000000000000100000001000000010000000100000001") +
    kRefusal +
    unhex("00000036000000050000000100066f7264657273000000010000000000000000000000000000000000000000"
          "04d2000000000000000000000000");

TEST(ProtoKafka, SplitsProducesAndPassesTheRestAtEveryChunkSize) {
  expectUnitsAtEveryChunkSize<KafkaCodec>(kClient, {
                                                       "pass ||40",
                                                       "pass ||21",
                                                       "pass ||33",
                                                       "request Produce|orders|124",
                                                       "request Produce|orders|124",
                                                   });
}

// Each response is matched to its request by correlation id: the two
// Produces' are replies, the passed requests' are not, at every chunk
// boundary; a repeat of the Produce's (a duplicate()'s second copy) is one
// more; a response to no request stops the counting.
TEST(ProtoKafka, CountsTheProducesResponsesAtEveryChunkSize) {
  for (size_t chunk = 1; chunk <= kServer.size(); ++chunk) {
    SCOPED_TRACE("chunk " + std::to_string(chunk));
    KafkaCodec codec;
    splitInChunks(codec, kClient, kClient.size());
    std::string last;
    EXPECT_EQ(countReplies(codec, kServer, chunk, last), 2u);
  }
  KafkaCodec codec;
  splitInChunks(codec, kClient.substr(0, 94 + 124), 1000); // up to the first Produce
  std::string last;
  EXPECT_EQ(countReplies(codec, kServer.substr(0, kServer.size() - 58), 7, last), 1u);
  EXPECT_EQ(countReplies(codec, kRefusal, 7, last), 1u);              // the duplicate's
  EXPECT_EQ(countReplies(codec, kServer.substr(0, 21), 7, last), 0u); // corr 1 again: unframed
  EXPECT_EQ(countReplies(codec, kRefusal, 7, last), 0u);
}

TEST(ProtoKafka, WhatIsNotKafkaIsNotFramed) {
  KafkaCodec codec;
  EXPECT_EQ(codec.splitRequest("GET / HTTP/1.1\r\n").split, Split::NotThisProtocol);
  EXPECT_EQ(codec.splitRequest(unhex("00000005000000000000")).split, Split::NotThisProtocol);
  EXPECT_EQ(codec.splitRequest(unhex("00000010ffff0000")).split, Split::NotThisProtocol);
  EXPECT_EQ(codec.splitRequest(unhex("0000001000000fff")).split, Split::NotThisProtocol);
  // A Produce whose topics run past its frame.
  EXPECT_EQ(codec.splitRequest(unhex("0000001000000003000000010000ffff00010000")).split,
            Split::NotThisProtocol);
  EXPECT_EQ(codec.splitRequest(kClient.substr(0, 39)).split, Split::NeedMore);
}

// Produce v9 (flexible: header and body tagged fields, compact strings and
// arrays) with acks=0 and two topics: matched by the first, owed nothing.
TEST(ProtoKafka, FlexibleProduceWithoutAcks) {
  std::string body = unhex("0000"
                           "0009"
                           "0000000b"
                           "0003") +
                     "fbc" + unhex("00") + // header v2
                     unhex("00"
                           "0000"
                           "00002710"
                           "03") + // no txn id, acks 0, timeout, 2 topics
                     unhex("07") +
                     "orders" +
                     unhex("02"
                           "00000001"
                           "04") +
                     "abc" + unhex("00") + unhex("00") + unhex("09") + "payments" + unhex("01") +
                     unhex("00") + unhex("00");
  std::string frame = unhex("000000") + std::string(1, static_cast<char>(body.size())) + body;
  KafkaCodec codec;
  RequestInfo info = codec.splitRequest(frame);
  EXPECT_EQ(unitLabel(info), "request Produce|orders|" + std::to_string(frame.size()) + "|noreply");
  EXPECT_EQ(codec.reply(ReplySpec{}, info), "");
}

// error() answers as the broker did (kRefusal, byte for byte), its code
// read off the recipes' message; response() accepts the records.
TEST(ProtoKafka, RepliesAsTheBroker) {
  KafkaCodec codec;
  std::vector<RequestInfo> units = splitInChunks(codec, kClient.substr(0, 94 + 124), 1000);
  ReplySpec spec;
  spec.message = "NotLeaderForPartitionException (error code 6): This server is not the leader";
  EXPECT_EQ(codec.reply(spec, units.back()), kRefusal);
  // Its response is the proxy's: the server's next is no reply of the Produce.
  std::string last;
  EXPECT_EQ(countReplies(codec, kServer.substr(0, 21 + 116 + 107), 9, last), 0u);

  EXPECT_EQ(kafkaErrorCode("RecordTooLargeException (error code 10): ..."), 10);
  EXPECT_EQ(kafkaErrorCode("KafkaException: broker overloaded"), -1);
  EXPECT_EQ(kafkaErrorCode("(error code 6"), -1);
  // v9 with the message; response(): error code 0.
  std::vector<KafkaTopicPartitions> orders = {{"orders", {0}}};
  EXPECT_EQ(kafkaProduceResponse(9, 7, orders, 27, "rebalancing"), unhex("00000040"
                                                                         "00000007"
                                                                         "00"
                                                                         "02"
                                                                         "07") +
                                                                       "orders" +
                                                                       unhex("02"
                                                                             "00000000"
                                                                             "001b"
                                                                             "ffffffffffffffff"
                                                                             "ffffffffffffffff"
                                                                             "ffffffffffffffff"
                                                                             "01"
                                                                             "0c") +
                                                                       "rebalancing" +
                                                                       unhex("00"
                                                                             "00"
                                                                             "00000000"
                                                                             "00"));
  EXPECT_EQ(kafkaProduceResponse(0, 7, orders, 0, "x"), unhex("00000022"
                                                              "00000007"
                                                              "00000001"
                                                              "0006") +
                                                            "orders" +
                                                            unhex("00000001"
                                                                  "00000000"
                                                                  "0000"
                                                                  "ffffffffffffffff"));
}

} // namespace
} // namespace fbc::rt
