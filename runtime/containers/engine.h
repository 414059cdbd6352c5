// A client of the Docker Engine HTTP API over its Unix socket: the interface
// Docker, Podman (`podman system service`) and the testcontainers libraries
// share. fbc drives containers through it (libcurl with
// CURLOPT_UNIX_SOCKET_PATH, JSON through simdjson), never through a CLI per
// operation.
//
// The socket is found as testcontainers finds it: DOCKER_HOST (unix://),
// /var/run/docker.sock, Podman's rootful /run/podman/podman.sock and
// rootless $XDG_RUNTIME_DIR/podman/podman.sock. Where none answers but a
// `podman` binary is on PATH, fbc starts `podman system service` on a
// socket of its own for the run and stops it at the end (EngineHost).
#pragma once

#include <sys/types.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fbc::rt::containers {

struct EngineResponse {
  long status = 0;   // HTTP status; 0 when the request did not complete
  std::string body;  // the response body (JSON for most endpoints)
  std::string error; // the transport's error when status is 0
  bool ok() const { return status >= 200 && status < 300; }
  // The engine's "message" field of an error body, else the body, else the
  // transport error: what an error row quotes.
  std::string message() const;
};

// One engine, reached through `socket`. Thread-safe: every call has its own
// connection.
class Engine {
public:
  explicit Engine(std::string socket) : socket_(std::move(socket)) {}
  const std::string &socket() const { return socket_; }

  // `method` on `path` (below /v1.41, e.g. "/containers/create"), with a
  // JSON (or, for `contentType`, other) body; `timeoutMs` 0: none.
  EngineResponse call(std::string_view method, std::string_view path, std::string_view body = {},
                      std::string_view contentType = "application/json",
                      long timeoutMs = 60000) const;
  EngineResponse get(std::string_view path) const { return call("GET", path); }
  // call() without a body, handing each line of the response to `onLine`
  // as it arrives (a pull's stream: one JSON object a line); the body is
  // kept whole too.
  EngineResponse stream(std::string_view method, std::string_view path,
                        const std::function<void(std::string_view)> &onLine,
                        long timeoutMs = 0) const;

private:
  EngineResponse perform(std::string_view method, std::string_view path, std::string_view body,
                         std::string_view contentType, long timeoutMs,
                         const std::function<void(std::string_view)> *onLine) const;
  std::string socket_;
};

// The engine a run uses, and the `podman system service` fbc started for it
// (stopped by the destructor), if any.
class EngineHost {
public:
  ~EngineHost();
  EngineHost(const EngineHost &) = delete;
  EngineHost &operator=(const EngineHost &) = delete;

  // Finds (or starts) an engine that answers; null with `error` naming what
  // is missing: "no container engine answers at /var/run/docker.sock,
  // /run/podman/podman.sock and podman is not on PATH".
  static std::unique_ptr<EngineHost> open(std::string &error);

  const Engine &engine() const { return engine_; }
  // The service fbc started (-1: it found a running engine).
  pid_t servicePid() const { return servicePid_; }
  // What was found, for `fbc run -v` and the bundle: "podman 4.3.1 at
  // /run/podman/podman.sock", "podman 4.3.1 (fbc's own podman system
  // service)".
  const std::string &description() const { return description_; }
  // The engine's own hard limits (nofile, nproc): a container asking for
  // more fails to start ("setrlimit: operation not permitted"), so fbc asks
  // for these. Read from the engine process (SO_PEERCRED on its socket,
  // /proc/<pid>/limits), else fbc's own.
  struct Limits {
    unsigned long long nofile = 0, nproc = 0; // 0: leave the engine's default
  };
  const Limits &limits() const { return limits_; }

private:
  explicit EngineHost(std::string socket) : engine_(std::move(socket)) {}
  Engine engine_;
  pid_t servicePid_ = -1;
  std::string serviceDir_; // the temporary directory of fbc's own socket
  std::string description_;
  Limits limits_;
};

// Starts `argv` (argv[0] a path) in a session of its own, not as a child of
// fbc (a double fork: fbc reaps and kills its orphans at the end of a leaf,
// and these must outlive leaves), with `env` as its environment, stdin and
// stdout /dev/null, stderr appended to `logPath` (or /dev/null when ""), and
// `fd3` (>= 0) as its fd 3. Returns its pid, or -1.
pid_t spawnDetached(const std::vector<std::string> &argv, const std::vector<std::string> &env,
                    const std::string &logPath, int fd3 = -1);

// Whether something accepts connections on Unix socket `path`.
bool socketAnswers(const std::string &path);

// The sockets tried, in order (DOCKER_HOST alone when it names one).
std::vector<std::string> candidateSockets();

// Percent-encodes `s` for a query value of an engine URL (every byte but
// RFC 3986's unreserved ones).
std::string urlEncode(std::string_view s);
// The first error a streamed response (a pull, a build: one JSON object a
// line) reported in an {"error": "..."} line, or "".
std::string engineStreamError(const std::string &body);

} // namespace fbc::rt::containers
