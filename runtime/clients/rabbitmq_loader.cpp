// librabbitmq, loaded on first use: this file defines the functions the
// AMQP step and probe call (amqp_step.cpp) and forwards each to the
// library, which it dlopen()s the first time the entry point is called
// (the reason is pq_loader.cpp's: only `fbc run` with an amqp interface
// uses it, and linked it would cost every fbc process its loading). The
// header and librabbitmq.so.4 come from the same Debian packages
// (librabbitmq-dev, librabbitmq4).
//
// amqp_step.cpp calls loadRabbitmq() first, to report why the library is
// missing; the entry point amqp_new_connection fails (null) when it is,
// and every other function is only reachable through the connection it
// returns.
#include "runtime/clients/rabbitmq_loader.h"

#include "frontend/support/lazy_library.h"

#include <amqp.h>
#include <amqp_tcp_socket.h>

#include <cstdarg>

namespace {

// X(return type, name, parameters, arguments), one line per function used:
// the entry point, then the rest. amqp_login is variadic (its SASL
// arguments): it is defined by hand below.
#define FBC_RABBITMQ_ENTRY_POINTS(X) X(amqp_connection_state_t, amqp_new_connection, (void), ())
#define FBC_RABBITMQ_REST(X)                                                                       \
  X(amqp_socket_t *, amqp_tcp_socket_new, (amqp_connection_state_t s), (s))                        \
  X(void, amqp_tcp_socket_set_sockfd, (amqp_socket_t * s, int fd), (s, fd))                        \
  X(int, amqp_set_handshake_timeout, (amqp_connection_state_t s, const struct timeval *t), (s, t)) \
  X(int, amqp_set_rpc_timeout, (amqp_connection_state_t s, const struct timeval *t), (s, t))       \
  X(amqp_channel_open_ok_t *, amqp_channel_open, (amqp_connection_state_t s, amqp_channel_t c),    \
    (s, c))                                                                                        \
  X(amqp_confirm_select_ok_t *, amqp_confirm_select,                                               \
    (amqp_connection_state_t s, amqp_channel_t c), (s, c))                                         \
  X(amqp_rpc_reply_t, amqp_get_rpc_reply, (amqp_connection_state_t s), (s))                        \
  X(int, amqp_basic_publish,                                                                       \
    (amqp_connection_state_t s, amqp_channel_t c, amqp_bytes_t e, amqp_bytes_t k,                  \
     amqp_boolean_t m, amqp_boolean_t i, const amqp_basic_properties_t *p, amqp_bytes_t b),        \
    (s, c, e, k, m, i, p, b))                                                                      \
  X(int, amqp_simple_wait_frame_noblock,                                                           \
    (amqp_connection_state_t s, amqp_frame_t * f, const struct timeval *t), (s, f, t))             \
  X(amqp_rpc_reply_t, amqp_basic_get,                                                              \
    (amqp_connection_state_t s, amqp_channel_t c, amqp_bytes_t q, amqp_boolean_t n), (s, c, q, n)) \
  X(amqp_rpc_reply_t, amqp_read_message,                                                           \
    (amqp_connection_state_t s, amqp_channel_t c, amqp_message_t * m, int f), (s, c, m, f))        \
  X(void, amqp_destroy_message, (amqp_message_t * m), (m))                                         \
  X(amqp_rpc_reply_t, amqp_connection_close, (amqp_connection_state_t s, int code), (s, code))     \
  X(int, amqp_destroy_connection, (amqp_connection_state_t s), (s))                                \
  X(const char *, amqp_error_string2, (int e), (e))

struct Rabbitmq {
  FBC_RABBITMQ_ENTRY_POINTS(FBC_LAZY_POINTER)
  FBC_RABBITMQ_REST(FBC_LAZY_POINTER)
  amqp_rpc_reply_t (*amqp_login)(amqp_connection_state_t, char const *, int, int, int,
                                 amqp_sasl_method_enum, ...) = nullptr;
};

Rabbitmq fns;
constinit fbc::support::LazyLibrary lib("librabbitmq.so.4", "librabbitmq4");

void bindAll(fbc::support::LazyLibrary &l) {
  FBC_RABBITMQ_ENTRY_POINTS(FBC_LAZY_BIND)
  FBC_RABBITMQ_REST(FBC_LAZY_BIND)
  l.bind("amqp_login", fns.amqp_login);
}

bool loaded() {
  return lib.load(bindAll);
}

} // namespace

extern "C" {

amqp_connection_state_t amqp_new_connection(void) {
  return loaded() ? fns.amqp_new_connection() : nullptr;
}

// The rest: reached only with a connection amqp_new_connection made.
FBC_RABBITMQ_REST(FBC_LAZY_FORWARD)

// fbc logs in with AMQP_SASL_METHOD_PLAIN only, whose variadic arguments
// are the user and the password.
amqp_rpc_reply_t amqp_login(amqp_connection_state_t s, char const *vhost, int channelMax,
                            int frameMax, int heartbeat, amqp_sasl_method_enum method, ...) {
  va_list ap;
  va_start(ap, method);
  const char *user = va_arg(ap, const char *);
  const char *password = va_arg(ap, const char *);
  va_end(ap);
  return fns.amqp_login(s, vhost, channelMax, frameMax, heartbeat, method, user, password);
}

} // extern "C"

namespace fbc::rt {

bool loadRabbitmq(std::string &error) {
  return lib.load(bindAll, error);
}

} // namespace fbc::rt
