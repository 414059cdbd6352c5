// Helpers for the runtime's end-to-end tests: free loopback ports, a
// scratch directory, and the clients the tests drive the fixtures with (a
// libcurl HTTP request, a one-line TCP request).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace fbc::rt::e2e {

// A port nothing listens on right now (bind to 127.0.0.1:0, then release).
uint16_t freePort();

// A fresh directory under /tmp, removed with its contents on destruction.
class TempDir {
public:
  TempDir();
  ~TempDir();
  const std::string &path() const { return path_; }
  std::string file(const std::string &name) const { return path_ + "/" + name; }

private:
  std::string path_;
};

struct HttpResponse {
  long status = 0; // 0: no response (connection failed)
  std::string body;
  std::string error;
  double durationMs = 0;
};
HttpResponse httpRequest(const std::string &method, const std::string &url,
                         const std::string &body = "", long timeoutMs = 10000);

// Sends `line` + "\n" to 127.0.0.1:port and returns the reply line (without
// "\n"), or "<error: ...>".
std::string tcpRequest(uint16_t port, const std::string &line, int timeoutMs = 5000);

// Whether a process with this pid still exists (zombies count as gone).
bool processAlive(int pid);

std::string readFile(const std::string &path);

// Compares `actual` with the golden file at `path`; FBC_UPDATE_GOLDEN=1 (and
// only 1) writes it instead. A missing golden is a failure naming the file.
void checkGoldenFile(const std::string &path, const std::string &actual);

// The pids of live processes whose working directory is `dir` (the services
// of a spec there run in the spec's directory, and so do their children).
std::vector<int> processesIn(const std::string &dir);

// For the tests that need pids of their own to play with (pid reuse, runs in
// another PID namespace): true in the copy of the current test that
// rerunInPidNamespace() started, which runs as pid 1 of a private PID
// namespace with its own /proc.
bool inPrivatePidNamespace();
// Runs the current test again under `unshare -p -f --mount-proc` (root) and
// returns its exit status: 0 when it passed. Its output goes to ours.
int rerunInPidNamespace();

} // namespace fbc::rt::e2e
