// kafka_ready()'s probe (runtime/clients/kafka_probe.h): the Metadata v1 request's
// bytes, and what a response must name to be ready.
#include "runtime/clients/kafka_probe.h"

#include <gtest/gtest.h>

namespace fbc::rt {
namespace {

std::string bytes(std::initializer_list<int> b) {
  std::string s;
  for (int c : b)
    s.push_back(static_cast<char>(c));
  return s;
}

TEST(KafkaProbe, MetadataRequestBytes) {
  // size 17; api key 3, version 1; correlation id 7; client id "fbc";
  // topics: an empty array.
  EXPECT_EQ(kafkaMetadataRequest(7),
            bytes({0, 0, 0, 17, 0, 3, 0, 1, 0, 0, 0, 7, 0, 3, 'f', 'b', 'c', 0, 0, 0, 0}));
}

TEST(KafkaProbe, ReadyWhenABrokerAndAControllerAreNamed) {
  std::string one = bytes({0,    0,    0, 7,                           // correlation id
                           0,    0,    0, 1,                           // brokers
                           0,    0,    0, 1, 0, 1, 'h', 0, 0, 35, 132, // node 1, "h", 9092
                           0xff, 0xff,                                 // rack: null
                           0,    0,    0, 1,                           // controller 1
                           0,    0,    0, 0});                         // topics
  EXPECT_EQ(kafkaMetadataReady(one, 7), "");
  EXPECT_EQ(kafkaMetadataReady(one, 8), "response correlation id does not match the request");
  std::string noController = one;
  noController[24] = noController[23] = noController[22] = noController[21] = char(0xff);
  EXPECT_EQ(kafkaMetadataReady(noController, 7), "Metadata names no controller yet (-1)");
  EXPECT_EQ(kafkaMetadataReady(bytes({0, 0, 0, 7, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff}), 7),
            "Metadata names no broker yet");
  EXPECT_EQ(kafkaMetadataReady(one.substr(0, 12), 7), "truncated Metadata response");
}

} // namespace
} // namespace fbc::rt
