// parallel(..., interleavings="dpor") against real servers (issue #30's
// validation, docs/run.md "Exploring orderings"): two concurrent requests
// to a small client of Debian's redis-server (protocol_specs/
// explore_redis.star: GET, then SET of one key) and of PostgreSQL 15
// (explore_postgres.star: SELECT count(*), then INSERT when none). Each
// request makes six held calls (recv, write, read, write, read, send);
// the two writes to the server of each request touch one key or table, so
// DPOR runs the C(4,2) = 6 orders of those four writes, one leaf each, of
// the C(12,6) = 924 release orders (a booking that finds the other's row
// makes four calls). The 4 where each request's first write
// comes before the other's second lose an update / book twice, and only
// those. A failing leaf replays from the bundle 10 times out of 10; launch
// orders (interleavings="all") never overlap the requests; with two keys
// or two tables there is one class. Through fbc's proxy (a rule on the
// server's interface) the proxy holds each request it relays, a message
// released as a call is (runtime/proxy/proxy_hold.h): the app's sends to
// the proxy then touch only their connections, and the four messages
// (GET, SET / SELECT, INSERT of each request) are what DPOR orders.
#include "tests/e2e/explore_rows.h"
#include "tests/e2e/fbc_run.h"
#include "tests/e2e/server_data.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <set>

namespace fbc::rt::e2e {
namespace {

// The PostgreSQL data directory, made once per process.
struct PgData {
  TempDir dir;
  std::string path = dir.file("pgdata");
  std::string error;
  PgData() {
    chmod(dir.path().c_str(), 0755); // the postgres account walks into it
    error = makePgData(path, dir.file("initdb.log"));
  }
};

const PgData &pgData() {
  static PgData d;
  return d;
}

// A spec of protocol_specs/ with the server paths filled in.
struct ServerSpec : Spec {
  explicit ServerSpec(const std::string &name) : Spec(name) {
    std::string text = readFile(dir.file("spec.star"));
    for (const auto &[from, to] :
         {std::pair<std::string, std::string>{"@PG_BIN@", kPgBin}, {"@PG_DATA@", pgData().path}})
      for (size_t p; (p = text.find(from)) != std::string::npos;)
        text.replace(p, from.size(), to);
    std::ofstream(dir.file("spec.star")) << text;
  }
};

FbcRun run(const Spec &spec, const std::string &test, std::vector<std::string> extra) {
  std::vector<std::string> args{"run", spec.path, "--seed", "1", "--test", test, "--format=json"};
  args.insert(args.end(), extra.begin(), extra.end());
  return runFbc(args, spec.dir.path());
}

// What reaches the server, by released name: the app's writes to it
// ("app/t0#1 write", "app/t0#3 write"), or through the proxy the messages
// it held ("cache/c0#0 GET", "cache/c0#1 SET"): each request's read (GET,
// SELECT) and write (SET, INSERT), as "<unit>r" and "<unit>w" with the
// unit "t0", "c1".
struct ServerCalls {
  std::string service; // "app", or the proxied server's "cache", "pg"
  std::string read, write;
  // The read or write of unit `u` ("t0"), "" for another call.
  std::string kind(const std::string &c) const {
    if (!c.starts_with(service + "/"))
      return "";
    if (c.ends_with(read))
      return "r";
    return c.ends_with(write) ? "w" : "";
  }
  std::string unit(const std::string &c) const { return c.substr(c.find('/') + 1, 2); }
  std::string name(const std::string &u, const std::string &what) const {
    return service + "/" + u + (what == "r" ? read : write);
  }
};
const ServerCalls kAppWrites{"app", "#1 write", "#3 write"};

// Each request's read comes before the other's write: both act on what
// they read before either acted.
bool raced(const std::vector<std::string> &released, const ServerCalls &s) {
  std::string a = s.service == "app" ? "t0" : "c0", b = s.service == "app" ? "t1" : "c1";
  return bothReadFirst(released, {s.name(a, "r"), s.name(a, "w")}, {s.name(b, "r"), s.name(b, "w")});
}

// The reads and writes that reach the server, in release order: "t0r t1r
// t0w t1w" (units renamed t0/t1 in order of their names, "c0" as "t0").
std::string serverOrder(const std::vector<std::string> &released, const ServerCalls &s) {
  std::string out;
  for (const std::string &c : released)
    if (std::string k = s.kind(c); !k.empty())
      out.append(out.empty() ? "" : " ").append("t").append(s.unit(c).substr(1)).append(k);
  return out;
}

// DPOR finds the race: 6 leaves, one per order of the four requests to the
// server (`orders`), the 4 where both requests read first fail and only
// those; the last row carries the coverage statement `coverage`, no other
// does.
std::vector<Row> checkRaceRows(const FbcRun &r, const std::set<std::string> &orders,
                               const std::string &coverage, const ServerCalls &s = kAppWrites) {
  EXPECT_EQ(r.exit, 2) << r.err;
  std::vector<Row> rows = rowsOf(r.out);
  EXPECT_EQ(rows.size(), 6u) << r.out;
  std::set<std::string> seen;
  size_t failed = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i].result, raced(rows[i].released, s) ? "fail" : "pass") << i;
    failed += rows[i].result == "fail";
    seen.insert(serverOrder(rows[i].released, s));
  }
  EXPECT_EQ(seen, orders);
  EXPECT_EQ(failed, 4u);
  for (size_t i = 0; i < rows.size(); ++i)
    EXPECT_EQ(rows[i].coverage, i + 1 == rows.size() ? coverage : "") << i;
  return rows;
}

// The race's rows are the golden's; the first failing leaf replays from
// the bundle 10 times out of 10, with the same calls and reason.
void findsTheRaceAndReplaysIt(const std::string &name, const std::string &test,
                              const std::set<std::string> &orders, const std::string &coverage,
                              const ServerCalls &s = kAppWrites,
                              const std::string &golden = "") {
  ServerSpec spec(name);
  FbcRun r = run(spec, test, {"--bundle", "run.fb"});
  EXPECT_EQ(r.err, "Bundle: run.fb\n");
  std::vector<Row> rows = checkRaceRows(r, orders, coverage, s);
  checkGolden(golden.empty() ? name + "_rows" : golden, rowLines(rows));
  auto failing =
      std::find_if(rows.begin(), rows.end(), [](const Row &x) { return x.result == "fail"; });
  ASSERT_NE(failing, rows.end());
  replaysTenTimesOutOfTen(spec.dir.path(), test, *failing);
}

const std::string kComplete = "; complete at the mediated boundary under conservative independence";
const std::string kRedisCoverage =
    "explored 6 classes of the orderings of 12 mediated events" + kComplete;

const std::set<std::string> kRedisOrders = {"t0r t0w t1r t1w", "t0r t1r t0w t1w",
                                            "t0r t1r t1w t0w", "t1r t0r t0w t1w",
                                            "t1r t0r t1w t0w", "t1r t1w t0r t0w"};

// Two keys or tables make one class: 1 leaf, its `events` calls (and
// messages).
void disjointIsOneClass(const ServerSpec &spec, const std::string &disjoint, size_t events) {
  FbcRun one = run(spec, disjoint, {"--no-bundle"});
  EXPECT_EQ(one.exit, 0) << one.out << one.err;
  std::vector<Row> rows = rowsOf(one.out);
  ASSERT_EQ(rows.size(), 1u) << one.out;
  EXPECT_EQ(rows[0].result, "pass");
  EXPECT_EQ(rows[0].released.size(), events);
}

// Launch orders run the requests one after the other (2 leaves, both
// pass); two keys or tables make one class (1 leaf, its 12 calls).
void launchOrdersMissItDisjointIsOneClass(const std::string &name, const std::string &disjoint) {
  ServerSpec spec(name);
  FbcRun launch = run(spec, "test_launch_orders", {"--no-bundle"});
  EXPECT_EQ(launch.exit, 0) << launch.out << launch.err;
  std::vector<Row> rows = rowsOf(launch.out);
  ASSERT_EQ(rows.size(), 2u) << launch.out;
  EXPECT_EQ(rows[0].result, "pass");
  EXPECT_EQ(rows[1].result, "pass");
  disjointIsOneClass(spec, disjoint, 12);
}

TEST(ExploreRedis, DporFindsTheLostUpdateAndItReplaysTenTimesOutOfTen) {
  findsTheRaceAndReplaysIt("explore_redis", "test_lost_update", kRedisOrders, kRedisCoverage);
}

TEST(ExploreRedis, LaunchOrdersMissItAndTwoKeysAreOneClass) {
  launchOrdersMissItDisjointIsOneClass("explore_redis", "test_disjoint_keys");
}

// Through fbc's proxy in front of Redis (a rule on cache.main that matches
// nothing of the race): the proxy holds the four commands (cache/c0#0 GET,
// cache/c0#1 SET, ...), released one at a time among the app's 12 calls;
// the app's sends to the proxy touch only their connections, so the
// classes are the 6 orders of the four commands, the 4 lost updates found
// and a failing leaf replayed 10/10; two keys are one class (16 events).
TEST(ExploreRedis, HeldInTheProxyAndReplaysTenTimesOutOfTen) {
  findsTheRaceAndReplaysIt("explore_redis", "test_lost_update_through_proxy", kRedisOrders,
                           "explored 6 classes of the orderings of 16 mediated events" + kComplete,
                           {"cache", "#0 GET", "#1 SET"}, "explore_redis_proxy_rows");
  disjointIsOneClass(ServerSpec("explore_redis"), "test_disjoint_keys_through_proxy", 16);
}

class ExplorePostgres : public ::testing::Test {
protected:
  void SetUp() override {
    if (!pgData().error.empty())
      FAIL() << pgData().error;
  }
};

TEST_F(ExplorePostgres, DporFindsTheDoubleBookingAndItReplaysTenTimesOutOfTen) {
  // A request that counts the other's row books nothing: no INSERT.
  findsTheRaceAndReplaysIt("explore_postgres", "test_double_booking",
                           {"t0r t0w t1r", "t0r t1r t0w t1w", "t0r t1r t1w t0w", "t1r t0r t0w t1w",
                            "t1r t0r t1w t0w", "t1r t1w t0r"},
                           // Leaves release 10 or 12 calls.
                           "explored 6 classes of the orderings of up to 12 mediated events" +
                               kComplete);
}

TEST_F(ExplorePostgres, LaunchOrdersMissItAndTwoTablesAreOneClass) {
  launchOrdersMissItDisjointIsOneClass("explore_postgres", "test_disjoint_tables");
}

// Through fbc's proxy in front of PostgreSQL: the proxy holds each query
// (pg/c0#0 SELECT, pg/c0#1 INSERT); the same 6 classes, 4 double
// bookings, 10/10 replays, and two tables one class.
TEST_F(ExplorePostgres, HeldInTheProxyAndReplaysTenTimesOutOfTen) {
  findsTheRaceAndReplaysIt(
      "explore_postgres", "test_double_booking_through_proxy",
      {"t0r t0w t1r", "t0r t1r t0w t1w", "t0r t1r t1w t0w", "t1r t0r t0w t1w", "t1r t0r t1w t0w",
       "t1r t1w t0r"},
      "explored 6 classes of the orderings of up to 16 mediated events" + kComplete,
      {"pg", "#0 SELECT", "#1 INSERT"}, "explore_postgres_proxy_rows");
  disjointIsOneClass(ServerSpec("explore_postgres"), "test_disjoint_tables_through_proxy", 16);
}

} // namespace
} // namespace fbc::rt::e2e
