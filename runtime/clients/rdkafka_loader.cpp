// librdkafka, loaded on first use: this file defines the functions the
// Kafka steps call (kafka_step.cpp) and forwards each to the library, which
// it dlopen()s the first time the entry point is called. The reason is
// mariadb_loader.cpp's: librdkafka pulls in OpenSSL, SASL and four
// compression libraries, whose loading would cost every fbc process
// resident memory although only `fbc run` with a kafka step uses it. The
// header and librdkafka.so.1 come from the same Debian packages
// (librdkafka-dev, librdkafka1).
//
// kafka_step.cpp calls loadRdkafka() first, to report why the library is
// missing; the entry point rd_kafka_conf_new fails (null) when it is, and
// every other function is only reached after it succeeded.
#include "runtime/clients/rdkafka_loader.h"

#include "frontend/support/lazy_library.h"

#include <librdkafka/rdkafka.h>

namespace {

// X(return type, name, parameters, arguments), one line per function used:
// the entry point, then the rest.
#define FBC_RDKAFKA_ENTRY_POINTS(X) X(rd_kafka_conf_t *, rd_kafka_conf_new, (void), ())
#define FBC_RDKAFKA_REST(X)                                                                        \
  X(rd_kafka_conf_res_t, rd_kafka_conf_set,                                                        \
    (rd_kafka_conf_t * c, const char *n, const char *v, char *e, size_t s), (c, n, v, e, s))       \
  X(void, rd_kafka_conf_destroy, (rd_kafka_conf_t * c), (c))                                       \
  X(void, rd_kafka_conf_set_dr_msg_cb,                                                             \
    (rd_kafka_conf_t * c, void (*cb)(rd_kafka_t *, const rd_kafka_message_t *, void *)), (c, cb))  \
  X(rd_kafka_t *, rd_kafka_new, (rd_kafka_type_t t, rd_kafka_conf_t * c, char *e, size_t s),       \
    (t, c, e, s))                                                                                  \
  X(void, rd_kafka_destroy, (rd_kafka_t * rk), (rk))                                               \
  X(rd_kafka_topic_t *, rd_kafka_topic_new,                                                        \
    (rd_kafka_t * rk, const char *t, rd_kafka_topic_conf_t *c), (rk, t, c))                        \
  X(void, rd_kafka_topic_destroy, (rd_kafka_topic_t * t), (t))                                     \
  X(const char *, rd_kafka_topic_name, (const rd_kafka_topic_t *t), (t))                           \
  X(int, rd_kafka_produce,                                                                         \
    (rd_kafka_topic_t * t, int32_t p, int f, void *v, size_t n, const void *k, size_t kn,          \
     void *o),                                                                                     \
    (t, p, f, v, n, k, kn, o))                                                                     \
  X(int, rd_kafka_poll, (rd_kafka_t * rk, int ms), (rk, ms))                                       \
  X(rd_kafka_resp_err_t, rd_kafka_last_error, (void), ())                                          \
  X(const char *, rd_kafka_err2str, (rd_kafka_resp_err_t e), (e))                                  \
  X(const char *, rd_kafka_err2name, (rd_kafka_resp_err_t e), (e))                                 \
  X(rd_kafka_resp_err_t, rd_kafka_poll_set_consumer, (rd_kafka_t * rk), (rk))                      \
  X(rd_kafka_resp_err_t, rd_kafka_metadata,                                                        \
    (rd_kafka_t * rk, int all, rd_kafka_topic_t *t, const struct rd_kafka_metadata **m, int ms),   \
    (rk, all, t, m, ms))                                                                           \
  X(void, rd_kafka_metadata_destroy, (const struct rd_kafka_metadata *m), (m))                     \
  X(rd_kafka_topic_partition_list_t *, rd_kafka_topic_partition_list_new, (int n), (n))            \
  X(rd_kafka_topic_partition_t *, rd_kafka_topic_partition_list_add,                               \
    (rd_kafka_topic_partition_list_t * l, const char *t, int32_t p), (l, t, p))                    \
  X(void, rd_kafka_topic_partition_list_destroy, (rd_kafka_topic_partition_list_t * l), (l))       \
  X(rd_kafka_resp_err_t, rd_kafka_committed,                                                       \
    (rd_kafka_t * rk, rd_kafka_topic_partition_list_t * l, int ms), (rk, l, ms))                   \
  X(rd_kafka_resp_err_t, rd_kafka_assign,                                                          \
    (rd_kafka_t * rk, const rd_kafka_topic_partition_list_t *l), (rk, l))                          \
  X(rd_kafka_message_t *, rd_kafka_consumer_poll, (rd_kafka_t * rk, int ms), (rk, ms))             \
  X(void, rd_kafka_message_destroy, (rd_kafka_message_t * m), (m))                                 \
  X(rd_kafka_resp_err_t, rd_kafka_commit_message,                                                  \
    (rd_kafka_t * rk, const rd_kafka_message_t *m, int async), (rk, m, async))                     \
  X(rd_kafka_resp_err_t, rd_kafka_consumer_close, (rd_kafka_t * rk), (rk))

struct Rdkafka {
  FBC_RDKAFKA_ENTRY_POINTS(FBC_LAZY_POINTER)
  FBC_RDKAFKA_REST(FBC_LAZY_POINTER)
};

Rdkafka fns;
constinit fbc::support::LazyLibrary lib("librdkafka.so.1", "librdkafka1");

void bindAll(fbc::support::LazyLibrary &l) {
  FBC_RDKAFKA_ENTRY_POINTS(FBC_LAZY_BIND)
  FBC_RDKAFKA_REST(FBC_LAZY_BIND)
}

bool loaded() {
  return lib.load(bindAll);
}

} // namespace

extern "C" {

rd_kafka_conf_t *rd_kafka_conf_new(void) {
  return loaded() ? fns.rd_kafka_conf_new() : nullptr;
}

// The rest: reached only once rd_kafka_conf_new made a configuration.
FBC_RDKAFKA_REST(FBC_LAZY_FORWARD)

} // extern "C"

namespace fbc::rt {

bool loadRdkafka(std::string &error) {
  return lib.load(bindAll, error);
}

} // namespace fbc::rt
