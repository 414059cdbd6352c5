#include "tests/e2e/server_data.h"

#include "tests/e2e/e2e_util.h"

#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fbc::rt::e2e {

int runCommand(const std::vector<std::string> &argv, const std::string &log) {
  pid_t pid = fork();
  if (pid == 0) {
    int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    dup2(fd, 1);
    dup2(fd, 2);
    std::vector<char *> args;
    for (const std::string &a : argv)
      args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

std::string makePgData(const std::string &pgData, const std::string &log) {
  passwd *pw = getpwnam(kPgUser);
  if (!pw)
    return "no account \"postgres\" (scripts/setup.sh installs postgresql-15)";
  mkdir(pgData.c_str(), 0700);
  if (chown(pgData.c_str(), pw->pw_uid, pw->pw_gid) != 0)
    return "chown " + pgData + " failed";
  if (runCommand({"runuser", "-u", kPgUser, "--", std::string(kPgBin) + "/initdb", "-D", pgData,
                  "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync", "--no-instructions"},
                 log) != 0)
    return "initdb failed:\n" + readFile(log);
  return "";
}

} // namespace fbc::rt::e2e
