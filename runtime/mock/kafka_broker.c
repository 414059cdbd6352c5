// fbc-kafka-mock: the broker behind mock_service(..., kafka) and
// @faultbox/mocks/kafka.star. No Kafka broker is packaged for Debian 12;
// librdkafka's mock cluster (rd_kafka_mock_cluster_new, Debian's
// librdkafka-dev) is a real Kafka-protocol broker inside the library:
// Metadata, Produce, Fetch, offsets and consumer groups. This program hosts
// a one-broker cluster until SIGTERM or SIGINT.
//
//   fbc-kafka-mock --port P [--advertise-port Q] [--partitions N] [--topic NAME]...
//
// The mock cluster binds 127.0.0.1 at a port of the kernel's choice and
// advertises that port in its Metadata and FindCoordinator answers, which
// clients then connect to. Two definitions below place it: bind() puts the
// listener on P (the interface's port), and getsockname() on the listener
// reports Q (the port of fbc's proxy in front of the interface, when a test
// has one), so that a client that bootstrapped through the proxy keeps
// talking through it, as a real broker does with advertised.listeners.
// The definitions take the place of libc's for librdkafka, which calls
// them through the dynamic linker; they are in this program only, never
// in fbc.
//
// It prints "fbc-kafka-mock listening on 127.0.0.1:P" once the cluster is
// up; the declared topics exist before that line.
#define _GNU_SOURCE
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

static unsigned short listenPort;    // --port
static unsigned short advertisePort; // --advertise-port (0: the listener's)
static int listenerFd = -1;          // the socket bind() gave listenPort

// The mock's listener binds 127.0.0.1:0; it gets --port instead.
int bind(int fd, const struct sockaddr *addr, socklen_t len) {
  struct sockaddr_in in;
  if (listenerFd < 0 && listenPort && addr && addr->sa_family == AF_INET && len >= sizeof in) {
    memcpy(&in, addr, sizeof in);
    if (in.sin_port == 0) {
      in.sin_port = htons(listenPort);
      int r = (int)syscall(SYS_bind, fd, (const struct sockaddr *)&in, (socklen_t)sizeof in);
      if (r == 0)
        listenerFd = fd;
      return r;
    }
  }
  return (int)syscall(SYS_bind, fd, addr, len);
}

// The listener's name is what the mock advertises: --advertise-port.
int getsockname(int fd, struct sockaddr *addr, socklen_t *len) {
  int r = (int)syscall(SYS_getsockname, fd, addr, len);
  if (r == 0 && fd == listenerFd && advertisePort && addr->sa_family == AF_INET &&
      *len >= sizeof(struct sockaddr_in))
    ((struct sockaddr_in *)addr)->sin_port = htons(advertisePort);
  return r;
}

static int usage(const char *why) {
  fprintf(stderr,
          "fbc-kafka-mock: %s\nusage: fbc-kafka-mock --port P [--advertise-port Q] "
          "[--partitions N] [--topic NAME]...\n",
          why);
  return 2;
}

static int portArg(const char *s, unsigned short *out) {
  char *end = NULL;
  long v = strtol(s, &end, 10);
  if (!*s || *end || v < 1 || v > 65535)
    return 0;
  *out = (unsigned short)v;
  return 1;
}

int main(int argc, char **argv) {
  int partitions = 1;
  const char **topics = calloc((size_t)argc, sizeof *topics);
  int ntopics = 0;
  for (int i = 1; i < argc; ++i) {
    if (i + 1 >= argc)
      return usage("every option takes a value");
    const char *o = argv[i], *v = argv[++i];
    if (!strcmp(o, "--port")) {
      if (!portArg(v, &listenPort))
        return usage("--port must be 1-65535");
    } else if (!strcmp(o, "--advertise-port")) {
      if (!portArg(v, &advertisePort))
        return usage("--advertise-port must be 1-65535");
    } else if (!strcmp(o, "--partitions")) {
      partitions = atoi(v);
      if (partitions < 1 || partitions > 1000)
        return usage("--partitions must be 1-1000");
    } else if (!strcmp(o, "--topic")) {
      topics[ntopics++] = v;
    } else {
      return usage("unknown option");
    }
  }
  if (!listenPort)
    return usage("--port is required");

  // SIGTERM and SIGINT are waited for, not delivered: blocked before
  // librdkafka starts its threads, which inherit the mask.
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGTERM);
  sigaddset(&stop, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop, NULL);

  char err[512];
  rd_kafka_conf_t *conf = rd_kafka_conf_new();
  if (rd_kafka_conf_set(conf, "log_level", "3", err, sizeof err) != RD_KAFKA_CONF_OK)
    return usage(err);
  // The handle the cluster keeps its books with; it produces nothing.
  rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof err);
  if (!rk) {
    fprintf(stderr, "fbc-kafka-mock: %s\n", err);
    return 1;
  }
  rd_kafka_mock_cluster_t *cluster = rd_kafka_mock_cluster_new(rk, 1);
  if (!cluster || listenerFd < 0) {
    fprintf(stderr, "fbc-kafka-mock: cannot listen on 127.0.0.1:%u\n", listenPort);
    return 1;
  }
  for (int i = 0; i < ntopics; ++i) {
    rd_kafka_resp_err_t e = rd_kafka_mock_topic_create(cluster, topics[i], partitions, 1);
    if (e) {
      fprintf(stderr, "fbc-kafka-mock: topic %s: %s\n", topics[i], rd_kafka_err2str(e));
      return 1;
    }
  }
  printf("fbc-kafka-mock listening on 127.0.0.1:%u\n", listenPort);
  fflush(stdout);

  int sig = 0;
  sigwait(&stop, &sig);
  rd_kafka_mock_cluster_destroy(cluster);
  rd_kafka_destroy(rk);
  free(topics);
  return 0;
}
