/* mediation_target: the workload of the mediation benchmark.
 *   mediation_target N
 * Makes N raw getppid() calls (after a short warm-up) and prints the mean
 * cost of one call in nanoseconds. The clock is read through the vDSO, so
 * measuring adds no syscall of its own; getppid has no vDSO shortcut and no
 * side effects, so every call enters the kernel (and the seccomp filter). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 200000;
  for (long i = 0; i < n / 20 + 1; i++)
    syscall(SYS_getppid);
  double t0 = now_ns();
  for (long i = 0; i < n; i++)
    syscall(SYS_getppid);
  double t1 = now_ns();
  printf("%.1f\n", (t1 - t0) / (double)n);
  return 0;
}
