// The Kafka steps (svc.<iface>.publish(topic=, key=, value=) and
// .consume(topic=, group=, timeout=)) over librdkafka (Debian's, loaded on
// first use: rdkafka_loader.h): each step a client of its own, bootstrapped
// at the interface's address (its proxy's when the test has one), destroyed
// when the step returns. Kafka's protocol (ApiVersions, Metadata, the
// record batch format, group offsets) is librdkafka's to speak: unlike the
// text protocols, writing it over fbc's socket helpers would be a client of
// our own to keep in step with the brokers.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace fbc::rt {

struct KafkaStepResult {
  bool ok = false;
  // When !ok: librdkafka's error and its name ("Broker: Not leader for
  // partition (NOT_LEADER_FOR_PARTITION)"), or "no record on <topic>
  // within <timeout>".
  std::string error;
  std::string topic, key, value; // consume: the record read
  int32_t partition = -1;        // the record's (publish: where it went)
  int64_t offset = -1;
  int64_t durationMs = 0;
};

// Produces one record in one Produce request (acks from all replicas, no
// retries: an error the broker answers is the step's, except those
// librdkafka always retries, such as NOT_LEADER_FOR_PARTITION, whose retry
// is put past the timeout: the step ends _MSG_TIMED_OUT) and waits up to
// `timeoutMs` for its delivery report.
KafkaStepResult kafkaPublish(const std::string &bootstrap, const std::string &topic,
                             const std::string &key, const std::string &value, int64_t timeoutMs,
                             const std::function<bool()> &cancelled);
// Reads the next record of `topic` for consumer group `group`: every
// partition from the group's committed offset (the earliest without one),
// the first record to arrive within `timeoutMs`, whose offset is then
// committed for the group. The group is not joined (no rebalance to wait
// for): its offsets are committed as a simple consumer's.
KafkaStepResult kafkaConsume(const std::string &bootstrap, const std::string &topic,
                             const std::string &group, int64_t timeoutMs,
                             const std::function<bool()> &cancelled);

} // namespace fbc::rt
