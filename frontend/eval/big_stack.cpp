#include "frontend/eval/big_stack.h"

#include <pthread.h>

namespace fbc::star {
namespace {

struct Job {
  const std::function<int()> *fn;
  int result = 0;
};

void *trampoline(void *arg) {
  Job *job = static_cast<Job *>(arg);
  job->result = (*job->fn)();
  return nullptr;
}

} // namespace

int runWithLargeStack(const std::function<int()> &fn, size_t stackBytes) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  Job job{&fn};
  pthread_t thread;
  if (pthread_attr_setstacksize(&attr, stackBytes) != 0 ||
      pthread_create(&thread, &attr, trampoline, &job) != 0) {
    pthread_attr_destroy(&attr);
    return fn(); // fall back to the current stack
  }
  pthread_attr_destroy(&attr);
  pthread_join(thread, nullptr);
  return job.result;
}

} // namespace fbc::star
