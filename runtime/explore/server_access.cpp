#include "runtime/explore/server_access.h"

#include "ir/protocols.h"

#include <llvm/ADT/StringRef.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <set>

namespace fbc::rt::explore {

std::string wildcard(uint16_t port) {
  return "server:" + std::to_string(port) + "/*";
}

bool covers(const std::string &key, const std::string &other) {
  if (key.size() < 2 || !key.ends_with("/*"))
    return false;
  return other.compare(0, key.size() - 1, key, 0, key.size() - 1) == 0;
}

namespace {

std::string escaped(std::string_view s) {
  static const char *hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || (c && std::strchr("_.:-", c))) // strchr finds a NUL too
      out.push_back(char(c));
    else
      out.append("%").append(1, hex[c >> 4]).append(1, hex[c & 15]);
  }
  return out;
}

// ---- Redis ----

// Where a command's keys are: its first key argument, its last (-1: the
// last argument), the step between two. Commands that touch nothing
// (PING, ECHO) have no keys.
struct KeySpec {
  int first, last, step;
};

const KeySpec *keySpecOf(const std::string &cmd) {
  static const KeySpec one{1, 1, 1}, all{1, -1, 1}, pairs{1, -1, 2}, none{0, 0, 0};
  static const std::set<std::string> single = {
      "GET",    "SET",      "SETNX",     "SETEX",   "PSETEX",       "GETSET",      "GETDEL",
      "GETEX",  "INCR",     "DECR",      "INCRBY",  "DECRBY",       "INCRBYFLOAT", "APPEND",
      "STRLEN", "GETRANGE", "SETRANGE",  "EXPIRE",  "PEXPIRE",      "EXPIREAT",    "PEXPIREAT",
      "TTL",    "PTTL",     "PERSIST",   "TYPE",    "HGET",         "HSET",        "HSETNX",
      "HMSET",  "HMGET",    "HDEL",      "HINCRBY", "HINCRBYFLOAT", "HGETALL",     "HKEYS",
      "HVALS",  "HLEN",     "HEXISTS",   "LPUSH",   "RPUSH",        "LPOP",        "RPOP",
      "LLEN",   "LRANGE",   "LINDEX",    "LSET",    "LREM",         "LTRIM",       "SADD",
      "SREM",   "SMEMBERS", "SISMEMBER", "SCARD",   "SPOP",         "ZADD",        "ZREM",
      "ZRANGE", "ZSCORE",   "ZINCRBY",   "ZCARD",   "ZRANK"};
  static const std::set<std::string> every = {"DEL", "EXISTS", "MGET", "UNLINK", "TOUCH"};
  static const std::set<std::string> keyValue = {"MSET", "MSETNX"};
  static const std::set<std::string> nothing = {"PING", "ECHO"};
  if (single.count(cmd))
    return &one;
  if (every.count(cmd))
    return &all;
  if (keyValue.count(cmd))
    return &pairs;
  if (nothing.count(cmd))
    return &none;
  return nullptr;
}

// One RESP array of bulk strings from `in` (advanced past it); false when
// the bytes are not one whole array.
bool respCommand(std::string_view &in, std::vector<std::string_view> &args) {
  auto number = [&](char tag, long &n) {
    if (in.empty() || in[0] != tag)
      return false;
    size_t eol = in.find("\r\n");
    if (eol == std::string_view::npos || eol < 2 || eol > 12)
      return false;
    n = 0;
    for (size_t i = 1; i < eol; ++i) {
      if (!std::isdigit(static_cast<unsigned char>(in[i])))
        return false;
      n = n * 10 + (in[i] - '0');
    }
    in.remove_prefix(eol + 2);
    return true;
  };
  long count = 0;
  if (!number('*', count) || count < 1)
    return false;
  for (long i = 0; i < count; ++i) {
    long len = 0;
    if (!number('$', len) || in.size() < size_t(len) + 2 || in.substr(size_t(len), 2) != "\r\n")
      return false;
    args.push_back(in.substr(0, size_t(len)));
    in.remove_prefix(size_t(len) + 2);
  }
  return true;
}

// One inline command ("GET k\r\n"): words split on spaces.
bool inlineCommand(std::string_view &in, std::vector<std::string_view> &args) {
  size_t eol = in.find('\n');
  if (eol == std::string_view::npos)
    return false;
  std::string_view line = in.substr(0, eol);
  if (line.ends_with('\r'))
    line.remove_suffix(1);
  in.remove_prefix(eol + 1);
  for (size_t i = 0; i < line.size();) {
    if (line[i] == ' ') {
      ++i;
      continue;
    }
    if (line[i] == '"' || line[i] == '\'')
      return false; // quoted arguments: not read
    size_t end = line.find(' ', i);
    end = end == std::string_view::npos ? line.size() : end;
    args.push_back(line.substr(i, end - i));
    i = end;
  }
  return !args.empty();
}

} // namespace

bool redisKeys(std::string_view bytes, std::vector<std::string> &keys) {
  if (bytes.empty())
    return false;
  while (!bytes.empty()) {
    std::vector<std::string_view> args;
    bool ok = bytes[0] == '*' ? respCommand(bytes, args) : inlineCommand(bytes, args);
    if (!ok)
      return false;
    const KeySpec *ks = keySpecOf(llvm::StringRef(args[0]).upper());
    if (!ks)
      return false;
    if (ks->first == 0)
      continue;
    int last = ks->last < 0 ? int(args.size()) - 1 : ks->last;
    if (last < ks->first || size_t(last) >= args.size())
      return false; // a command without its keys: the server refuses it
    for (int i = ks->first; i <= last; i += ks->step)
      keys.push_back("key:" + escaped(args[size_t(i)]));
  }
  return true;
}

namespace {

// ---- SQL ----

struct Token {
  enum Kind { Word, Quoted, Punct, Literal } kind;
  std::string text; // a Word lowercased
};

// Tokens of `sql`; false on what is not read (a dollar quote, an
// unterminated string or comment).
bool tokenize(std::string_view sql, std::vector<Token> &out) {
  size_t i = 0;
  auto isWord = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.';
  };
  while (i < sql.size()) {
    char c = sql[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (sql.substr(i, 2) == "--") {
      size_t e = sql.find('\n', i);
      i = e == std::string_view::npos ? sql.size() : e;
    } else if (sql.substr(i, 2) == "/*") {
      size_t e = sql.find("*/", i + 2);
      if (e == std::string_view::npos)
        return false;
      i = e + 2;
    } else if (c == '\'' || c == '"') {
      std::string text;
      size_t j = i + 1;
      for (;; ++j) {
        if (j >= sql.size())
          return false;
        if (sql[j] == c) {
          if (j + 1 < sql.size() && sql[j + 1] == c) {
            text.push_back(c);
            ++j;
            continue;
          }
          break;
        }
        text.push_back(sql[j]);
      }
      out.push_back({c == '"' ? Token::Quoted : Token::Literal, text});
      i = j + 1;
    } else if (c == '$') {
      size_t j = i + 1;
      while (j < sql.size() && std::isdigit(static_cast<unsigned char>(sql[j])))
        ++j;
      if (j == i + 1)
        return false; // a dollar quote
      out.push_back({Token::Literal, std::string(sql.substr(i, j - i))});
      i = j;
    } else if (isWord(c)) {
      size_t j = i;
      while (j < sql.size() && isWord(sql[j]))
        ++j;
      out.push_back({Token::Word, llvm::StringRef(sql.substr(i, j - i)).lower()});
      i = j;
    } else {
      out.push_back({Token::Punct, std::string(1, c)});
      ++i;
    }
  }
  return true;
}

// Words that may stand before "(" without being a function call that
// could read a table.
bool harmlessBeforeParen(const std::string &w) {
  static const std::set<std::string> words = {
      "values", "in",    "exists",   "any",    "all",       "some",  "not",      "and", "or",
      "on",     "using", "as",       "where",  "select",    "cast",  "count",    "sum", "min",
      "max",    "avg",   "coalesce", "nullif", "lower",     "upper", "length",   "now", "abs",
      "into",   "from",  "join",     "set",    "returning", "by",    "conflict", "do"};
  return words.count(w) > 0;
}

bool isClauseWord(const std::string &w) {
  static const std::set<std::string> words = {
      "where",  "join",      "inner", "left",    "right",  "full",    "cross",  "on",
      "using",  "group",     "order", "limit",   "offset", "having",  "union",  "set",
      "values", "returning", "for",   "natural", "outer",  "default", "select", "window",
      "except", "intersect", "fetch", "lateral", "only",   "as"};
  return words.count(w) > 0;
}

std::string tableName(const Token &t) {
  std::string name = t.text;
  size_t dot = name.rfind('.');
  return dot == std::string::npos ? name : name.substr(dot + 1);
}

// The tables of one statement; false when it is not read with certainty.
bool statementTables(const std::vector<Token> &ts, std::vector<std::string> &tables) {
  if (ts.empty())
    return true;
  static const std::set<std::string> verbs = {"select", "insert", "update", "delete"};
  if (ts[0].kind != Token::Word || !verbs.count(ts[0].text))
    return false;
  for (size_t i = 0; i < ts.size(); ++i) {
    const Token &t = ts[i];
    bool nextParen = i + 1 < ts.size() && ts[i + 1].kind == Token::Punct && ts[i + 1].text == "(";
    if (t.kind == Token::Word && nextParen && !harmlessBeforeParen(t.text))
      return false; // a function: it may read any table
    if (t.kind != Token::Word)
      continue;
    // USING: DELETE's other tables (a JOIN's USING (columns) names none).
    bool names = t.text == "from" || t.text == "join" || t.text == "into" || t.text == "using" ||
                 (t.text == "update" && i == 0);
    if (!names)
      continue;
    // The table list: name [[as] alias] {, name [[as] alias]} (FROM and
    // USING; one name after JOIN, INTO, UPDATE).
    size_t j = i + 1;
    if (j < ts.size() && ts[j].kind == Token::Word && ts[j].text == "only")
      ++j;
    while (j < ts.size()) {
      if (ts[j].kind == Token::Punct && ts[j].text == "(")
        break; // a subquery: its own FROM names its tables
      if ((ts[j].kind != Token::Word && ts[j].kind != Token::Quoted) ||
          (ts[j].kind == Token::Word && isClauseWord(ts[j].text)))
        return false;
      bool call = j + 1 < ts.size() && ts[j + 1].kind == Token::Punct && ts[j + 1].text == "(";
      if (call && t.text != "into")
        return false; // FROM f(...): a function, it may read any table
      tables.push_back(tableName(ts[j]));
      ++j;
      if (j < ts.size() && ts[j].kind == Token::Word && ts[j].text == "as")
        ++j;
      if (j < ts.size() &&
          (ts[j].kind == Token::Quoted || (ts[j].kind == Token::Word && !isClauseWord(ts[j].text))))
        ++j; // an alias
      bool list = t.text == "from" || t.text == "using";
      if (!list || j >= ts.size() || ts[j].text != ",")
        break;
      ++j;
    }
    i = j - 1;
  }
  return true;
}

} // namespace

bool sqlTables(std::string_view sql, std::vector<std::string> &tables) {
  std::vector<Token> ts;
  if (!tokenize(sql, ts))
    return false;
  std::vector<Token> stmt;
  for (size_t i = 0; i <= ts.size(); ++i) {
    if (i == ts.size() || (ts[i].kind == Token::Punct && ts[i].text == ";")) {
      if (!statementTables(stmt, tables))
        return false;
      stmt.clear();
    } else {
      stmt.push_back(ts[i]);
    }
  }
  return true;
}

namespace {

// PostgreSQL frontend messages: Query ('Q') and Parse ('P') carry SQL;
// Bind, Describe, Execute, Sync, Flush and Close follow a Parse in the
// same write (libpq's extended query); anything else (a startup message,
// a Bind of a statement parsed earlier, Terminate) is not read.
bool postgresTables(std::string_view bytes, std::vector<std::string> &tables) {
  bool parsed = false;
  if (bytes.empty())
    return false;
  while (!bytes.empty()) {
    if (bytes.size() < 5)
      return false;
    char type = bytes[0];
    uint32_t len = (uint32_t(uint8_t(bytes[1])) << 24) | (uint32_t(uint8_t(bytes[2])) << 16) |
                   (uint32_t(uint8_t(bytes[3])) << 8) | uint32_t(uint8_t(bytes[4]));
    if (len < 4 || bytes.size() < size_t(len) + 1)
      return false;
    std::string_view body = bytes.substr(5, len - 4);
    bytes.remove_prefix(size_t(len) + 1);
    if (type == 'Q' || type == 'P') {
      if (type == 'P') {
        size_t name = body.find('\0');
        if (name == std::string_view::npos)
          return false;
        body.remove_prefix(name + 1);
        parsed = true;
      }
      size_t end = body.find('\0');
      if (end == std::string_view::npos || !sqlTables(body.substr(0, end), tables))
        return false;
    } else if (!(parsed && std::strchr("BDESHC", type))) {
      return false;
    }
  }
  return true;
}

} // namespace

std::vector<std::string> requestKeys(const std::string &protocol, uint16_t port,
                                     std::string_view bytes, bool complete) {
  std::vector<std::string> names;
  bool ok = false;
  const ir::Protocol *p = ir::findProtocol(protocol);
  switch (complete && p ? p->resources : ir::RequestResources::Server) {
  case ir::RequestResources::RespKeys:
    ok = redisKeys(bytes, names);
    break;
  case ir::RequestResources::PostgresTables: {
    std::vector<std::string> tables;
    ok = postgresTables(bytes, tables);
    for (const std::string &t : tables)
      names.push_back("table:" + escaped(t));
    break;
  }
  case ir::RequestResources::Server:
    break;
  }
  if (!ok)
    return {wildcard(port)};
  std::vector<std::string> keys;
  for (const std::string &n : names)
    keys.push_back("server:" + std::to_string(port) + "/" + n);
  return keys;
}

} // namespace fbc::rt::explore
