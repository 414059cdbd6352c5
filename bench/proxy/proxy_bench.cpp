// bench/proxy: what fbc's fault proxy adds to one request, against a direct
// connection to the same server, in the same run.
//
// A keep-alive HTTP/1.1 server (a thread of this process, blocking
// sockets, one fixed 200 response per request), a line-echo TCP server and a
// real redis-server and memcached (GET of a 5-byte value), MariaDB (SELECT 1 over a
// connection logged in first), nats-server (a publish: PUB of 3 bytes and the PING whose
// PONG says the server took it, as fbc's publish step sends it), a gRPC server built with
// libgrpc++ (a unary call over one HTTP/2 connection) and librdkafka's Kafka mock cluster (a
// Produce of one record); a ProxyHub (runtime/proxy/proxy.h) in
// front of each with one rule in force that does not match the traffic (so every request is split,
// matched and relayed: the cost of a proxied interface while no fault fires). The client sends N
// sequential requests over one connection, alternating batches of 1,000 direct and 1,000 proxied so
// both see the same machine state, and prints the median and p99 round trip of each and the median
// difference.
//
//   cmake --build --preset release --target proxy_bench
//   build/release/bench/proxy/proxy_bench [N]
#include "runtime/protocols/grpc_wire.h"
#include "runtime/protocols/h2_session.h"
#include "runtime/proxy/proxy.h"
#include "runtime/trace/trace.h"

#include <nghttp2/nghttp2.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pwd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

using namespace fbc;

namespace {

int listenLoopback(uint16_t &port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  if (bind(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) < 0 || listen(fd, 64) < 0 ||
      getsockname(fd, reinterpret_cast<sockaddr *>(&a), &len) < 0) {
    perror("listen");
    std::exit(1);
  }
  port = ntohs(a.sin_port);
  return fd;
}

int dial(uint16_t port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(port);
  if (connect(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) < 0) {
    perror("connect");
    std::exit(1);
  }
  return fd;
}

// Serves every connection on its own thread: for each request (HTTP: up to
// the blank line; line: up to '\n') writes `reply`.
void serve(int ls, std::string terminator, std::string reply) {
  std::thread([=] {
    for (;;) {
      int c = accept(ls, nullptr, nullptr);
      if (c < 0)
        return;
      int one = 1;
      setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      std::thread([=] {
        std::string buf;
        char tmp[4096];
        for (;;) {
          ssize_t n = recv(c, tmp, sizeof tmp, 0);
          if (n <= 0)
            break;
          buf.append(tmp, size_t(n));
          for (size_t at; (at = buf.find(terminator)) != std::string::npos;) {
            buf.erase(0, at + terminator.size());
            send(c, reply.data(), reply.size(), MSG_NOSIGNAL);
          }
        }
        close(c);
      }).detach();
    }
  }).detach();
}

// One request and its whole reply (`replySize` bytes); the round trip in ns.
int64_t roundTrip(int fd, const std::string &req, size_t replySize) {
  auto t0 = std::chrono::steady_clock::now();
  send(fd, req.data(), req.size(), MSG_NOSIGNAL);
  size_t got = 0;
  char buf[4096];
  while (got < replySize) {
    ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n <= 0) {
      std::fprintf(stderr, "connection closed\n");
      std::exit(1);
    }
    got += size_t(n);
  }
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0)
      .count();
}

double percentile(std::vector<int64_t> v, double p) {
  std::sort(v.begin(), v.end());
  return double(v[size_t(p * double(v.size() - 1))]) / 1000.0;
}

// One request's round trip on a connection, in ns; made by a Connect for
// each connection (a protocol whose client keeps state per connection).
using Trip = std::function<int64_t()>;
using Connect = std::function<Trip(int fd)>;

// Direct vs proxied round trips to the server on `port`, each connection's
// requests made by what `connect` returns for it.
void benchTrips(const char *name, const char *protocol, uint16_t port, const ir::ProxyRule &rule,
                int n, const Connect &connect) {
  rt::Trace trace;
  rt::ProxyHub hub(trace);
  std::string error;
  if (!hub.add({0, "svc", "main", protocol, port, 0, ""}, error)) {
    std::fprintf(stderr, "%s\n", error.c_str());
    std::exit(1);
  }
  hub.start();
  rt::ProxyRuleSpec spec;
  spec.rule = rule;
  spec.siteKey = "svc.main:error";
  std::vector<rt::ProxyRuleSpec> rules;
  rules.push_back(spec);
  hub.rules().push(std::move(rules));
  int directFd = dial(port), proxiedFd = dial(hub.endpoints()[0].proxyPort);
  Trip direct = connect(directFd), proxied = connect(proxiedFd);
  for (int i = 0; i < 1000; ++i) { // warm up both paths
    direct();
    proxied();
  }
  std::vector<int64_t> d, p;
  for (int done = 0; done < n; done += 1000) {
    for (int i = 0; i < 1000; ++i)
      d.push_back(direct());
    for (int i = 0; i < 1000; ++i)
      p.push_back(proxied());
  }
  std::printf("%-5s direct  median %7.1f us  p99 %7.1f us  (%zu requests)\n", name,
              percentile(d, 0.5), percentile(d, 0.99), d.size());
  std::printf("%-5s proxied median %7.1f us  p99 %7.1f us\n", name, percentile(p, 0.5),
              percentile(p, 0.99));
  std::printf("%-5s added at the median: %.1f us per request\n", name,
              percentile(p, 0.5) - percentile(d, 0.5));
  close(directFd);
  close(proxiedFd);
}

// The same for a request of fixed bytes whose reply is `replySize` bytes,
// after `login` (a protocol whose connections log in first: MySQL, NATS).
void bench(const char *name, const char *protocol, uint16_t port, const std::string &req,
           size_t replySize, const ir::ProxyRule &rule, int n, void (*login)(int fd) = nullptr) {
  benchTrips(name, protocol, port, rule, n, [&](int fd) -> Trip {
    if (login)
      login(fd);
    return [fd, req, replySize] { return roundTrip(fd, req, replySize); };
  });
}

// The same against a server thread of this process that writes `reply` per
// request (`terminator` ends a request).
void benchServed(const char *name, const char *protocol, const std::string &terminator,
                 const std::string &req, const std::string &reply, const ir::ProxyRule &rule,
                 int n) {
  uint16_t port = 0;
  serve(listenLoopback(port), terminator, reply);
  bench(name, protocol, port, req, reply.size(), rule, n);
}

// A real server of Debian's on a free port (`args` after the binary, with
// "@PORT@" for the port), seeded with `seed` (whose reply has `seedReply`
// bytes) once it answers; its pid.
pid_t startServer(const char *binary, std::vector<std::string> args, const std::string &seed,
                  size_t seedReply, uint16_t &port) {
  close(listenLoopback(port)); // a free port
  for (std::string &a : args)
    if (a == "@PORT@")
      a = std::to_string(port);
  pid_t pid = fork();
  if (pid == 0) {
    std::vector<char *> argv{const_cast<char *>(binary)};
    for (std::string &a : args)
      argv.push_back(a.data());
    argv.push_back(nullptr);
    int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    execv(binary, argv.data());
    _exit(127);
  }
  for (int attempt = 0; attempt < 200; ++attempt) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(port);
    if (connect(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) == 0) {
      roundTrip(fd, seed, seedReply);
      close(fd);
      return pid;
    }
    close(fd);
    usleep(20000);
  }
  std::fprintf(stderr, "%s did not start on port %u\n", binary, port);
  kill(pid, SIGKILL);
  std::exit(1);
}

// One protocol against its real server: GET of user:1 (alice) with a rule
// on another key in force, then the server is stopped.
void benchReal(const char *name, const char *binary, std::vector<std::string> args,
               const std::string &seed, size_t seedReply, const std::string &get, size_t getReply,
               const ir::ProxyRule &rule, int n) {
  uint16_t port = 0;
  pid_t server = startServer(binary, std::move(args), seed, seedReply, port);
  bench(name, name, port, get, getReply, rule, n);
  kill(server, SIGKILL);
  waitpid(server, nullptr, 0);
}

// MySQL: one packet (3-byte length, sequence number, payload) read whole.
std::string readPacket(int fd) {
  std::string head(4, '\0'), payload;
  for (size_t got = 0; got < 4;) {
    ssize_t n = recv(fd, head.data() + got, 4 - got, 0);
    if (n <= 0) {
      std::fprintf(stderr, "mysql: connection closed\n");
      std::exit(1);
    }
    got += size_t(n);
  }
  size_t len = uint8_t(head[0]) | uint8_t(head[1]) << 8 | uint8_t(head[2]) << 16;
  payload.resize(len);
  for (size_t got = 0; got < len;) {
    ssize_t n = recv(fd, payload.data() + got, len - got, 0);
    if (n <= 0)
      std::exit(1);
    got += size_t(n);
  }
  return head + payload;
}

std::string mysqlPacket(uint8_t seq, const std::string &payload) {
  std::string out{char(payload.size() & 0xff), char((payload.size() >> 8) & 0xff),
                  char((payload.size() >> 16) & 0xff), char(seq)};
  return out + payload;
}

// Logs in as `user` (no password: the empty auth response) over `fd`.
void mysqlLogin(int fd, const std::string &user) {
  readPacket(fd);                                           // the greeting
  uint32_t caps = 1 | 0x200 | 0x2000 | 0x8000 | (1u << 19); // LONG_PASSWORD, PROTOCOL_41,
  // TRANSACTIONS, SECURE_CONNECTION, PLUGIN_AUTH (no CLIENT_DEPRECATE_EOF: a result set
  // keeps its EOFs)
  std::string p;
  for (int i = 0; i < 4; ++i)
    p += char((caps >> (8 * i)) & 0xff);
  p += std::string("\x00\x00\x00\x01", 4) + "\x21" + std::string(23, '\0') + user;
  p += '\0';
  p += '\0'; // auth response: empty
  p += "mysql_native_password";
  p += '\0';
  std::string w = mysqlPacket(1, p);
  send(fd, w.data(), w.size(), MSG_NOSIGNAL);
  std::string ok = readPacket(fd);
  if (ok.size() < 5 || ok[4] != 0) {
    std::fprintf(stderr, "mysql: login refused: %s\n", ok.substr(4).c_str());
    std::exit(1);
  }
}

// The byte size of the server's reply to a `SELECT 1` (a result set: count,
// one column definition, EOF, one row, EOF).
size_t mysqlSelectReplySize(int fd, const std::string &query) {
  send(fd, query.data(), query.size(), MSG_NOSIGNAL);
  size_t size = 0;
  for (int eofs = 0; eofs < 2;) {
    std::string pkt = readPacket(fd);
    size += pkt.size();
    if (pkt.size() < 4 + 9 && uint8_t(pkt[4]) == 0xfe)
      ++eofs;
  }
  return size;
}

// MariaDB (Debian's) in a data directory of its own, as the "mysql" account;
// `SELECT 1` over connections logged in as a password-less user, direct and
// through the proxy with a rule on INSERTs in force.
void benchMysql(int n) {
  namespace fs = std::filesystem;
  passwd *pw = getpwnam("mysql");
  if (!pw) {
    std::fprintf(stderr, "mysql: no mysql account (scripts/setup.sh installs mariadb-server)\n");
    return;
  }
  std::string dir =
      fs::temp_directory_path() / ("fbc-proxy-bench-mysql-" + std::to_string(getpid()));
  fs::create_directories(dir + "/data");
  chown((dir + "/data").c_str(), pw->pw_uid, pw->pw_gid);
  chmod(dir.c_str(), 0755);
  std::ofstream(dir + "/init.sql") << "CREATE USER IF NOT EXISTS 'bench'@'%';\n";
  std::string install = "runuser -u mysql -- mariadb-install-db --no-defaults --datadir=" + dir +
                        "/data --skip-test-db >/dev/null 2>&1";
  if (std::system(install.c_str()) != 0) {
    std::fprintf(stderr, "mysql: mariadb-install-db failed\n");
    return;
  }
  uint16_t port = 0;
  close(listenLoopback(port));
  pid_t server = fork();
  if (server == 0) {
    int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    std::string data = "--datadir=" + dir + "/data", portArg = "--port=" + std::to_string(port),
                sock = "--socket=" + dir + "/data/s.sock",
                init = "--init-file=" + dir + "/init.sql";
    execl("/usr/sbin/runuser", "runuser", "-u", "mysql", "--", "/usr/sbin/mariadbd",
          "--no-defaults", data.c_str(), portArg.c_str(), "--bind-address=127.0.0.1", sock.c_str(),
          init.c_str(), "--skip-log-bin", static_cast<char *>(nullptr));
    _exit(127);
  }
  int probe = -1;
  for (int attempt = 0; attempt < 500 && probe < 0; ++attempt) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(port);
    if (connect(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) == 0)
      probe = fd;
    else
      close(fd), usleep(20000);
  }
  if (probe < 0) {
    std::fprintf(stderr, "mysql: mariadbd did not start\n");
    kill(server, SIGKILL);
    return;
  }
  std::string query = mysqlPacket(0, "\x03SELECT 1");
  mysqlLogin(probe, "bench");
  size_t replySize = mysqlSelectReplySize(probe, query);
  close(probe);
  ir::ProxyRule insertMiss;
  insertMiss.action = ir::ProxyAction::Error;
  insertMiss.query = "insert*";
  insertMiss.errorNumber = 1213;
  bench("mysql", "mysql", port, query, replySize, insertMiss, n,
        [](int fd) { mysqlLogin(fd, "bench"); });
  kill(server, SIGKILL);
  waitpid(server, nullptr, 0);
  fs::remove_all(dir);
}

// NATS: the server's INFO line read, then CONNECT (not verbose: a PUB has
// no reply of its own).
void natsLogin(int fd) {
  std::string info;
  char c;
  while (!info.ends_with("\r\n") && recv(fd, &c, 1, 0) == 1)
    info += c;
  if (!info.starts_with("INFO ")) {
    std::fprintf(stderr, "nats: no INFO from the server\n");
    std::exit(1);
  }
  std::string connect = "CONNECT {\"verbose\":false,\"pedantic\":false}\r\n";
  send(fd, connect.data(), connect.size(), MSG_NOSIGNAL);
}

// nats-server (Debian's) on a free port: a publish of 3 bytes on
// orders.created with its PING, answered PONG, direct and through the
// proxy's NATS codec with a rule on billing.* in force.
void benchNats(int n) {
  uint16_t port = 0;
  pid_t server =
      startServer("/usr/sbin/nats-server", {"-a", "127.0.0.1", "-p", "@PORT@"}, "", 0, port);
  ir::ProxyRule miss;
  miss.action = ir::ProxyAction::Error;
  miss.subject = "billing.*";
  bench("nats", "nats", port, "PUB orders.created 3\r\no-1\r\nPING\r\n", std::strlen("PONG\r\n"),
        miss, n, natsLogin);
  kill(server, SIGKILL);
  waitpid(server, nullptr, 0);
}

// A gRPC client connection: one HTTP/2 session (libnghttp2) on a blocking
// socket, a unary call at a time, as a gRPC channel makes them.
class GrpcConn {
public:
  explicit GrpcConn(int fd) : fd_(fd) {
    nghttp2_session_callbacks *cb = nullptr;
    nghttp2_session_callbacks_new(&cb);
    nghttp2_session_callbacks_set_on_header_callback(
        cb, [](nghttp2_session *, const nghttp2_frame *, const uint8_t *name, size_t namelen,
               const uint8_t *value, size_t valuelen, uint8_t, void *ud) {
          if (std::string_view(reinterpret_cast<const char *>(name), namelen) == "grpc-status")
            static_cast<GrpcConn *>(ud)->status_.assign(reinterpret_cast<const char *>(value),
                                                        valuelen);
          return 0;
        });
    nghttp2_session_callbacks_set_on_stream_close_callback(
        cb, [](nghttp2_session *, int32_t, uint32_t, void *ud) {
          static_cast<GrpcConn *>(ud)->closed_ = true;
          return 0;
        });
    nghttp2_session_client_new(&s_, cb, this);
    nghttp2_session_callbacks_del(cb);
    nghttp2_submit_settings(s_, NGHTTP2_FLAG_NONE, nullptr, 0);
  }
  ~GrpcConn() { nghttp2_session_del(s_); }

  // One call of `path` with `message`; its round trip in ns.
  int64_t call(const std::string &path, const std::string &message) {
    auto t0 = std::chrono::steady_clock::now();
    request_.clear();
    request_.append(rt::grpcFrame(message));
    request_.ended = true;
    closed_ = false;
    status_.clear();
    std::pair<std::string_view, std::string_view> fields[] = {{":method", "POST"},
                                                              {":scheme", "http"},
                                                              {":path", path},
                                                              {":authority", "bench"},
                                                              {"content-type", "application/grpc"},
                                                              {"te", "trailers"}};
    std::vector<nghttp2_nv> nv = rt::h2Fields(fields);
    nghttp2_data_provider body{};
    body.read_callback = [](nghttp2_session *, int32_t, uint8_t *buf, size_t length,
                            uint32_t *flags, nghttp2_data_source *, void *ud) -> ssize_t {
      return static_cast<GrpcConn *>(ud)->request_.read(buf, length, flags);
    };
    nghttp2_submit_request(s_, nullptr, nv.data(), nv.size(), &body, nullptr);
    char buf[16384];
    for (;;) {
      // All the session owes in one send (its HEADERS and DATA, SETTINGS
      // and PING acks): a send per frame would be a syscall each.
      std::string out;
      rt::h2Send(s_, [&out](std::string_view b) { out.append(b); });
      if (!out.empty())
        send(fd_, out.data(), out.size(), MSG_NOSIGNAL);
      if (closed_)
        break;
      ssize_t n = recv(fd_, buf, sizeof buf, 0);
      if (n <= 0 || nghttp2_session_mem_recv(s_, reinterpret_cast<uint8_t *>(buf), size_t(n)) < 0) {
        std::fprintf(stderr, "grpc: connection closed\n");
        std::exit(1);
      }
    }
    if (status_ != "0") {
      std::fprintf(stderr, "grpc: call ended with grpc-status '%s'\n", status_.c_str());
      std::exit(1);
    }
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() -
                                                                t0)
        .count();
  }

private:
  int fd_;
  nghttp2_session *s_ = nullptr;
  rt::H2Body request_;
  std::string status_;
  bool closed_ = false;
};

// The tests' gRPC server (libgrpc++) on a free port: /orders.Orders/Get of
// OrderRequest{id: "o-1"} (answered Order{id, "stored"}), each connection a
// channel's worth of calls, direct and through the proxy's HTTP/2 bridge
// with a rule on /billing.* in force (every call's stream decided and
// relayed).
void benchGrpc(int n) {
  uint16_t port = 0;
  pid_t server = startServer(FBC_GRPC_ORDERS, {"--serve", "@PORT@"}, "", 0, port);
  ir::ProxyRule miss;
  miss.action = ir::ProxyAction::Error;
  miss.method = "/billing.*";
  miss.status = 14;
  std::vector<std::unique_ptr<GrpcConn>> conns;
  benchTrips("grpc", "grpc", port, miss, n, [&](int fd) -> Trip {
    conns.push_back(std::make_unique<GrpcConn>(fd));
    GrpcConn *c = conns.back().get();
    return [c] { return c->call("/orders.Orders/Get", "\n\x03o-1"); };
  });
  kill(server, SIGKILL);
  waitpid(server, nullptr, 0);
}

// Kafka: librdkafka's mock cluster (fbc-kafka-mock, built with fbc) on a
// free port, a Produce v7 of one 3-byte record to orders as librdkafka
// 2.0.2 sends it (captured; the broker's answer is 58 bytes), direct and
// through the proxy's Kafka codec with a rule on topic billing in force.
void benchKafka(int n) {
  constexpr std::string_view kProduceHex =
      "000000780000000700000004000772646b61666b61ffffffff000075300000000100066f7264657273000000"
      "01000000000000004700000000000000000000003b0000000002a11fbaca000000000000000001a24eedf735"
      "000001a24eedf735ffffffffffffffffffffffffffff000000011200000001066f2d3100";
  std::string produce;
  for (size_t i = 0; i + 1 < kProduceHex.size(); i += 2)
    produce.push_back(
        static_cast<char>(std::stoi(std::string(kProduceHex.substr(i, 2)), nullptr, 16)));
  uint16_t port = 0;
  pid_t server =
      startServer(FBC_KAFKA_MOCK, {"--port", "@PORT@", "--topic", "orders"}, "", 0, port);
  ir::ProxyRule miss;
  miss.action = ir::ProxyAction::Error;
  miss.topic = "billing";
  bench("kafka", "kafka", port, produce, 58, miss, n);
  kill(server, SIGKILL);
  waitpid(server, nullptr, 0);
}

} // namespace

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 20000;
  std::string body = "{\"ok\":true}";
  std::string http = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
                     std::to_string(body.size()) + "\r\n\r\n" + body;
  ir::ProxyRule miss;
  miss.action = ir::ProxyAction::Error;
  miss.path = "/never/*";
  miss.status = 503;
  benchServed("http", "http", "\r\n\r\n", "GET /orders/17 HTTP/1.1\r\nHost: bench\r\n\r\n", http,
              miss, n);
  ir::ProxyRule tcpMiss;
  tcpMiss.action = ir::ProxyAction::Delay;
  tcpMiss.delayNs = 1000000;
  tcpMiss.probability = 0; // matches every chunk, never fires
  benchServed("tcp", "tcp", "\n", "GET k\n", "value\n", tcpMiss, n);
  // Redis: RESP framing by the codec (runtime/protocols/proto_redis.*), a GET of a
  // user key against a real server, a rule on another key.
  ir::ProxyRule redisMiss;
  redisMiss.action = ir::ProxyAction::Error;
  redisMiss.command = "GET";
  redisMiss.key = "session:*";
  benchReal("redis", "/usr/bin/redis-server",
            {"--port", "@PORT@", "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"},
            "*3\r\n$3\r\nSET\r\n$6\r\nuser:1\r\n$5\r\nalice\r\n", 5, // +OK
            "*2\r\n$3\r\nGET\r\n$6\r\nuser:1\r\n", std::strlen("$5\r\nalice\r\n"), redisMiss, n);
  // memcached: the text-protocol codec (runtime/protocols/proto_memcached.*),
  // the same GET and a rule on another key.
  ir::ProxyRule memcachedMiss = redisMiss;
  memcachedMiss.command = "get";
  benchReal("memcached", "/usr/bin/memcached",
            {"-p", "@PORT@", "-l", "127.0.0.1", "-U", "0", "-u", "root", "-m", "8"},
            "set user:1 0 0 5\r\nalice\r\n", std::strlen("STORED\r\n"), "get user:1\r\n",
            std::strlen("VALUE user:1 0 5\r\nalice\r\nEND\r\n"), memcachedMiss, n);
  benchMysql(n);
  benchNats(n);
  benchGrpc(n);
  benchKafka(n);
}
