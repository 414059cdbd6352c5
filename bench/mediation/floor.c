/* mediation_floor: the smallest seccomp user-notification supervisor, the
 * physical floor the fbc supervisor is measured against.
 *   mediation_floor PROGRAM [ARGS...]
 * Runs PROGRAM with getppid trapped (SCMP_RET_USER_NOTIF, everything else
 * allowed) and answers every notification with CONTINUE from a loop that
 * blocks in NOTIF_RECV, with SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP set: one
 * ioctl to receive, one to answer, nothing else. */
#define _GNU_SOURCE
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS SECCOMP_IOW(4, __u64)
#endif
#ifndef SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP
#define SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP 1UL
#endif

/* A blocked NOTIF_RECV does not return when the target exits; SIGCHLD
 * (installed without SA_RESTART) interrupts it instead. */
static void on_child(int sig) { (void)sig; }

int main(int argc, char **argv) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_child;
  sigaction(SIGCHLD, &sa, NULL);
  if (argc < 2) {
    fprintf(stderr, "usage: mediation_floor PROGRAM [ARGS...]\n");
    return 2;
  }
  int sp[2];
  socketpair(AF_UNIX, SOCK_STREAM, 0, sp);
  pid_t pid = fork();
  if (pid == 0) {
    struct sock_filter f[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = {sizeof f / sizeof f[0], f};
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    int fd = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER,
                          &prog);
    /* write/read are not trapped here, so the handshake is plain. */
    if (write(sp[1], &fd, sizeof fd) != sizeof fd)
      _exit(127);
    char ack;
    if (read(sp[1], &ack, 1) != 1)
      _exit(127);
    close(sp[0]);
    close(sp[1]);
    close(fd);
    execvp(argv[1], argv + 1);
    _exit(127);
  }
  int child_fd;
  if (read(sp[0], &child_fd, sizeof child_fd) != sizeof child_fd)
    return 1;
  int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
  int fd = (int)syscall(SYS_pidfd_getfd, pidfd, child_fd, 0);
  if (ioctl(fd, SECCOMP_IOCTL_NOTIF_SET_FLAGS, SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP) < 0)
    perror("mediation_floor: SYNC_WAKE_UP unavailable");
  if (write(sp[0], "k", 1) != 1)
    return 1;
  struct seccomp_notif req;
  struct seccomp_notif_resp resp;
  for (;;) {
    memset(&req, 0, sizeof req);
    /* EINTR when SIGCHLD arrives; ENOENT when a notification was dropped. */
    if (ioctl(fd, SECCOMP_IOCTL_NOTIF_RECV, &req) < 0) {
      int status;
      if (waitpid(pid, &status, WNOHANG) == pid)
        return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
      continue;
    }
    memset(&resp, 0, sizeof resp);
    resp.id = req.id;
    resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
    ioctl(fd, SECCOMP_IOCTL_NOTIF_SEND, &resp);
  }
}
