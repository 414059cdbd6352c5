// The Docker Engine API client: see engine.h.
#include "runtime/containers/engine.h"

#include "runtime/os/host_check.h"

#include <curl/curl.h>
#include <fcntl.h>
#include <signal.h>
#include <simdjson.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

extern char **environ;

namespace fbc::rt::containers {

namespace {

size_t appendBody(char *data, size_t size, size_t n, void *out) {
  static_cast<std::string *>(out)->append(data, size * n);
  return size * n;
}

void sleepMs(long ms) {
  timespec ts{ms / 1000, (ms % 1000) * 1000000};
  nanosleep(&ts, nullptr);
}

// The hard limit named `label` ("Max open files") in /proc/<pid>/limits; 0
// when unknown or unlimited.
unsigned long long procLimit(pid_t pid, std::string_view label) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/limits");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(label, 0) != 0)
      continue;
    std::istringstream fields(line.substr(label.size()));
    std::string soft, hard;
    fields >> soft >> hard;
    return hard == "unlimited" ? 0 : std::strtoull(hard.c_str(), nullptr, 10);
  }
  return 0;
}

// The pid of the process serving Unix socket `path` (its credentials as it
// listened), or -1.
pid_t socketPeer(const std::string &path) {
  sockaddr_un addr{};
  if (path.size() >= sizeof addr.sun_path)
    return -1;
  addr.sun_family = AF_UNIX;
  path.copy(addr.sun_path, path.size());
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
    return -1;
  pid_t pid = -1;
  if (connect(fd, reinterpret_cast<const sockaddr *>(&addr), sizeof addr) == 0) {
    ucred cred{};
    socklen_t len = sizeof cred;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0)
      pid = cred.pid;
  }
  close(fd);
  return pid;
}

// The engine's hard limits, else fbc's own (an engine in another pid
// namespace, or remote).
EngineHost::Limits engineLimits(const std::string &socket) {
  EngineHost::Limits l;
  if (pid_t pid = socketPeer(socket); pid > 0) {
    l.nofile = procLimit(pid, "Max open files");
    l.nproc = procLimit(pid, "Max processes");
  }
  rlimit own{};
  if (l.nofile == 0 && getrlimit(RLIMIT_NOFILE, &own) == 0 && own.rlim_max != RLIM_INFINITY)
    l.nofile = own.rlim_max;
  if (l.nproc == 0 && getrlimit(RLIMIT_NPROC, &own) == 0 && own.rlim_max != RLIM_INFINITY)
    l.nproc = own.rlim_max;
  return l;
}

// "podman 4.3.1" or "docker 28.2.2" from GET /version; "" when it fails.
std::string engineVersion(const Engine &e) {
  EngineResponse r = e.get("/version");
  if (!r.ok())
    return "";
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (parser.parse(r.body).get(doc))
    return "";
  std::string_view version;
  if (doc["Version"].get(version))
    return "";
  std::string_view product = "docker";
  simdjson::dom::array components;
  if (!doc["Components"].get(components))
    for (simdjson::dom::element c : components) {
      std::string_view name;
      if (!c["Name"].get(name) && name.find("Podman") != std::string_view::npos)
        product = "podman";
    }
  return std::string(product) + " " + std::string(version);
}

// Whether `pid` runs (a zombie does not: it is not our child to reap).
bool processAlive(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat;
  if (!std::getline(in, stat))
    return false;
  size_t paren = stat.rfind(')');
  return paren != std::string::npos && paren + 2 < stat.size() && stat[paren + 2] != 'Z';
}

} // namespace

pid_t spawnDetached(const std::vector<std::string> &argv, const std::vector<std::string> &env,
                    const std::string &logPath, int fd3) {
  // Everything the children need, built before fork: after it only
  // async-signal-safe calls (fbc has threads).
  std::vector<char *> args, envp;
  for (const std::string &a : argv)
    args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  for (const std::string &e : env)
    envp.push_back(const_cast<char *>(e.c_str()));
  envp.push_back(nullptr);
  const char *log = logPath.empty() ? "/dev/null" : logPath.c_str();
  int report[2];
  if (pipe2(report, O_CLOEXEC) < 0)
    return -1;
  pid_t child = fork();
  if (child < 0) {
    close(report[0]);
    close(report[1]);
    return -1;
  }
  if (child == 0) {
    setsid();
    pid_t grandchild = fork();
    if (grandchild == 0) {
      sigset_t none;
      sigemptyset(&none);
      sigprocmask(SIG_SETMASK, &none, nullptr);
      if (chdir("/") != 0) {
      }
      int in = open("/dev/null", O_RDONLY), err = open(log, O_WRONLY | O_CREAT | O_APPEND, 0600);
      dup2(in, 0);
      int out = open("/dev/null", O_WRONLY);
      dup2(out, 1);
      dup2(err, 2);
      if (fd3 == 3)
        fcntl(3, F_SETFD, 0); // dup2 onto itself would keep close-on-exec
      else if (fd3 >= 0)
        dup2(fd3, 3); // clears close-on-exec on the copy
      // Hold nothing else of fbc's: a pipe someone waits on for EOF (fbc's
      // own output, read by a test harness) must not stay open through us.
      syscall(SYS_close_range, fd3 >= 0 ? 4u : 3u, ~0u, 0u);
      execve(args[0], args.data(), envp.data());
      _exit(127);
    }
    ssize_t n = write(report[1], &grandchild, sizeof grandchild);
    _exit(n == sizeof grandchild ? 0 : 1);
  }
  close(report[1]);
  pid_t pid = -1;
  if (read(report[0], &pid, sizeof pid) != sizeof pid)
    pid = -1;
  close(report[0]);
  waitpid(child, nullptr, 0);
  return pid;
}

std::string EngineResponse::message() const {
  if (status == 0)
    return error;
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  std::string_view m;
  if (!parser.parse(body).get(doc) && !doc["message"].get(m))
    return std::string(m);
  std::string out = body;
  while (!out.empty() && std::isspace(static_cast<unsigned char>(out.back())))
    out.pop_back();
  return out.empty() ? "HTTP " + std::to_string(status) : out;
}

EngineResponse Engine::call(std::string_view method, std::string_view path, std::string_view body,
                            std::string_view contentType, long timeoutMs) const {
  return perform(method, path, body, contentType, timeoutMs, nullptr);
}

EngineResponse Engine::stream(std::string_view method, std::string_view path,
                              const std::function<void(std::string_view)> &onLine,
                              long timeoutMs) const {
  return perform(method, path, {}, "application/json", timeoutMs, &onLine);
}

namespace {

// The body so far, and what to tell of each line as it completes.
struct LineSink {
  std::string *body;
  const std::function<void(std::string_view)> *onLine;
  size_t lineStart = 0;
};

size_t appendLines(char *data, size_t size, size_t n, void *out) {
  auto *sink = static_cast<LineSink *>(out);
  sink->body->append(data, size * n);
  for (size_t nl; (nl = sink->body->find('\n', sink->lineStart)) != std::string::npos;) {
    (*sink->onLine)(std::string_view(*sink->body).substr(sink->lineStart, nl - sink->lineStart));
    sink->lineStart = nl + 1;
  }
  return size * n;
}

} // namespace

EngineResponse Engine::perform(std::string_view method, std::string_view path,
                               std::string_view body, std::string_view contentType, long timeoutMs,
                               const std::function<void(std::string_view)> *onLine) const {
  EngineResponse r;
  CURL *c = curl_easy_init();
  if (!c) {
    r.error = curl_easy_strerror(CURLE_FAILED_INIT);
    return r;
  }
  std::string url = "http://engine/v1.41" + std::string(path);
  std::string verb(method), contentHeader = "Content-Type: " + std::string(contentType);
  curl_slist *headers = nullptr;
  headers = curl_slist_append(headers, contentHeader.c_str());
  headers = curl_slist_append(headers, "Expect:");
  curl_easy_setopt(c, CURLOPT_UNIX_SOCKET_PATH, socket_.c_str());
  curl_easy_setopt(c, CURLOPT_URL, url.c_str());
  curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, verb.c_str());
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, timeoutMs);
  if (method != "GET" && method != "DELETE") {
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, body.data());
    curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
  }
  LineSink sink{&r.body, onLine};
  if (onLine) {
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, appendLines);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &sink);
  } else {
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, appendBody);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &r.body);
  }
  CURLcode rc = curl_easy_perform(c);
  if (rc == CURLE_OK)
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &r.status);
  else
    r.error = curl_easy_strerror(rc);
  curl_slist_free_all(headers);
  curl_easy_cleanup(c);
  return r;
}

bool socketAnswers(const std::string &path) {
  return socketPeer(path) != -1 || [&] {
    // SO_PEERCRED can fail where connect works (another namespace).
    sockaddr_un addr{};
    if (path.size() >= sizeof addr.sun_path)
      return false;
    addr.sun_family = AF_UNIX;
    path.copy(addr.sun_path, path.size());
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
      return false;
    bool ok = connect(fd, reinterpret_cast<const sockaddr *>(&addr), sizeof addr) == 0;
    close(fd);
    return ok;
  }();
}

std::vector<std::string> candidateSockets() {
  const char *host = std::getenv("DOCKER_HOST");
  std::string_view h = host ? host : "";
  if (h.rfind("unix://", 0) == 0)
    return {std::string(h.substr(7))};
  std::vector<std::string> out{"/var/run/docker.sock", "/run/podman/podman.sock"};
  if (const char *xdg = std::getenv("XDG_RUNTIME_DIR"); xdg && *xdg)
    out.push_back(std::string(xdg) + "/podman/podman.sock");
  return out;
}

std::string engineStreamError(const std::string &body) {
  simdjson::dom::parser parser;
  size_t start = 0;
  while (start < body.size()) {
    size_t end = body.find('\n', start);
    std::string_view line(body.data() + start,
                          (end == std::string::npos ? body.size() : end) - start);
    start = end == std::string::npos ? body.size() : end + 1;
    simdjson::dom::element doc;
    std::string_view error;
    if (!line.empty() && !parser.parse(line).get(doc) && !doc["error"].get(error))
      return std::string(error);
  }
  return "";
}

std::string urlEncode(std::string_view s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
      out += char(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

EngineHost::~EngineHost() {
  if (servicePid_ > 0) {
    kill(servicePid_, SIGTERM);
    for (int waited = 0; processAlive(servicePid_) && waited < 5000; waited += 5)
      sleepMs(5);
  }
  if (!serviceDir_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(serviceDir_, ec);
  }
}

std::unique_ptr<EngineHost> EngineHost::open(std::string &error) {
  std::vector<std::string> tried = candidateSockets();
  for (const std::string &s : tried)
    if (socketAnswers(s)) {
      std::unique_ptr<EngineHost> h(new EngineHost(s));
      std::string version = engineVersion(h->engine_);
      if (version.empty()) {
        error = "the container engine at " + s + " does not answer the Docker Engine API";
        return nullptr;
      }
      h->description_ = version + " at " + s;
      h->limits_ = engineLimits(s);
      return h;
    }
  std::string podman = onPath("podman"), docker = onPath("docker");
  // DOCKER_HOST names the engine the user wants: fbc starts none instead.
  if (podman.empty() || std::getenv("DOCKER_HOST")) {
    if (!docker.empty())
      error = "docker found at " + docker + ", but no daemon answers at " + tried.front() +
              (podman.empty() ? "; podman not found" : "");
    else if (!podman.empty())
      error = "podman found at " + podman + ", but no engine answers at " + tried.front() +
              " (DOCKER_HOST)";
    else
      error = "docker or podman not found";
    return nullptr;
  }
  // Nothing answers, but podman is here: its API service, for this run.
  // fbc's pid in the name: whose it is shows (and a test can find its own).
  std::string dirTemplate = "/tmp/fbc-engine-" + std::to_string(getpid()) + "-XXXXXX";
  std::vector<char> tmpl(dirTemplate.begin(), dirTemplate.end());
  tmpl.push_back('\0');
  if (!mkdtemp(tmpl.data())) {
    error = "cannot create a directory for podman's socket";
    return nullptr;
  }
  std::string dir = tmpl.data(), socket = dir + "/podman.sock", address = "unix://" + socket;
  std::unique_ptr<EngineHost> h(new EngineHost(socket));
  h->serviceDir_ = dir;
  std::vector<std::string> env;
  for (char **e = environ; *e; ++e)
    env.emplace_back(*e);
  std::string log = dir + "/service.log";
  pid_t pid = spawnDetached({podman, "system", "service", "--time=0", address}, env, log);
  if (pid < 0) {
    error = "cannot start " + podman + " system service: " + std::strerror(errno);
    return nullptr;
  }
  h->servicePid_ = pid;
  // It listens within about a second; give a loaded machine ten.
  for (int waited = 0; !socketAnswers(socket); waited += 10) {
    if (!processAlive(pid)) {
      h->servicePid_ = -1;
      std::ifstream in(log);
      std::string last, line;
      while (std::getline(in, line))
        if (!line.empty())
          last = line;
      error = podman + " system service exited at start" + (last.empty() ? "" : ": " + last);
      return nullptr;
    }
    if (waited >= 10000) {
      error = podman + " system service did not listen within 10 s";
      return nullptr;
    }
    sleepMs(10);
  }
  std::string version = engineVersion(h->engine_);
  h->description_ = (version.empty() ? "podman" : version) + " (fbc's own podman system service)";
  h->limits_ = engineLimits(socket);
  return h;
}

} // namespace fbc::rt::containers
