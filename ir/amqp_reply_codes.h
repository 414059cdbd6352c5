// AMQP 0-9-1's reply codes (the specification's "constants", 200 aside):
// what error(status=) on an amqp interface may name (ir/spec.cpp refuses
// any other at load) and what the proxy's AMQP codec closes a channel or
// the connection with (runtime/protocols/proto_amqp.cpp). Header-only, so
// that both read the one table.
#pragma once

#include <string>
#include <string_view>

namespace fbc::ir {

struct AmqpReplyCode {
  int code;
  std::string_view name;
  bool hard; // a connection exception (the specification's "hard error")
};

inline constexpr AmqpReplyCode kAmqpReplyCodes[] = {
    {311, "CONTENT_TOO_LARGE", false},   {312, "NO_ROUTE", false},
    {313, "NO_CONSUMERS", false},        {320, "CONNECTION_FORCED", true},
    {402, "INVALID_PATH", true},         {403, "ACCESS_REFUSED", false},
    {404, "NOT_FOUND", false},           {405, "RESOURCE_LOCKED", false},
    {406, "PRECONDITION_FAILED", false}, {501, "FRAME_ERROR", true},
    {502, "SYNTAX_ERROR", true},         {503, "COMMAND_INVALID", true},
    {504, "CHANNEL_ERROR", true},        {505, "UNEXPECTED_FRAME", true},
    {506, "RESOURCE_ERROR", true},       {530, "NOT_ALLOWED", true},
    {540, "NOT_IMPLEMENTED", true},      {541, "INTERNAL_ERROR", true},
};

// The entry of a code, or of a name ("PRECONDITION_FAILED"); null if none.
inline const AmqpReplyCode *findAmqpReplyCode(int code) {
  for (const AmqpReplyCode &r : kAmqpReplyCodes)
    if (r.code == code)
      return &r;
  return nullptr;
}
inline const AmqpReplyCode *findAmqpReplyCode(std::string_view name) {
  for (const AmqpReplyCode &r : kAmqpReplyCodes)
    if (r.name == name)
      return &r;
  return nullptr;
}

// "311, 312, ..., 541", for a message naming the codes a rule may use.
inline std::string amqpReplyCodeList() {
  std::string out;
  for (const AmqpReplyCode &r : kAmqpReplyCodes)
    out.append(out.empty() ? "" : ", ").append(std::to_string(r.code));
  return out;
}

} // namespace fbc::ir
