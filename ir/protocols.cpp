#include "ir/protocols.h"

#include "frontend/lib/spellcheck.h"
#include "ir/protocol_targets.h"
#include "ir/quote.h"

#include <algorithm>
#include <vector>

namespace fbc::ir {

namespace {

using M = std::string_view;
using K = StepKeyword;

// --- matchers --------------------------------------------------------------

constexpr M kHttpMatchers[] = {"method", "path"};
constexpr M kRedisMatchers[] = {"command", "key"};
constexpr M kSqlMatchers[] = {"query"};
constexpr M kGrpcMatchers[] = {"method"};
constexpr M kTopicMatchers[] = {"topic"};
constexpr M kAmqpMatchers[] = {"topic", "exchange"};
constexpr M kNatsMatchers[] = {"topic", "subject"};
constexpr M kMongoMatchers[] = {"op", "collection"};

// --- step methods ----------------------------------------------------------

constexpr K kHttpKeywords[] = {{"path", "/"}, {"body", ""}, {"headers", ""}};
constexpr StepMethod kHttpSteps[] = {{"get", kHttpKeywords},
                                     {"post", kHttpKeywords},
                                     {"put", kHttpKeywords},
                                     {"delete", kHttpKeywords},
                                     {"patch", kHttpKeywords}};

constexpr K kSendKeywords[] = {{"data"}};
constexpr StepMethod kTcpSteps[] = {{"send", kSendKeywords}};
// send waits for the first datagram back (timeout=, default 5s: none in
// time is None, not an error); send_no_reply only sends.
constexpr K kUdpSendKeywords[] = {{"data"}, {"timeout", "5s"}};
constexpr StepMethod kUdpSteps[] = {{"send", kUdpSendKeywords}, {"send_no_reply", kSendKeywords}};

// The reference's keyword form of each Redis step, in the order the
// command takes them (fbc also takes them positionally: get("k")).
constexpr K kRedisCommand[] = {{"cmd"}, {"args", ""}};
constexpr K kRedisKey[] = {{"key"}};
constexpr K kRedisKeys[] = {{"pattern", "*"}};
constexpr K kRedisPush[] = {{"key"}, {"value"}};
constexpr K kRedisRange[] = {{"key"}, {"start", "0"}, {"stop", "-1"}};
constexpr StepMethod kRedisSteps[] = {
    {"command", kRedisCommand}, {"del", kRedisKey},    {"get", kRedisKey},      {"incr", kRedisKey},
    {"keys", kRedisKeys},       {"lpush", kRedisPush}, {"lrange", kRedisRange}, {"ping", {}},
    {"rpush", kRedisPush},      {"set", kRedisPush},
};

// memcached's steps, by keyword or positionally in this order.
constexpr K kMemcachedSet[] = {{"key"}, {"value"}, {"ttl", "0"}};
constexpr K kMemcachedIncr[] = {{"key"}, {"delta", "1"}};
constexpr StepMethod kMemcachedSteps[] = {
    {"delete", kRedisKey}, {"get", kRedisKey}, {"incr", kMemcachedIncr}, {"set", kMemcachedSet}};

// NATS: publish and request wait for the server (request for the first
// reply on an inbox of the step's own); subscribe returns the messages
// that arrive until `count` did or `timeout` passed.
constexpr K kNatsPublish[] = {{"subject"}, {"data", ""}};
constexpr K kNatsRequest[] = {{"subject"}, {"data", ""}, {"timeout", "5s"}};
constexpr K kNatsSubscribe[] = {{"subject"}, {"count", "1"}, {"timeout", "5s"}};
constexpr StepMethod kNatsSteps[] = {
    {"publish", kNatsPublish}, {"request", kNatsRequest}, {"subscribe", kNatsSubscribe}};

// gRPC: one unary call; body= is the request message's protobuf encoding.
constexpr K kGrpcCall[] = {{"method"}, {"body", ""}, {"timeout", "5s"}};
constexpr StepMethod kGrpcSteps[] = {{"call", kGrpcCall}};

// AMQP: publish waits for the broker's confirmation (confirm mode); get
// takes one message off a queue.
constexpr K kAmqpPublish[] = {{"routing_key"}, {"body", ""}, {"exchange", ""}};
constexpr K kAmqpGet[] = {{"queue"}};
constexpr StepMethod kAmqpSteps[] = {{"get", kAmqpGet}, {"publish", kAmqpPublish}};

// Kafka: publish sends one Produce and waits up to `timeout` for the
// record's delivery report; consume reads the next record of the topic for
// the consumer group.
constexpr K kKafkaPublish[] = {{"topic"}, {"key", ""}, {"value", ""}, {"timeout", "10s"}};
constexpr K kKafkaConsume[] = {{"topic"}, {"group", "fbc"}, {"timeout", "5s"}};
constexpr StepMethod kKafkaSteps[] = {{"consume", kKafkaConsume}, {"publish", kKafkaPublish}};

constexpr K kSqlKeywords[] = {{"sql"}, {"params", ""}};
constexpr StepMethod kSqlSteps[] = {{"exec", kSqlKeywords}, {"query", kSqlKeywords}};

// --- the table ---------------------------------------------------------------

constexpr std::string_view kMockGapHttp2 = "http2 mocks are not served by fbc yet: its mock HTTP "
                                           "server (libmicrohttpd) speaks HTTP/1.1 only";

// The first entry accepting a matcher is the one messages name ("topic=
// matches kafka traffic"), so each matcher's home protocol comes first.
// Each entry names only what it has: the other fields keep their defaults
// (GCC 12 warns about designated initializers that leave fields out).
#pragma GCC diagnostic push
// fbc init --from-compose's guesses: image names and ports.
constexpr std::string_view kHttpImages[] = {"nginx", "httpd"};
constexpr int kHttpPorts[] = {443, 3000, 5000, 8000, 8080, 8081, 8443, 9090};
constexpr std::string_view kRedisImages[] = {"redis"};
constexpr std::string_view kMemcachedImages[] = {"memcached"};
constexpr std::string_view kPostgresImages[] = {"postgres"};
constexpr std::string_view kMysqlImages[] = {"mysql", "mariadb"};
constexpr std::string_view kKafkaImages[] = {"kafka"};
constexpr std::string_view kNatsImages[] = {"nats"};
constexpr std::string_view kAmqpImages[] = {"rabbitmq"};
constexpr std::string_view kMongoImages[] = {"mongo"};
constexpr std::string_view kCassandraImages[] = {"cassandra"};
constexpr std::string_view kClickhouseImages[] = {"clickhouse"};

#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
const Protocol kProtocols[] = {
    {.name = "tcp",
     .steps = kTcpSteps,
     .promotesSteps = true,
     .mock = MockSupport::Gap,
     .mockGap = "tcp mocks (byte-prefix routes) are not served by fbc yet"},
    {.name = "http",
     .matchers = kHttpMatchers,
     .methodField = "method",
     .targetField = "path",
     .steps = kHttpSteps,
     .promotesSteps = true,
     .readiness = HealthcheckKind::Http,
     .framed = true,
     .suggestRule = "error(path = \"/*\", status = 503)",
     .unit = "HTTP request",
     .units = "HTTP requests",
     .mock = MockSupport::Served,
     .defaultPort = 80,
     .images = kHttpImages,
     .commonPorts = kHttpPorts,
     .stepRequest = StepRequest::MethodAndPath},
    // HTTP/2 with prior knowledge: the proxy's bridge (runtime/proxy/proxy_h2.h)
    // decides each request stream by method= and path=; the steps are
    // HTTP's, spoken over HTTP/2.
    {.name = "http2",
     .matchers = kHttpMatchers,
     .methodField = "method",
     .targetField = "path",
     .steps = kHttpSteps,
     .promotesSteps = true,
     .readiness = HealthcheckKind::Http,
     .framed = true,
     .http2 = Http2::Plain,
     .suggestRule = "error(path = \"/*\", status = 503)",
     .unit = "HTTP/2 request",
     .units = "HTTP/2 requests",
     .mock = MockSupport::Gap,
     .mockGap = kMockGapHttp2,
     .stepRequest = StepRequest::MethodAndPath},
    {.name = "redis",
     .matchers = kRedisMatchers,
     .methodField = "command",
     .targetField = "key",
     .steps = kRedisSteps,
     .readiness = HealthcheckKind::Redis,
     .framed = true,
     .suggestRule = "error(command = \"*\", message = \"ERR injected by fbc\")",
     .unit = "Redis command",
     .units = "Redis commands",
     .mock = MockSupport::Served,
     .defaultPort = 6379,
     .images = kRedisImages,
     .stepRequest = StepRequest::CommandLine,
     .resources = RequestResources::RespKeys},
    // The text protocol (binary and quiet meta commands relay as TCP).
    {.name = "memcached",
     .matchers = kRedisMatchers,
     .methodField = "command",
     .targetField = "key",
     .steps = kMemcachedSteps,
     .readiness = HealthcheckKind::Memcached,
     .framed = true,
     .suggestRule = "error(command = \"*\", message = \"SERVER_ERROR out of memory\")",
     .unit = "memcached command",
     .units = "memcached commands",
     .defaultPort = 11211,
     .images = kMemcachedImages,
     .stepRequest = StepRequest::CommandLine},
    {.name = "postgres",
     .matchers = kSqlMatchers,
     .targetField = "query",
     .normalizeTarget = sqlNormalizePattern,
     .steps = kSqlSteps,
     .readiness = HealthcheckKind::Postgres,
     .framed = true,
     .tls = TlsStart::SslRequest,
     .suggestRule = "error(query = \"*\", status = \"57P01\", message = \"terminating connection "
                    "due to administrator command\")",
     .unit = "Postgres query",
     .units = "Postgres queries",
     .defaultPort = 5432,
     .images = kPostgresImages,
     .stepRequest = StepRequest::Sql,
     .resources = RequestResources::PostgresTables},
    // MySQL / MariaDB: steps and ready() over libmariadb; the proxy frames
    // the client/server protocol (runtime/protocols/proto_mysql.h) and
    // matches query= as it does Postgres'.
    {.name = "mysql",
     .matchers = kSqlMatchers,
     .targetField = "query",
     .normalizeTarget = sqlNormalizePattern,
     .steps = kSqlSteps,
     .readiness = HealthcheckKind::Mysql,
     .framed = true,
     .tls = TlsStart::AfterGreeting,
     .errorNumbers = true,
     .suggestRule = "error(query = \"*\", code = 1213, message = \"Deadlock found when trying to "
                    "get lock; try restarting transaction\")",
     .unit = "MySQL query",
     .units = "MySQL queries",
     .defaultPort = 3306,
     .images = kMysqlImages,
     .stepRequest = StepRequest::Sql},
    // gRPC over the proxy's HTTP/2 bridge: a call is matched by its full
    // method name (method="/pkg.Service/*") and answered with a grpc-status.
    // ready() waits for the server's SETTINGS (runtime/clients/handshake_probe.h).
    {.name = "grpc",
     .matchers = kGrpcMatchers,
     .methodField = "method",
     .steps = kGrpcSteps,
     .readiness = HealthcheckKind::Grpc,
     .framed = true,
     .http2 = Http2::Grpc,
     .statusCodes = StatusCodes::Grpc,
     .suggestRule = "error(method = \"/*\", status = 14, message = \"unavailable\")",
     .unit = "gRPC call",
     .units = "gRPC calls",
     .mock = MockSupport::Served}, // runtime/mock/mock_grpc.h
    // Kafka: steps over librdkafka (runtime/clients/kafka_step.h), mocks
    // served by librdkafka's mock cluster (runtime/mock/kafka_broker.c);
    // the proxy frames the wire protocol (runtime/protocols/proto_kafka.h):
    // a Produce is matched by its topic, error() answers it with a Kafka
    // error code, duplicate() stores its records twice.
    {.name = "kafka",
     .matchers = kTopicMatchers,
     .targetField = "topic",
     .steps = kKafkaSteps,
     .readiness = HealthcheckKind::Kafka,
     .framed = true,
     .duplicates = true,
     .suggestRule = "error(topic = \"*\", message = \"RecordTooLargeException (error code 10): The "
                    "request included a message larger than the max message size the server will "
                    "accept\")",
     .unit = "Kafka produce request",
     .units = "Kafka produce requests",
     .mock = MockSupport::Served,
     .defaultPort = 9092,
     .images = kKafkaImages},
    // NATS: steps and ready() written over fbc's socket helpers
    // (runtime/clients/nats_step.h); the proxy frames PUB/HPUB
    // (runtime/protocols/proto_nats.h), matched by subject= (or the
    // reference's topic=), and duplicate() sends a message on twice.
    {.name = "nats",
     .matchers = kNatsMatchers,
     .targetField = "subject",
     .normalizeTarget = natsSubjectPattern,
     .steps = kNatsSteps,
     .readiness = HealthcheckKind::Nats,
     .framed = true,
     .tls = TlsStart::AfterInfo,
     .duplicates = true,
     .suggestRule = "error(subject = \">\", message = \"Slow Consumer Detected - messages "
                    "dropped\")",
     .unit = "NATS message",
     .units = "NATS messages",
     .defaultPort = 4222,
     .images = kNatsImages,
     .stepRequest = StepRequest::Subject},
    // AMQP 0-9-1 (RabbitMQ): the proxy frames Basic.Publish with its
    // content frames (runtime/protocols/proto_amqp.h), matched by topic=
    // (the routing key: the reference's matcher); error() closes the
    // publish's channel (or connection) with a reply code, duplicate()
    // sends the message on twice. Steps over librabbitmq
    // (runtime/clients/amqp_step.h); ready() waits for Connection.Start
    // (runtime/clients/handshake_probe.h).
    {.name = "amqp",
     .matchers = kAmqpMatchers,
     .methodField = "exchange",
     .targetField = "routing_key",
     .normalizeTarget = amqpRoutingKeyPattern,
     .steps = kAmqpSteps,
     .readiness = HealthcheckKind::Amqp,
     .framed = true,
     .duplicates = true,
     .statusCodes = StatusCodes::AmqpReply,
     .suggestRule = "error(topic = \"#\", message = \"PRECONDITION_FAILED - injected by fbc\")",
     .unit = "AMQP message",
     .units = "AMQP messages",
     .defaultPort = 5672,
     .images = kAmqpImages},
    {.name = "mongodb",
     .matchers = kMongoMatchers,
     .referenceProxies = true,
     .referenceSteps = "find insert insert_many update delete count command",
     .mock = MockSupport::Gap,
     .mockGap = "MongoDB mocks need a MongoDB server, and none is packaged for Debian 12",
     .defaultPort = 27017,
     .images = kMongoImages},
    // Datagrams: each one a unit the UDP proxy decides (drop, delay,
    // duplicate; no reply to answer in).
    {.name = "udp",
     .steps = kUdpSteps,
     .datagrams = true,
     .tls = TlsStart::None,
     .duplicates = true,
     .faultSyscall = "sendto",
     .unit = "UDP datagram",
     .units = "UDP datagrams",
     .mock = MockSupport::Gap,
     .mockGap = "udp mocks (byte-prefix routes) are not served by fbc yet"},
    // Protocols the reference has step plugins for and fbc has nothing of
    // yet: named, so that their steps are plan warnings, not errors.
    {.name = "cassandra",
     .referenceSteps = "query exec",
     .defaultPort = 9042,
     .images = kCassandraImages},
    {.name = "clickhouse",
     .referenceSteps = "query exec",
     .defaultPort = 9000,
     .images = kClickhouseImages},
};
#pragma GCC diagnostic pop

template <class T> std::string join(std::span<const T> items, auto &&text, std::string_view sep) {
  std::string out;
  for (const T &i : items)
    out.append(out.empty() ? "" : sep).append(text(i));
  return out;
}

} // namespace

bool Protocol::accepts(std::string_view matcher) const {
  return std::find(matchers.begin(), matchers.end(), matcher) != matchers.end();
}

std::string Protocol::normalizedTarget(std::string_view pattern) const {
  return normalizeTarget ? normalizeTarget(pattern) : std::string(pattern);
}

const StepMethod *Protocol::findStep(std::string_view method) const {
  for (const StepMethod &m : steps)
    if (m.name == method)
      return &m;
  return nullptr;
}

std::span<const Protocol> protocols() {
  return kProtocols;
}

const Protocol *findProtocol(std::string_view name) {
  for (const Protocol &p : kProtocols)
    if (p.name == name)
      return &p;
  return nullptr;
}

HealthcheckKind readinessOf(std::string_view protocol) {
  const Protocol *p = findProtocol(protocol);
  return p ? p->readiness : HealthcheckKind::Tcp;
}

HealthcheckKind readyProbe(const Service &s) {
  const Interface *i = s.defaultInterface();
  return readinessOf(i ? std::string_view(i->protocol) : "");
}

std::string matcherList(const Protocol *p) {
  if (!p || p->matchers.empty())
    return "no matchers";
  return join(
      p->matchers, [](M m) { return std::string(m) + "="; }, ", ");
}

std::string stepList(const Protocol &p) {
  return join(
      p.steps, [](const StepMethod &m) { return std::string(m.name); }, ", ");
}

std::string keywordList(const StepMethod &m) {
  return join(
      m.keywords, [](const StepKeyword &k) { return std::string(k.name) + "="; }, ", ");
}

bool isAnyStepMethod(std::string_view name) {
  for (const Protocol &p : kProtocols)
    if (p.findStep(name))
      return true;
  return false;
}

bool isPromotedStep(std::string_view name) {
  for (const Protocol &p : kProtocols)
    if (p.promotesSteps && p.findStep(name))
      return true;
  return false;
}

const StepMethod *findStepMethod(std::string_view protocol, std::string_view name) {
  const Protocol *p = findProtocol(protocol);
  return p ? p->findStep(name) : nullptr;
}

std::string stepMethodMismatch(std::string_view protocol, std::string_view receiver,
                               std::string_view method) {
  const Protocol *p = findProtocol(protocol);
  if (p && p->findStep(method))
    return "";
  std::string msg = std::string(receiver) + "." + std::string(method) + "(): ";
  if (!p || p->steps.empty())
    return msg + "fbc has no step methods for " + quote(protocol) + " interfaces";
  std::vector<std::string_view> names;
  for (const StepMethod &m : p->steps)
    names.push_back(m.name);
  msg += std::string(protocol) + " interfaces have no step " + quote(method) + "; " +
         std::string(protocol) + " steps: " + stepList(*p);
  if (std::string_view near = star::nearestName(method, names); !near.empty())
    msg += " (did you mean " + quote(near) + "?)";
  return msg;
}

std::string stepGap(std::string_view protocol, std::string_view receiver, std::string_view method) {
  const Protocol *p = findProtocol(protocol);
  if (!p || p->findStep(method))
    return "";
  std::string_view rest = p->referenceSteps;
  bool known = false;
  while (!rest.empty() && !known) {
    size_t end = std::min(rest.find(' '), rest.size());
    known = rest.substr(0, end) == method;
    rest.remove_prefix(std::min(end + 1, rest.size()));
  }
  if (!known)
    return "";
  return std::string(receiver) + "." + std::string(method) + "(): fbc has no " +
         std::string(protocol) + " step client yet (the reference's " + std::string(protocol) +
         " steps: " + std::string(p->referenceSteps) +
         "); a test whose body reaches the call is an error row";
}

std::string stepKeywordMismatch(const StepMethod &m, std::string_view what, std::string_view kw) {
  for (const StepKeyword &k : m.keywords)
    if (k.name == kw)
      return "";
  return std::string(what) + "(): unexpected keyword " + quote(kw) + " (" +
         (m.keywords.empty() ? "it takes none" : "want " + keywordList(m)) + ")";
}

} // namespace fbc::ir
