// `fbc run` against real servers from Debian: redis-server and PostgreSQL
// 15 (issue #14's steps, readiness and service(user=)). The specs are in protocol_specs/, their
// text reports in protocol_golden/ (the shared runner of fbc_run.h, with FBC_RUN_SPECS and
// FBC_RUN_GOLDEN pointing there).
//
// This binary is one CTest test (no per-test discovery) so that the
// expensive fixtures are made once: a PostgreSQL data directory (initdb,
// run as the "postgres" account the postgresql package creates, on a
// scratch directory) and the RDB file of 300 keys the loading test needs.
#include "runtime/clients/redis_step.h"
#include "tests/e2e/fbc_run.h"
#include "tests/e2e/server_data.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>

namespace fbc::rt::e2e {
namespace {

constexpr const char *kMyUser = "mysql";

// The fixtures shared by every test of this binary.
struct Fixtures {
  TempDir dir;
  std::string pgData, rdbDir, myData, myInit;
  std::string tlsDir, pgTls, myTls; // tests/fixtures/tls, keys 0600 for root, postgres, mysql
  std::string error;                // why a fixture could not be made

  Fixtures() {
    chmod(dir.path().c_str(), 0755); // the postgres account walks into it
    pgData = dir.file("pgdata");
    rdbDir = dir.file("rdb");
    makePgData();
    makeRdb();
    myData = dir.file("mydata");
    myInit = dir.file("myinit.sql");
    makeMyData();
    tlsDir = dir.file("tls");
    pgTls = dir.file("tls-pg");
    myTls = dir.file("tls-my");
    copyTls(tlsDir, "root");
    copyTls(pgTls, "postgres");
    copyTls(myTls, kMyUser);
  }

  // The test certificates, owned by `user` (servers refuse a key others
  // can read, and read it as their own account).
  void copyTls(const std::string &to, const char *user) {
    passwd *pw = getpwnam(user);
    if (!pw) {
      error += std::string("no account \"") + user + "\"";
      return;
    }
    mkdir(to.c_str(), 0755);
    for (const char *name :
         {"ca.pem", "other_ca.pem", "service.pem", "service.key", "proxy.pem", "proxy.key",
          "other_service.pem", "other_service.key", "hello.openapi.yaml"}) {
      std::string file = to + "/" + name;
      std::ofstream(file) << readFile(std::string(FBC_TLS_FIXTURES) + "/" + name);
      bool key = std::string_view(name).ends_with(".key");
      if (chmod(file.c_str(), key ? 0600 : 0644) != 0 ||
          chown(file.c_str(), pw->pw_uid, pw->pw_gid) != 0)
        error += "cannot copy " + file;
    }
  }

  // A MariaDB data directory (mariadb-install-db, as the "mysql" account
  // the mariadb-server package creates) and the init file the specs start
  // the server with: the account and database their env names.
  void makeMyData() {
    passwd *pw = getpwnam(kMyUser);
    if (!pw) {
      error += "no account \"mysql\" (scripts/setup.sh installs mariadb-server)";
      return;
    }
    mkdir(myData.c_str(), 0700);
    if (chown(myData.c_str(), pw->pw_uid, pw->pw_gid) != 0) {
      error += "chown " + myData + " failed";
      return;
    }
    std::ofstream(myInit) << "CREATE USER IF NOT EXISTS 'app'@'%' IDENTIFIED BY 'secret';\n"
                             "GRANT ALL ON *.* TO 'app'@'%';\n"
                             "CREATE DATABASE IF NOT EXISTS shop;\n";
    chmod(myInit.c_str(), 0644);
    std::string log = dir.file("mariadb-install-db.log");
    if (runCommand({"runuser", "-u", kMyUser, "--", "mariadb-install-db", "--no-defaults",
                    "--datadir=" + myData, "--auth-root-authentication-method=normal",
                    "--skip-test-db"},
                   log) != 0)
      error += "mariadb-install-db failed:\n" + readFile(log);
  }

  void makePgData() { error = e2e::makePgData(pgData, dir.file("initdb.log")); }

  // keys.rdb: key:1..key:300 = v1..v300, saved by a real redis-server.
  void makeRdb() {
    mkdir(rdbDir.c_str(), 0755);
    uint16_t port = freePort();
    pid_t pid = fork();
    if (pid == 0) {
      execl("/usr/bin/redis-server", "redis-server", "--port", std::to_string(port).c_str(),
            "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", rdbDir.c_str(),
            "--dbfilename", "keys.rdb", "--logfile", "/dev/null", static_cast<char *>(nullptr));
      _exit(127);
    }
    std::vector<std::string> mset{"MSET"};
    for (int i = 1; i <= 300; ++i) {
      std::string n = std::to_string(i);
      mset.push_back(std::string("key:").append(n));
      mset.push_back(std::string("v").append(n));
    }
    RedisStepResult r;
    for (int attempt = 0; attempt < 200; ++attempt) {
      r = redisStep("127.0.0.1", port, mset, nullptr);
      if (r.ok)
        break;
      usleep(50000);
    }
    RedisStepResult saved = redisStep("127.0.0.1", port, {"SAVE"}, nullptr);
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
    if (!r.ok || !saved.ok || describeResp(saved.reply) != "OK")
      error = "could not write keys.rdb: " + r.error + saved.error;
  }
};

Fixtures &fixtures() {
  static Fixtures f;
  return f;
}

// A spec from protocol_specs/ with the fixture paths filled in.
struct ProtocolSpec : Spec {
  explicit ProtocolSpec(const std::string &name,
                        std::vector<std::pair<std::string, std::string>> extra = {})
      : Spec(name) {
    const Fixtures &f = fixtures();
    std::string text = readFile(dir.file("spec.star"));
    extra.emplace_back("@PG_BIN@", kPgBin);
    extra.emplace_back("@PG_DATA@", f.pgData);
    extra.emplace_back("@RDB_DIR@", f.rdbDir);
    extra.emplace_back("@MY_DATA@", f.myData);
    extra.emplace_back("@MY_INIT@", f.myInit);
    extra.emplace_back("@TLS_DIR@", f.tlsDir);
    extra.emplace_back("@PG_TLS@", f.pgTls);
    extra.emplace_back("@MY_TLS@", f.myTls);
    for (const auto &[from, to] : extra)
      for (size_t p; (p = text.find(from)) != std::string::npos;)
        text.replace(p, from.size(), to);
    std::ofstream(dir.file("spec.star")) << text;
  }
};

class Protocol : public ::testing::Test {
protected:
  void SetUp() override {
    if (!fixtures().error.empty())
      FAIL() << fixtures().error;
  }
};

TEST_F(Protocol, RedisStepDecodesEveryReplyType) {
  ProtocolSpec spec("redis_steps");
  runWithGolden(spec, 2);
}

TEST_F(Protocol, RedisReadyWaitsForPongNotLoading) {
  // ready(): the step runs after loading and reads the key.
  ProtocolSpec ready("redis_loading", {{"@HEALTHCHECK@", "ready()"}});
  FbcRun r = runFbc({"run", ready.path, "--seed", "1", "--no-bundle"}, ready.dir.path());
  EXPECT_EQ(r.exit, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "--- PASS: test_get_after_readiness")) << r.out;
  // An open port is not enough: with tcp() the same step meets -LOADING.
  ProtocolSpec port("redis_loading", {{"@HEALTHCHECK@", "tcp(\"localhost:@KV_PORT@\")"}});
  std::string text = readFile(port.dir.file("spec.star"));
  for (size_t p; (p = text.find("@KV_PORT@")) != std::string::npos;)
    text.replace(p, 9, std::to_string(port.kvPort));
  std::ofstream(port.dir.file("spec.star")) << text;
  r = runFbc({"run", port.path, "--seed", "1", "--no-bundle"}, port.dir.path());
  EXPECT_EQ(r.exit, 2) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "<redis_error \"LOADING Redis is loading the dataset in memory\">"))
      << r.out;
}

// MySQL (mysql_steps.star) against Debian's MariaDB: ready() logs in and
// pings, .exec/.query with ? params (escaped, NULL, bools), typed rows,
// the server's error numbers and SQLSTATEs, a params/placeholder mismatch;
// through fbc's proxy (the server speaks first: it is dialled at accept)
// error(query=, code=) as an ERR packet with the number and SQLSTATE,
// response() as an OK, delay(), and a rule nobody meets fault_bypassed.
TEST_F(Protocol, MysqlStepsAndFaultsThroughTheProxy) {
  ProtocolSpec spec("mysql_steps");
  runWithGolden(spec, 0);
}

// The reference's MySQL example shape (mysql_orders.star): an orders
// service writing to MariaDB through libmariadb; a stored order read back
// by a .query(sql=) step, an INSERT answered with a deadlock ERR packet by
// the proxy (nothing stored), and a connect deny on the service (its
// request fails, the next one works).
TEST_F(Protocol, ReferenceMysqlExampleRunsAgainstMariadb) {
  ProtocolSpec spec("mysql_orders");
  runWithGolden(spec, 0);
}

// A udp interface (udp_memcached.star) against memcached's UDP port: the
// send / send_no_reply steps, and fbc's UDP proxy dropping (no reply) and
// delaying one datagram, a rule no datagram reached fault_bypassed.
TEST_F(Protocol, UdpStepsAndDatagramFaultsAgainstMemcached) {
  ProtocolSpec spec("udp_memcached");
  runWithGolden(spec, 0);
}

// memcached (memcached_proxy.star) against a real memcached: the steps
// (set, get hit and miss, incr, delete), ready() by `version`, and through
// fbc's proxy error(command=, key=) as SERVER_ERROR, response() as a miss
// and as a hit of the rule's making, a delay in the step's duration, drop()
// under incr, and a rule on keys nobody read fault_bypassed.
TEST_F(Protocol, MemcachedStepsAndFaultsThroughTheProxy) {
  ProtocolSpec spec("memcached_proxy");
  runWithGolden(spec, 0);
}

// NATS (nats_steps.star) against Debian's nats-server: ready() by INFO and
// PONG; publish reaching a subscriber written with the NATS C client (its
// stdout lines observed), request answered by it and the server's
// no-responders answer, subscribe collecting what arrives, a subject with
// a space an error row (exit 2).
TEST_F(Protocol, NatsStepsAgainstNatsServer) {
  ProtocolSpec spec("nats_steps");
  runWithGolden(spec, 2);
}

// fbc plan --suggest --from a run of the NATS steps: a stub per subject the
// passing tests published on (a request publishes too; subscribe and the
// failing row's subject do not count), subjects under one parent grouped
// (orders.*).
TEST_F(Protocol, NatsSuggestFromARunStubsThePublishedSubjects) {
  ProtocolSpec spec("nats_steps");
  FbcRun run = runFbc({"run", spec.path, "--seed", "1", "--bundle", "nats.fb"}, spec.dir.path());
  EXPECT_EQ(run.exit, 2) << run.out << run.err; // test_bad_subject_is_an_error
  FbcRun plan = runFbc({"plan", spec.path, "--suggest", "--from", "nats.fb"}, spec.dir.path());
  EXPECT_EQ(plan.exit, 0) << plan.out << plan.err;
  std::string out = plan.out.substr(plan.out.find("Suggestions from"));
  checkGolden("nats_suggest_from", out, ".txt");
}

// NATS faults through fbc's proxy (nats_proxy.star): a publisher and a
// subscriber service written with the NATS C client, both connected
// through the proxy; duplicate(subject=) delivering the publisher's message
// to the subscriber twice (both deliveries stdout events in the trace),
// drop() closing the publisher's connection under its message (the
// subscriber never sees it), delay() in the step's duration, error() as
// -ERR to the step with another subject passing, the reference's recipes
// (nats.slow_consumer(), nats.slow_delivery()), and a rule on subjects
// nobody publishes to fault_bypassed. In the JSON report of the duplicate:
// the proxy event with its subject, then both deliveries of orders.created
// and the one of orders.paid as the subscriber's stdout events (compared by
// their fields: when the subscriber's lines are read against the step's
// own events is the scheduler's choice, so the whole report is no golden).
TEST_F(Protocol, NatsFaultsThroughTheProxy) {
  ProtocolSpec spec("nats_proxy", {{"@SUB_PORT@", std::to_string(freePort())}});
  runWithGolden(spec, 0);
  FbcRun j = runFbc({"run", spec.path, "--seed", "1", "--no-bundle", "--format=json", "--test",
                     "test_duplicate_reaches_the_subscriber_twice"},
                    spec.dir.path());
  EXPECT_EQ(j.exit, 0) << j.out << j.err;
  std::vector<std::string> seen; // proxy and stdout events, and every subject, in order
  for (const std::string &m : allMatches(j.out, R"re("(?:type|subject)": "([^"]*)")re"))
    if (m == "proxy" || m == "stdout" || m.starts_with("orders."))
      seen.push_back(m);
  EXPECT_EQ(seen, (std::vector<std::string>{"proxy", "orders.created", "stdout", "orders.created",
                                            "stdout", "orders.created", "stdout", "orders.paid"}))
      << j.out;
  EXPECT_EQ(allMatches(j.out, R"re("action": "([a-z]+)")re"),
            (std::vector<std::string>{"duplicate"}));
}

// max_fires=2 mode="exhaustive" on a NATS error() rule (nats_modes.star):
// four leaves, each pinning which of the two matching publishes is
// refused (return values in leaf order), the other subject always passing;
// plan = run, the bundle manifest's leaves included.
TEST_F(Protocol, NatsRuleModesAndPlanEqualsRun) {
  ProtocolSpec spec("nats_modes");
  FbcRun run =
      expectRuleModeLeaves(spec, 0, kReturnedList,
                           {R"([\"ok\", \"ok\", \"ok\"])", R"([\"err\", \"ok\", \"ok\"])",
                            R"([\"ok\", \"ok\", \"err\"])", R"([\"err\", \"ok\", \"err\"])"});
  // The JSON report's proxy events carry the subject, each leaf's own.
  checkGolden("nats_modes", normalizeJson(run.out, spec), ".json");
}

// AMQP 0-9-1 through fbc's proxy (amqp_proxy.star, which says what each
// test checks) against a private node of Debian's RabbitMQ: its own node
// name and AMQP, distribution and epmd ports (the spec's env), its data and
// logs in a directory of the test's, where its config and enabled-plugins
// files are absent (not /etc/rabbitmq's: defaults, no plugins). reuse=True:
// started once per `fbc run`, its 10-17 s start most of each run's time.
// `fbc plan` counts the rows the run reports (16: max_fires=2
// mode="exhaustive" is four leaves); each leaf
// pins which of the two matching publishes has its channel closed, the
// other routing key always passing (what the publisher saw, in leaf order:
// in the last leaf the second close comes on the channel it opened again).
TEST_F(Protocol, AmqpFaultsThroughTheProxyAgainstRabbitmq) {
  TempDir rmq;
  ProtocolSpec spec("amqp_proxy", {{"@RMQ_DIR@", rmq.path()},
                                   {"@SUB_PORT@", std::to_string(freePort())},
                                   {"@DIST_PORT@", std::to_string(freePort())},
                                   {"@EPMD_PORT@", std::to_string(freePort())}});
  runWithGolden(spec, 0);
  FbcRun plan = runFbc({"plan", spec.path}, spec.dir.path());
  EXPECT_TRUE(contains(plan.out, "Total: 16 plan instances")) << plan.out << plan.err;
  FbcRun j = runFbc({"run", spec.path, "--seed", "1", "--no-bundle", "--format=json", "--test",
                     "test_publish_error_exhaustive"},
                    spec.dir.path());
  EXPECT_EQ(j.exit, 0) << j.out << j.err;
  const std::string ok = R"(\"ok\")", err = R"(\"error channel 406 PRECONDITION_FAILED - busy\")";
  EXPECT_EQ(allMatches(j.out, R"re("return_value": "(\[(?:[^"\\]|\\.)*\])")re"),
            (std::vector<std::string>{
                "[" + ok + ", " + ok + ", " + ok + "]", "[" + err + ", " + ok + ", " + ok + "]",
                "[" + ok + ", " + ok + ", " + err + "]", "[" + err + ", " + ok + ", " + err + "]"}))
      << j.out;
}

// ready() over TLS on an amqp interface (tls_amqp.star): a private RabbitMQ
// node with a TLS listener beside its plain one, from the rabbitmq.conf
// written here (the test certificates, no client certificate asked for).
// The row passes only if ready() saw Connection.Start in the TLS session.
TEST_F(Protocol, AmqpReadyOverTlsAgainstRabbitmq) {
  TempDir rmq;
  ProtocolSpec spec("tls_amqp", {{"@RMQ_DIR@", rmq.path()},
                                 {"@DIST_PORT@", std::to_string(freePort())},
                                 {"@EPMD_PORT@", std::to_string(freePort())}});
  const std::string &tls = fixtures().tlsDir;
  std::ofstream(rmq.file("rabbitmq.conf"))
      << "listeners.ssl.default = " << spec.apiPort << "\n"
      << "ssl_options.cacertfile = " << tls << "/ca.pem\n"
      << "ssl_options.certfile = " << tls << "/service.pem\n"
      << "ssl_options.keyfile = " << tls << "/service.key\n"
      << "ssl_options.verify = verify_none\n"
      << "ssl_options.fail_if_no_peer_cert = false\n";
  runWithGolden(spec, 0);
}

// gRPC (grpc_steps.star) against a real gRPC server built with Debian's
// libgrpc++ (tests/fixtures/grpc_orders.cc): .call()'s round trip over
// HTTP/2 with the reply's message, the server's own status and message, an
// unknown method's UNIMPLEMENTED, and a method that is no full method name
// an error row (exit 2).
TEST_F(Protocol, GrpcStepsAgainstAGrpcServer) {
  ProtocolSpec spec("grpc_steps");
  runWithGolden(spec, 2);
}

// gRPC faults through fbc's HTTP/2 bridge (grpc_proxy.star): a real gRPC
// client (grpc-core's HTTP/2: its SETTINGS, pings, HPACK and flow control)
// and the steps, both through the proxy: error() as a grpc-status the
// client reports, with another method passing; response() as a reply
// message; delay() of one call; drop() closing the connection; the
// reference's recipes, a percent-encoded grpc-message among them; and a
// rule on a method nobody calls fault_bypassed.
TEST_F(Protocol, GrpcFaultsThroughTheProxy) {
  ProtocolSpec spec("grpc_proxy");
  runWithGolden(spec, 0);
}

// UNAVAILABLE on one method with max_fires=2 mode="exhaustive"
// (grpc_modes.star): four leaves, each pinning which of the two Gets is
// refused (the statuses in leaf order), Place always passing; `fbc plan`
// counts 4; plan = run, the bundle manifest's leaves included.
TEST_F(Protocol, GrpcRuleModesAndPlanEqualsRun) {
  ProtocolSpec spec("grpc_modes");
  expectRuleModeLeaves(spec, 0, kReturnedList,
                       {"[0, 0, 0]", "[14, 0, 0]", "[0, 0, 14]", "[14, 0, 14]"});
}

// Plain HTTP/2 (http2_proxy.star) against Debian's nghttpd, which speaks
// nothing but HTTP/2: ready() and the HTTP steps over HTTP/2, error(path=) and response(method=,
// path=) answered with a :status, delay() and drop() of a request stream, and a 1 MiB body each way
// through the bridge (flow control: each side's reader waits for more).
TEST_F(Protocol, Http2StepsAndFaultsThroughTheProxy) {
  TempDir root;
  std::ofstream(root.file("hello.txt")) << "hello";
  std::ofstream(root.file("bye.txt")) << "bye";
  std::ofstream(root.file("index.html")) << "up"; // what ready() GETs
  std::ofstream big(root.file("big.txt"));        // 1 MiB: 16 times HTTP/2's first window
  for (int i = 0; i < 65536; ++i)
    big << "0123456789abcdef";
  big.close();
  ProtocolSpec spec("http2_proxy", {{"@DOCROOT@", root.path()}});
  runWithGolden(spec, 0);
}

TEST_F(Protocol, PostgresQueryRowsAndSqlstateAsUser) {
  ProtocolSpec spec("postgres_steps");
  runWithGolden(spec, 0);
}

// Through fbc's proxy (redis_proxy.star): GET of a user key answered with
// the rule's -ERR while SET of the same key reaches the server; a 300 ms
// delay in the step's duration_ms; response(); drop() fails the step
// (test_drop_closes_under_command, on purpose: exit 2); a rule on keys no
// command touched is fault_bypassed, its hint naming the commands it saw.
// The text report and the JSON report's proxy events are compared whole.
TEST_F(Protocol, RedisFaultsThroughTheProxy) {
  ProtocolSpec spec("redis_proxy");
  runWithGolden(spec, 2);
  FbcRun j = runFbc({"run", spec.path, "--seed", "1", "--no-bundle", "--format=json", "--test",
                     "test_get_user_error_set_succeeds"},
                    spec.dir.path());
  EXPECT_EQ(j.exit, 0) << j.out << j.err;
  checkGolden("redis_proxy", normalizeJson(j.out, spec), ".json");
}

// mode="exhaustive" on a Redis rule (redis_proxy.star's
// test_get_error_exhaustive, max_fires=2): four leaves, in leaf k the first
// and the second GET of user:1 fail as k's bits say while SET and GET of
// session:1 reach the server; and plan = run for the spec, the bundle
// manifest's leaves included (fbc_run.h).
TEST_F(Protocol, RedisExhaustiveRuleLeavesAndPlanEqualsRun) {
  ProtocolSpec spec("redis_proxy");
  FbcRun run = expectPlanTotalEqualsRunRows(spec);
  EXPECT_EQ(run.exit, 2) << run.out << run.err;
  expectManifestLeavesMatchPlan(spec, run);
  EXPECT_EQ(allMatches(run.out, R"re("return_value": "(\[\\"OK(?:[^"\\]|\\.)*)")re"),
            (std::vector<std::string>{
                R"([\"OK\", \"alice\", None, \"alice\"])",
                R"([\"OK\", \"ERR injected fault\", None, \"alice\"])",
                R"([\"OK\", \"alice\", None, \"ERR injected fault\"])",
                R"([\"OK\", \"ERR injected fault\", None, \"ERR injected fault\"])",
            }))
      << run.out;
}

// postgres_proxy.star: a SELECT on orders (simple and extended protocol,
// any case and spacing) fails with SQLSTATE 57P01 for the libpq client
// while other statements succeed; the same rule while only `SELECT 1`
// runs is fault_bypassed, the normalised query it saw in its hint.
TEST_F(Protocol, PostgresFaultsThroughTheProxy) {
  ProtocolSpec spec("postgres_proxy");
  runWithGolden(spec, 0);
}

// user="postgres" with its data directory in $FBC_SCRATCH: the scratch
// directory belongs to the service's account.
TEST_F(Protocol, PostgresDataDirectoryInScratchAsUser) {
  ProtocolSpec spec("postgres_scratch");
  runWithGolden(spec, 0);
}

// max_fires / probability / mode on memcached, UDP and MySQL rules as on
// HTTP and Redis (issue #28): mode="exhaustive" with max_fires=2 runs four
// leaves per test, each pinning which of the two matching units is faulted
// (their return values, in leaf order); plan = run, the bundle manifest's
// leaves included; the JSON report's proxy events carry the protocol's
// fields (command and key, the normalised query).
TEST_F(Protocol, MemcachedUdpAndMysqlRuleModesAndPlanEqualsRun) {
  ProtocolSpec mc("memcached_modes");
  FbcRun run = expectRuleModeLeaves(
      mc, 0, kReturnedList,
      {
          R"([\"reply\", \"reply\"])",
          R"([\"none\", \"reply\"])",
          R"([\"reply\", \"none\"])",
          R"([\"none\", \"none\"])",
          R"([\"STORED\", \"alice\", None, \"alice\"])",
          R"([\"STORED\", \"memcached error: SERVER_ERROR busy\", None, \"alice\"])",
          R"([\"STORED\", \"alice\", None, \"memcached error: SERVER_ERROR busy\"])",
          R"([\"STORED\", \"memcached error: SERVER_ERROR busy\", None, )"
          R"(\"memcached error: SERVER_ERROR busy\"])",
      });
  checkGolden("memcached_modes", normalizeJson(run.out, mc), ".json");

  ProtocolSpec my("mysql_modes");
  // [first INSERT's error code, rows stored in between, second's]
  FbcRun myRun = expectRuleModeLeaves(
      my, 0, kReturnedList,
      {"[None, 1, None]", "[1213, 0, None]", "[None, 1, 1213]", "[1213, 0, 1213]"});
  checkGolden("mysql_modes", normalizeJson(myRun.out, my), ".json");
}

// interface(tls=) (issue #28): fbc's proxy terminates TLS with the
// tls_cert's proxy_cert and re-originates it to the service, verified with
// its CA, so the protocol's rules work on a TLS interface; the steps and
// ready() speak TLS with the same CA. One spec per real server: redis-server
// (--tls-port), PostgreSQL (ssl=on: SSLRequest), MariaDB (--ssl-cert: TLS
// after the greeting), memcached (-Z) and a Python https server.
TEST_F(Protocol, TlsRedisStepsAndRulesThroughTheTerminatingProxy) {
  ProtocolSpec spec("tls_redis");
  runWithGolden(spec, 0);
}

TEST_F(Protocol, TlsPostgresSslRequestThroughTheTerminatingProxy) {
  ProtocolSpec spec("tls_postgres");
  runWithGolden(spec, 0);
}

TEST_F(Protocol, TlsMysqlAfterTheGreetingThroughTheTerminatingProxy) {
  ProtocolSpec spec("tls_mysql");
  runWithGolden(spec, 0);
}

TEST_F(Protocol, TlsMemcachedAndHttpThroughTheTerminatingProxy) {
  ProtocolSpec spec("tls_memcached_http");
  runWithGolden(spec, 0);
}

// NATS begins TLS after the server's INFO (nats-server --tls): the steps,
// ready() and the NATS C client read INFO in clear, then handshake; the
// proxy relays INFO in clear to its caller and re-originates TLS after the
// server's, so duplicate() and error() work on the PUBs in between.
TEST_F(Protocol, TlsNatsAfterTheInfoThroughTheTerminatingProxy) {
  ProtocolSpec spec("tls_nats");
  runWithGolden(spec, 0);
}

// A service whose certificate the tls_cert's CA did not sign: the proxy
// refuses it (a tls_failed event, side "service", the step fails), never
// relaying in clear or unverified.
TEST_F(Protocol, TlsServiceCertificateFromAnotherCaIsRefused) {
  ProtocolSpec spec("tls_refused");
  runWithGolden(spec, 0);
}

TEST_F(Protocol, PostgresRefusesRootWithoutUser) {
  ProtocolSpec spec("postgres_as_root");
  runWithGolden(spec, 2);
}

} // namespace
} // namespace fbc::rt::e2e
