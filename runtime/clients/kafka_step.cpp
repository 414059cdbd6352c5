// The Kafka steps: see kafka_step.h.
#include "runtime/clients/kafka_step.h"

#include "runtime/clients/rdkafka_loader.h"
#include "runtime/os/clock.h"

#include <librdkafka/rdkafka.h>

#include <algorithm>
#include <memory>

namespace fbc::rt {
namespace {

// librdkafka waits in slices this long, so that a cancelled step returns
// soon after.
constexpr int kSliceMs = 100;

struct ClientDeleter {
  void operator()(rd_kafka_t *rk) const { rd_kafka_destroy(rk); }
};
using Client = std::unique_ptr<rd_kafka_t, ClientDeleter>;

std::string errorText(rd_kafka_resp_err_t e) {
  return std::string(rd_kafka_err2str(e)) + " (" + rd_kafka_err2name(e) + ")";
}

// A client of `type` bootstrapped at `bootstrap` with `settings` (name,
// value pairs), or null with `error`.
Client makeClient(rd_kafka_type_t type, const std::string &bootstrap,
                  std::initializer_list<std::pair<const char *, std::string>> settings,
                  void (*delivered)(rd_kafka_t *, const rd_kafka_message_t *, void *),
                  std::string &error) {
  if (!loadRdkafka(error))
    return nullptr;
  rd_kafka_conf_t *conf = rd_kafka_conf_new();
  char why[512] = "";
  bool ok = rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap.c_str(), why, sizeof why) ==
            RD_KAFKA_CONF_OK;
  // librdkafka's own log lines would land in fbc's stderr.
  ok = ok && rd_kafka_conf_set(conf, "log_level", "0", why, sizeof why) == RD_KAFKA_CONF_OK;
  for (const auto &[name, value] : settings)
    ok = ok && rd_kafka_conf_set(conf, name, value.c_str(), why, sizeof why) == RD_KAFKA_CONF_OK;
  if (!ok) {
    rd_kafka_conf_destroy(conf);
    error = why;
    return nullptr;
  }
  if (delivered)
    rd_kafka_conf_set_dr_msg_cb(conf, delivered);
  rd_kafka_t *rk = rd_kafka_new(type, conf, why, sizeof why); // owns conf when it succeeds
  if (!rk) {
    rd_kafka_conf_destroy(conf);
    error = why;
  }
  return Client(rk);
}

// The delivery report of the one record a publish produces.
struct Delivery {
  bool done = false;
  rd_kafka_resp_err_t err = RD_KAFKA_RESP_ERR_NO_ERROR;
  int32_t partition = -1;
  int64_t offset = -1;
};

void onDelivery(rd_kafka_t *, const rd_kafka_message_t *m, void *) {
  auto *d = static_cast<Delivery *>(m->_private);
  *d = {true, m->err, m->partition, m->offset};
}

KafkaStepResult finish(KafkaStepResult r, int64_t t0) {
  r.ok = r.error.empty();
  r.durationMs = (monotonicNs() - t0) / 1000000;
  return r;
}

} // namespace

KafkaStepResult kafkaPublish(const std::string &bootstrap, const std::string &topic,
                             const std::string &key, const std::string &value, int64_t timeoutMs,
                             const std::function<bool()> &cancelled) {
  int64_t t0 = monotonicNs();
  KafkaStepResult r;
  r.topic = topic;
  std::string ms = std::to_string(timeoutMs);
  Delivery d; // outlives the client, whose destruction may still report
  // librdkafka retries some errors whatever message.send.max.retries says
  // (NOT_LEADER_FOR_PARTITION: a leader change), after retry.backoff.ms:
  // one past the timeout keeps the step to one Produce, so that what the
  // broker (or a rule) answered it is what the step reports.
  std::string backoff = std::to_string(std::min<int64_t>(2 * timeoutMs + 2000, 300000));
  Client rk = makeClient(RD_KAFKA_PRODUCER, bootstrap,
                         {{"message.send.max.retries", "0"},
                          {"retry.backoff.ms", backoff},
                          {"enable.idempotence", "false"},
                          {"acks", "all"},
                          {"linger.ms", "0"},
                          {"message.timeout.ms", ms}},
                         onDelivery, r.error);
  if (!rk)
    return finish(r, t0);
  rd_kafka_topic_t *t = rd_kafka_topic_new(rk.get(), topic.c_str(), nullptr);
  if (!t) {
    r.error = errorText(rd_kafka_last_error());
    return finish(r, t0);
  }
  int sent = rd_kafka_produce(t, RD_KAFKA_PARTITION_UA, RD_KAFKA_MSG_F_COPY,
                              const_cast<char *>(value.data()), value.size(),
                              key.empty() ? nullptr : key.data(), key.size(), &d);
  rd_kafka_resp_err_t failed = sent == 0 ? RD_KAFKA_RESP_ERR_NO_ERROR : rd_kafka_last_error();
  int64_t deadline = t0 + (timeoutMs + 1000) * 1000000;
  while (sent == 0 && !d.done && !cancelled() && monotonicNs() < deadline)
    rd_kafka_poll(rk.get(), kSliceMs);
  rd_kafka_topic_destroy(t);
  if (failed)
    r.error = errorText(failed);
  else if (!d.done)
    r.error = cancelled() ? "cancelled" : "no delivery report within " + ms + "ms";
  else if (d.err)
    r.error = errorText(d.err);
  r.partition = d.partition;
  r.offset = d.offset;
  return finish(r, t0);
}

KafkaStepResult kafkaConsume(const std::string &bootstrap, const std::string &topic,
                             const std::string &group, int64_t timeoutMs,
                             const std::function<bool()> &cancelled) {
  int64_t t0 = monotonicNs();
  int64_t deadline = t0 + timeoutMs * 1000000;
  KafkaStepResult r;
  r.topic = topic;
  Client rk = makeClient(RD_KAFKA_CONSUMER, bootstrap,
                         {{"group.id", group},
                          {"enable.auto.commit", "false"},
                          {"auto.offset.reset", "earliest"},
                          {"fetch.wait.max.ms", "100"}},
                         nullptr, r.error);
  if (!rk)
    return finish(r, t0);
  rd_kafka_poll_set_consumer(rk.get());
  // The topic's partitions, from the cluster's metadata.
  const struct rd_kafka_metadata *md = nullptr;
  rd_kafka_topic_t *t = rd_kafka_topic_new(rk.get(), topic.c_str(), nullptr);
  rd_kafka_resp_err_t e =
      rd_kafka_metadata(rk.get(), 0, t, &md, static_cast<int>(std::max<int64_t>(timeoutMs, 1)));
  rd_kafka_topic_destroy(t);
  rd_kafka_topic_partition_list_t *parts = rd_kafka_topic_partition_list_new(1);
  if (!e && (md->topic_cnt != 1 || md->topics[0].err))
    e = md->topic_cnt == 1 ? md->topics[0].err : RD_KAFKA_RESP_ERR__UNKNOWN_TOPIC;
  for (int i = 0; !e && i < md->topics[0].partition_cnt; ++i)
    rd_kafka_topic_partition_list_add(parts, topic.c_str(), md->topics[0].partitions[i].id);
  if (md)
    rd_kafka_metadata_destroy(md);
  int64_t left = (deadline - monotonicNs()) / 1000000;
  if (!e)
    e = rd_kafka_committed(rk.get(), parts, static_cast<int>(std::max<int64_t>(left, 1)));
  if (!e)
    e = rd_kafka_assign(rk.get(), parts);
  rd_kafka_topic_partition_list_destroy(parts);
  rd_kafka_message_t *m = nullptr;
  while (!e && !cancelled() && monotonicNs() < deadline) {
    m = rd_kafka_consumer_poll(rk.get(), kSliceMs);
    if (!m)
      continue;
    if (!m->err)
      break;
    // Reaching a partition's end is no error: the record may come.
    if (m->err != RD_KAFKA_RESP_ERR__PARTITION_EOF)
      e = m->err;
    rd_kafka_message_destroy(m);
    m = nullptr;
  }
  bool got = m != nullptr;
  if (got) {
    r.partition = m->partition;
    r.offset = m->offset;
    r.value.assign(static_cast<const char *>(m->payload), m->len);
    if (m->key)
      r.key.assign(static_cast<const char *>(m->key), m->key_len);
    e = rd_kafka_commit_message(rk.get(), m, 0);
    rd_kafka_message_destroy(m);
  }
  if (e)
    r.error = errorText(e);
  else if (!got)
    r.error = cancelled() ? "cancelled"
                          : "no record on " + topic + " within " + std::to_string(timeoutMs) + "ms";
  rd_kafka_consumer_close(rk.get());
  return finish(r, t0);
}

} // namespace fbc::rt
