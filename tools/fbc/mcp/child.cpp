#include "tools/fbc/mcp/child.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <climits>
#include <cstring>

extern char **environ;

namespace fbc::tools::mcp {

namespace {

// Reads what is available on `fd` into `into`; false at end of file.
bool drain(int fd, std::string &into) {
  char buf[65536];
  ssize_t n = read(fd, buf, sizeof buf);
  if (n < 0)
    return errno == EINTR || errno == EAGAIN;
  into.append(buf, static_cast<size_t>(n));
  return n > 0;
}

int waitExit(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status))
    return WEXITSTATUS(status);
  return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -1;
}

} // namespace

std::string selfExecutable() {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string("fbc");
}

ChildResult runChild(const std::vector<std::string> &argv,
                     const std::function<void(pid_t)> &onStarted,
                     const std::function<void(const std::string &)> &onErrLine) {
  ChildResult r;
  int out[2], err[2];
  if (pipe2(out, O_CLOEXEC) != 0) {
    r.spawnError = std::string("pipe: ") + std::strerror(errno);
    return r;
  }
  if (pipe2(err, O_CLOEXEC) != 0) {
    r.spawnError = std::string("pipe: ") + std::strerror(errno);
    close(out[0]);
    close(out[1]);
    return r;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawn_file_actions_adddup2(&fa, err[1], 2);
  std::vector<char *> args;
  for (const std::string &a : argv)
    args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  // The server ignores SIGPIPE; the child gets the default back.
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
  pid_t pid = -1;
  int rc = posix_spawn(&pid, args[0], &fa, &attr, args.data(), environ);
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&fa);
  close(out[1]);
  close(err[1]);
  if (rc != 0) {
    r.spawnError = "cannot start " + argv[0] + ": " + std::strerror(rc);
    close(out[0]);
    close(err[0]);
    return r;
  }
  if (onStarted)
    onStarted(pid);
  std::array<pollfd, 2> fds{pollfd{out[0], POLLIN, 0}, pollfd{err[0], POLLIN, 0}};
  size_t lineStart = 0;
  while (fds[0].fd >= 0 || fds[1].fd >= 0) {
    if (poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR)
        continue;
      break;
    }
    for (size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      if (!drain(fds[i].fd, i == 0 ? r.out : r.err)) {
        close(fds[i].fd);
        fds[i].fd = -1;
      }
    }
    for (size_t nl; (nl = r.err.find('\n', lineStart)) != std::string::npos; lineStart = nl + 1)
      if (onErrLine)
        onErrLine(r.err.substr(lineStart, nl - lineStart));
  }
  r.exit = waitExit(pid);
  return r;
}

} // namespace fbc::tools::mcp
