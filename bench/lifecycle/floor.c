/* The floor under fbc's per-leaf cost (bench/lifecycle/run.py): what one
 * leaf of the lifecycle bench does, without fbc. Per leaf: fork/exec
 * kv_store and http_api as fbc starts them (kv first, its port polled
 * until a connect succeeds, then the API, its port polled likewise), one
 * HTTP PUT through the API to the store, SIGTERM to both, reap both. No
 * seccomp filter, no supervisor, no Starlark, no report.
 *
 *   lifecycle_floor KV_BIN API_BIN KV_PORT API_PORT WAL LEAVES
 *
 * Prints the total wall time in seconds. Exits 1 on any failure. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static pid_t spawn(char *const argv[]) {
  pid_t pid = fork();
  if (pid == 0) {
    int null = open("/dev/null", 1);
    dup2(null, 1);
    dup2(null, 2);
    execv(argv[0], argv);
    _exit(127);
  }
  return pid;
}

static int dial(int port) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((unsigned short)port)};
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, (struct sockaddr *)&a, sizeof a) == 0)
    return fd;
  close(fd);
  return -1;
}

/* Polls until a connect succeeds (1 ms apart), up to 10 s. */
static int waitPort(int port) {
  for (int i = 0; i < 10000; ++i) {
    int fd = dial(port);
    if (fd >= 0) {
      close(fd);
      return 0;
    }
    usleep(1000);
  }
  return -1;
}

static int put(int port, int leaf) {
  int fd = dial(port);
  if (fd < 0)
    return -1;
  char req[256];
  int n = snprintf(req, sizeof req,
                   "PUT /kv/k%d HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1\r\n"
                   "Connection: close\r\n\r\nv",
                   leaf);
  if (write(fd, req, (size_t)n) != n) {
    close(fd);
    return -1;
  }
  char buf[512];
  ssize_t got = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (got <= 0)
    return -1;
  buf[got] = 0;
  return strncmp(buf, "HTTP/1.1 200", 12) == 0 ? 0 : -1;
}

int main(int argc, char **argv) {
  if (argc != 7) {
    fprintf(stderr, "usage: %s KV_BIN API_BIN KV_PORT API_PORT WAL LEAVES\n", argv[0]);
    return 1;
  }
  int kvPort = atoi(argv[3]), apiPort = atoi(argv[4]), leaves = atoi(argv[6]);
  char kvAddr[64];
  snprintf(kvAddr, sizeof kvAddr, "127.0.0.1:%d", kvPort);
  char *kvArgv[] = {argv[1], "--port", argv[3], "--wal", argv[5], NULL};
  char *apiArgv[] = {argv[2], "--port", argv[4], "--kv", kvAddr, NULL};
  double t0 = now();
  for (int leaf = 0; leaf < leaves; ++leaf) {
    pid_t kv = spawn(kvArgv);
    if (kv < 0 || waitPort(kvPort) < 0)
      return 1;
    pid_t api = spawn(apiArgv);
    if (api < 0 || waitPort(apiPort) < 0)
      return 1;
    if (put(apiPort, leaf) < 0) {
      fprintf(stderr, "leaf %d: the PUT failed\n", leaf);
      return 1;
    }
    kill(api, SIGTERM);
    kill(kv, SIGTERM);
    waitpid(api, NULL, 0);
    waitpid(kv, NULL, 0);
  }
  printf("%.6f\n", now() - t0);
  return 0;
}
