// runtime/explore/server_access.h: what a request to a server touches, for
// DPOR's independence relation; anything not read with certainty is the
// whole server.
#include "runtime/explore/resources.h"
#include "runtime/explore/server_access.h"

#include <gtest/gtest.h>

namespace fbc::rt::explore {
namespace {

using Keys = std::vector<std::string>;

std::string resp(const Keys &args) {
  std::string out;
  out.append("*").append(std::to_string(args.size())).append("\r\n");
  for (const std::string &a : args)
    out.append("$").append(std::to_string(a.size())).append("\r\n").append(a).append("\r\n");
  return out;
}

Keys redis(const std::string &bytes) {
  return requestKeys("redis", 6379, bytes, true);
}

TEST(ServerAccess, RedisCommandsNameTheirKeys) {
  EXPECT_EQ(redis(resp({"GET", "hits"})), (Keys{"server:6379/key:hits"}));
  EXPECT_EQ(redis(resp({"set", "hits", "2"})), (Keys{"server:6379/key:hits"}));
  EXPECT_EQ(redis(resp({"MGET", "a", "b"})), (Keys{"server:6379/key:a", "server:6379/key:b"}));
  EXPECT_EQ(redis(resp({"MSET", "a", "1", "b", "2"})),
            (Keys{"server:6379/key:a", "server:6379/key:b"}));
  // Pipelined, and inline.
  EXPECT_EQ(redis(resp({"GET", "a"}) + resp({"DEL", "b"})),
            (Keys{"server:6379/key:a", "server:6379/key:b"}));
  EXPECT_EQ(redis("GET user:1\r\n"), (Keys{"server:6379/key:user:1"}));
  EXPECT_EQ(redis(resp({"PING"})), (Keys{}));
  // Bytes a key name may hold are escaped: no key reads as a wildcard.
  EXPECT_EQ(redis(resp({"GET", "a/*"})), (Keys{"server:6379/key:a%2F%2A"}));
  EXPECT_EQ(redis(resp({"GET", std::string("a\0%", 3)})), (Keys{"server:6379/key:a%00%25"}));
}

TEST(ServerAccess, RedisWhatIsNotReadIsTheWholeServer) {
  for (const std::string &bytes :
       {resp({"MULTI"}), resp({"EVAL", "return 1", "0"}), resp({"SELECT", "1"}), resp({"GET"}),
        resp({"GET", "a"}).substr(0, 10), std::string("GET \"a b\"\r\n"), std::string("")})
    EXPECT_EQ(redis(bytes), (Keys{"server:6379/*"})) << bytes;
  EXPECT_EQ(requestKeys("redis", 6379, resp({"GET", "a"}), false), (Keys{"server:6379/*"}));
  EXPECT_EQ(requestKeys("tcp", 80, "GET / HTTP/1.1\r\n\r\n", true), (Keys{"server:80/*"}));
}

Keys tables(const std::string &sql) {
  Keys out;
  if (!sqlTables(sql, out))
    return {"*"};
  return out;
}

TEST(ServerAccess, SqlStatementsNameTheirTables) {
  EXPECT_EQ(tables("SELECT count(*) FROM seats WHERE item = 'a1'"), (Keys{"seats"}));
  EXPECT_EQ(tables("INSERT INTO public.Seats (item) VALUES ($1)"), (Keys{"seats"}));
  EXPECT_EQ(tables("update \"Rooms\" set n = n + 1 where id = 2"), (Keys{"Rooms"}));
  // DELETE reads the tables of its USING list; a join's USING names columns.
  EXPECT_EQ(tables("DELETE FROM a USING b, c AS x WHERE a.id = b.id"), (Keys{"a", "b", "c"}));
  EXPECT_EQ(tables("SELECT * FROM a JOIN b USING (id)"), (Keys{"a", "b"}));
  EXPECT_EQ(tables("select * from a x, b as y join c on y.id = c.id"), (Keys{"a", "b", "c"}));
  EXPECT_EQ(tables("SELECT 1 WHERE EXISTS (SELECT 1 FROM t); SELECT 'from x' -- from y"),
            (Keys{"t"}));
  EXPECT_EQ(tables("SELECT 1"), (Keys{}));
}

TEST(ServerAccess, SqlWhatIsNotReadIsTheWholeServer) {
  for (const char *sql :
       {"BEGIN", "COMMIT", "CREATE TABLE t (a int)", "TRUNCATE t", "SELECT nextval('s')",
        "SELECT * FROM f(1)", "WITH x AS (SELECT 1) SELECT * FROM x", "SELECT $$a$$",
        "SELECT 'open", "SELECT * FROM t; BEGIN", "SELECT * FROM WHERE"})
    EXPECT_EQ(tables(sql), (Keys{"*"})) << sql;
}

std::string message(char type, const std::string &body) {
  uint32_t len = uint32_t(body.size() + 4);
  std::string out(1, type);
  for (int shift : {24, 16, 8, 0})
    out.push_back(char((len >> shift) & 0xff));
  out.append(body);
  return out;
}

TEST(ServerAccess, PostgresQueryAndParseMessages) {
  using namespace std::string_literals;
  EXPECT_EQ(requestKeys("postgres", 5432, message('Q', "SELECT * FROM seats\0"s), true),
            (Keys{"server:5432/table:seats"}));
  std::string extended = message('P', "\0INSERT INTO rooms VALUES ($1)\0\0\0"s) +
                         message('B', "\0\0\0\0\0\0\0\0"s) + message('E', "\0\0\0\0\0"s) +
                         message('S', "");
  EXPECT_EQ(requestKeys("postgres", 5432, extended, true), (Keys{"server:5432/table:rooms"}));
  // A Bind of a statement parsed before, a start-up message, a cut message.
  EXPECT_EQ(requestKeys("postgres", 5432, message('B', "\0\0\0\0\0\0\0\0"s), true),
            (Keys{"server:5432/*"}));
  EXPECT_EQ(requestKeys("postgres", 5432, "\0\0\0\x08\0\x03\0\0"s, true), (Keys{"server:5432/*"}));
  EXPECT_EQ(requestKeys("postgres", 5432, message('Q', "SELECT 1\0"s).substr(0, 7), true),
            (Keys{"server:5432/*"}));
}

Access access(Keys keys) {
  Access a;
  a.known = true;
  std::sort(keys.begin(), keys.end());
  a.keys = keys;
  return a;
}

TEST(ServerAccess, TheWholeServerIsDependentWithEachOfItsKeys) {
  Access getA = access({"tcp:1|2", "server:6379/key:a"});
  Access getB = access({"tcp:3|4", "server:6379/key:b"});
  Access multi = access({"tcp:3|4", "server:6379/*"});
  Access other = access({"tcp:5|6", "server:6380/*"});
  EXPECT_FALSE(dependent(getA, getB));
  EXPECT_TRUE(dependent(getA, access({"tcp:7|8", "server:6379/key:a"})));
  EXPECT_TRUE(dependent(getA, multi));
  EXPECT_TRUE(dependent(multi, getB));
  EXPECT_FALSE(dependent(multi, other));
  EXPECT_FALSE(covers("server:6379/key:a", "server:6379/key:a%2F%2A"));
  EXPECT_FALSE(covers("server:6379/*", "server:63790/key:a"));
}

} // namespace
} // namespace fbc::rt::explore
