// librabbitmq (the RabbitMQ C client) is loaded on first use
// (runtime/clients/rabbitmq_loader.cpp defines the amqp_* functions the
// AMQP step and probe call and forwards them to the dlopen()ed
// librabbitmq.so.4). This asks for it up front, to say why it is missing.
#pragma once

#include <string>

namespace fbc::rt {

// Loads librabbitmq.so.4 on the first call (from any thread). False when the
// library or one of its functions is missing, with `error` saying which.
bool loadRabbitmq(std::string &error);

} // namespace fbc::rt
