#include "tests/e2e/e2e_util.h"

#include "runtime/trace/trace.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <dirent.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string_view>

#include <gtest/gtest.h>

namespace fbc::rt::e2e {

// A port free now, below the kernel's ephemeral range (32768-60999 here):
// a port the kernel handed out for bind(0) returns to that range when
// closed, where another test's fbc (its proxies, its relays, any outgoing
// connection) can be given it before this test's service binds it (seen:
// PORT_IN_USE under ctest -j2). Random in 20000-32767, checked by a bind;
// the kernel's choice only if a hundred tries found none.
namespace {
// Whether 127.0.0.1:`port` binds for `type` (0: the kernel picks; the
// port it picked is written back).
bool bindsOn(int type, uint16_t &port) {
  int fd = socket(AF_INET, type | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(port);
  bool bound = bind(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) == 0;
  socklen_t len = sizeof a;
  getsockname(fd, reinterpret_cast<sockaddr *>(&a), &len);
  close(fd);
  port = ntohs(a.sin_port);
  return bound;
}
} // namespace

// Free for TCP and UDP both: a service given the port may bind either
// (memcached binds its port for both).
uint16_t freePort() {
  static std::mt19937 random(std::random_device{}());
  // Random ports below the kernel's ephemeral range first; then the
  // kernel's pick.
  for (int attempt = 0; attempt < 200; ++attempt) {
    uint16_t port = attempt < 100 ? uint16_t(20000 + random() % 12768) : 0;
    if (bindsOn(SOCK_STREAM, port) && bindsOn(SOCK_DGRAM, port))
      return port;
  }
  return 0;
}

TempDir::TempDir() {
  char tmpl[] = "/tmp/fbc-e2e-XXXXXX";
  path_ = mkdtemp(tmpl);
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

namespace {
size_t collect(char *data, size_t size, size_t n, void *user) {
  static_cast<std::string *>(user)->append(data, size * n);
  return size * n;
}
} // namespace

HttpResponse httpRequest(const std::string &method, const std::string &url, const std::string &body,
                         long timeoutMs) {
  HttpResponse r;
  CURL *c = curl_easy_init();
  curl_easy_setopt(c, CURLOPT_URL, url.c_str());
  curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method.c_str());
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_NOPROXY, "*");
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, timeoutMs);
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, collect);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &r.body);
  if (!body.empty() || method == "PUT" || method == "POST") {
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, body.c_str());
    curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, static_cast<long>(body.size()));
  }
  int64_t t0 = monotonicNs();
  CURLcode rc = curl_easy_perform(c);
  r.durationMs = static_cast<double>(monotonicNs() - t0) / 1e6;
  if (rc == CURLE_OK)
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &r.status);
  else
    r.error = curl_easy_strerror(rc);
  curl_easy_cleanup(c);
  return r;
}

std::string tcpRequest(uint16_t port, const std::string &line, int timeoutMs) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) < 0) {
    std::string e = std::strerror(errno);
    close(fd);
    return "<error: connect: " + e + ">";
  }
  std::string req = line + "\n";
  send(fd, req.data(), req.size(), MSG_NOSIGNAL);
  std::string reply;
  char buf[4096];
  while (reply.find('\n') == std::string::npos) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, timeoutMs) != 1) {
      close(fd);
      return "<error: timeout>";
    }
    ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n <= 0)
      break;
    reply.append(buf, static_cast<size_t>(n));
  }
  close(fd);
  size_t nl = reply.find('\n');
  return nl == std::string::npos ? "<error: no reply>" : reply.substr(0, nl);
}

bool processAlive(int pid) {
  if (kill(pid, 0) < 0)
    return false;
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("State:", 0) == 0)
      return line.find('Z') == std::string::npos;
  return false;
}

std::string readFile(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void checkGoldenFile(const std::string &path, const std::string &actual) {
  const char *update = std::getenv("FBC_UPDATE_GOLDEN");
  if (update && std::string_view(update) == "1") {
    std::ofstream(path) << actual;
    return;
  }
  std::ifstream in(path);
  ASSERT_TRUE(in) << "missing golden " << path << " (FBC_UPDATE_GOLDEN=1 writes it)";
  EXPECT_EQ(readFile(path), actual)
      << "golden " << path << " differs (FBC_UPDATE_GOLDEN=1 rewrites it)";
}

std::vector<int> processesIn(const std::string &dir) {
  std::vector<int> out;
  DIR *d = opendir("/proc");
  if (!d)
    return out;
  while (dirent *e = readdir(d)) {
    char *end = nullptr;
    long pid = std::strtol(e->d_name, &end, 10);
    if (!end || *end || pid <= 0)
      continue;
    char link[64], target[4096];
    std::snprintf(link, sizeof link, "/proc/%ld/cwd", pid);
    ssize_t n = readlink(link, target, sizeof target - 1);
    if (n <= 0)
      continue;
    target[n] = 0;
    if (dir == target && processAlive(static_cast<int>(pid)))
      out.push_back(static_cast<int>(pid));
  }
  closedir(d);
  return out;
}

bool inPrivatePidNamespace() {
  const char *v = std::getenv("FBC_E2E_IN_PIDNS");
  return v && std::string_view(v) == "1";
}

int rerunInPidNamespace() {
  const ::testing::TestInfo *info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string filter =
      std::string("--gtest_filter=") + info->test_suite_name() + "." + info->name();
  std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  pid_t pid = fork();
  if (pid == 0) {
    setenv("FBC_E2E_IN_PIDNS", "1", 1);
    execlp("unshare", "unshare", "-p", "-f", "--mount-proc", "--kill-child", self.c_str(),
           filter.c_str(), static_cast<char *>(nullptr));
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

} // namespace fbc::rt::e2e
