// librdkafka is loaded on first use (runtime/clients/rdkafka_loader.cpp
// defines the rd_kafka_* functions the Kafka steps call and forwards them
// to the dlopen()ed librdkafka.so.1). This asks for it up front, to say why
// it is missing.
#pragma once

#include <string>

namespace fbc::rt {

// Loads librdkafka.so.1 on the first call (from any thread). False when the
// library or one of its functions is missing, with `error` saying which.
bool loadRdkafka(std::string &error);

} // namespace fbc::rt
