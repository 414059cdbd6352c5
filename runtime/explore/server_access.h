// What a request written to a server touches, for DPOR's independence
// relation (resources.h): the bytes a held send carries, read as the
// server's protocol. Two requests to one server are independent only when
// both name their resources and the names differ:
//
//   "server:<port>/key:<k>"    a Redis key (command table below)
//   "server:<port>/table:<t>"  an SQL table (PostgreSQL's simple query and
//                              Parse messages), by its name without schema
//   "server:<port>/*"          the whole server: dependent with every key
//                              of that server (wildcard())
//
// Anything not read with certainty is the whole server: a protocol other
// than redis or postgres, a message cut or not understood, a Redis command
// outside the table (MULTI, EVAL, SELECT, ...), an SQL statement other than
// SELECT/INSERT/UPDATE/DELETE (BEGIN, COMMIT, DDL), a call of a function
// other than a few built-ins (a function may read any table), a dollar
// quote. Key bytes other than [A-Za-z0-9_.:-] are written %XX, so no key
// reads as a wildcard.
//
// Not seen: what the server does beyond the named resources on its own
// (a trigger, a view's tables, a foreign key check, a rule, a column
// default from a sequence another table shares, a keyspace notification).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fbc::rt::explore {

// The keys of a request of `protocol` ("redis", "postgres", anything else:
// the whole server) to the server on `port`, from its bytes; `bytes` is all
// the call sends (`complete` false: it was cut, so it is the whole server).
std::vector<std::string> requestKeys(const std::string &protocol, uint16_t port,
                                     std::string_view bytes, bool complete);

// "server:<port>/*".
std::string wildcard(uint16_t port);

// Whether `key` is a wildcard ("server:<port>/*") covering `other`.
bool covers(const std::string &key, const std::string &other);

// The tables of SQL text, lowercased, without schema; false when any
// statement is not one whose tables can be named with certainty.
bool sqlTables(std::string_view sql, std::vector<std::string> &tables);

// The keys of Redis commands in RESP (or inline) form; false when a
// command is not in the table or the bytes are not whole commands.
bool redisKeys(std::string_view bytes, std::vector<std::string> &keys);

} // namespace fbc::rt::explore
