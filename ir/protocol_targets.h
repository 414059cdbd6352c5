// A proxy rule's target matcher (query=, subject=, topic=) in the form the
// protocol's codec gives its traffic, so that `query="SELECT * FROM
// orders*"` compares as the queries on the wire do. One set of normalisers:
// backend/ lowers every rule's target with them (the leaf program carries
// it normalised), and the codecs (runtime/protocols) call the SQL one on
// the traffic they frame. ir::Protocol::normalizeTarget names each
// protocol's.
#pragma once

#include <string>
#include <string_view>

namespace fbc::ir {

// A query as rules see it (PostgreSQL's and MySQL's): comments removed, keywords and unquoted
// identifiers lower-cased, quoted identifiers kept, every literal (number,
// string) and every parameter ($1, ?) replaced by $1, $2 ... in order of
// appearance (pg_stat_statements' form), tokens separated by one space
// (none before , ) ; . :: or a name's "(", none after ( . ::), a trailing
// ';' dropped.
//   "SELECT *  FROM Orders WHERE id=42"  ->  "select * from orders where id = $1"
std::string sqlNormalizeQuery(std::string_view sql);

// A rule's query= pattern in the same form, '*' kept as the glob it is:
//   "SELECT * FROM orders*"  ->  "select * from orders*"
std::string sqlNormalizePattern(std::string_view pattern);

// A rule's subject= (or topic=) as the proxy's glob matches it: NATS's
// full wildcard `>` as the last token (or the whole pattern) covers every
// subject below, so it becomes `*`; the recipes' default subject is `>`.
std::string natsSubjectPattern(std::string_view pattern);

// A rule's topic= as the proxy's glob matches it: AMQP's topic wildcards,
// `#` (any words; the recipes' default routing key) and `*` (one word),
// both become the glob `*`.
std::string amqpRoutingKeyPattern(std::string_view pattern);

} // namespace fbc::ir
