// The proxy's codecs, attached to the entries of ir/protocols.h that are
// framed: interface(protocol=) name -> codec factory (runtime/protocols/
// proxy_protocol.h says what a codec does; the normaliser of its rules'
// target patterns is ir/protocols.h's). One line per protocol; a protocol without a line is proxied
// as plain TCP.
#include "runtime/protocols/proto_amqp.h"
#include "runtime/protocols/proto_kafka.h"
#include "runtime/protocols/proto_memcached.h"
#include "runtime/protocols/proto_mysql.h"
#include "runtime/protocols/proto_nats.h"
#include "runtime/protocols/proto_postgres.h"
#include "runtime/protocols/proto_redis.h"
#include "runtime/protocols/proxy_http.h"
#include "runtime/protocols/proxy_protocol.h"

namespace fbc::rt {

namespace {

template <class Codec> std::unique_ptr<ProtocolCodec> make() {
  return std::make_unique<Codec>();
}

// Sorted by name.
const ProxyProtocol kProxyProtocols[] = {
    {"amqp", make<AmqpCodec>},
    {"http", makeHttpCodec},
    {"kafka", make<KafkaCodec>},
    {"memcached", make<MemcachedCodec>},
    {"mysql", make<MysqlCodec>, /*serverFirst=*/true},
    {"nats", make<NatsCodec>, /*serverFirst=*/true}, // INFO first
    {"postgres", make<PostgresCodec>},
    {"redis", make<RedisCodec>},
};

} // namespace

const ProxyProtocol *findProxyProtocol(std::string_view name) {
  for (const ProxyProtocol &p : kProxyProtocols)
    if (p.name == name)
      return &p;
  return nullptr;
}

std::span<const ProxyProtocol> proxyProtocols() {
  return kProxyProtocols;
}

} // namespace fbc::rt
