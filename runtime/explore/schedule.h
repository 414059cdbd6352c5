// A leaf's schedule: the sequence of held calls the explorer released, and
// at each release what else was waiting (the choices), and how the next
// leaf's schedule follows from the last (--explore=all: depth first over
// every release order; --explore=sample: seeded random orders; a replay:
// the bundle's schedule).
//
// A held call is named by what a rerun of the same schedule reproduces:
// its service, its thread's ordinal in that service (threads are numbered
// from 0 as their first held call is seen, ties by thread id), the count of
// calls that thread had held before it, and the syscall:
// "api/t1#2 sendto". Kernel thread ids differ between runs; these names do
// not, as long as the services do the same work for the same release order.
// A message held in fbc's proxy is named the same way (messageName()).
#pragma once

#include "runtime/explore/resources.h"
#include "runtime/rules/rng.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fbc::rt::explore {

// One release: the calls waiting (names, sorted) and which one went.
struct Step {
  std::vector<std::string> waiting;
  std::vector<Access> access; // parallel to `waiting`: what each touches (DPOR; else unknown)
  size_t chosen = 0;
  bool forced = false; // released as the window closed: no chooser was asked
  const std::string &released() const { return waiting[chosen]; }
};

// The thread part of a call's name: "api/t1" of "api/t1#2 sendto" (a held
// message's connection: "cache/c0" of "cache/c0#1 SET").
std::string threadOf(const std::string &call);

// Decides which waiting call a leaf releases at each step.
class Chooser {
public:
  virtual ~Chooser() = default;
  // The index in `waiting` (sorted names, not empty) to release at `step`.
  virtual size_t choose(size_t step, const std::vector<std::string> &waiting) = 0;
  // The first step where the leaf could not follow the schedule it was
  // given (a name it had to release was not waiting); nullopt: followed.
  virtual std::optional<size_t> diverged() const { return std::nullopt; }
};

// Releases `prefix[k]` at step k, then always the first waiting call
// (depth first's leftmost branch), or with `stick` the call of the thread
// released last when it is waiting (no preemption: DPOR's default order).
// A prefix name that is not waiting is a divergence: the first call goes
// instead.
class PrefixChooser final : public Chooser {
public:
  explicit PrefixChooser(std::vector<std::string> prefix, bool stick = false)
      : prefix_(std::move(prefix)), stick_(stick) {}
  size_t choose(size_t step, const std::vector<std::string> &waiting) override;
  std::optional<size_t> diverged() const override { return diverged_; }

private:
  size_t pick(size_t step, const std::vector<std::string> &waiting);
  std::vector<std::string> prefix_;
  bool stick_;
  std::string last_; // the thread released last
  std::optional<size_t> diverged_;
};

// A uniformly random waiting call at every step, from a seeded stream.
class SampleChooser final : public Chooser {
public:
  explicit SampleChooser(uint64_t seed) : rng_(seed) {}
  size_t choose(size_t step, const std::vector<std::string> &waiting) override;

private:
  SplitMix64 rng_;
};

// Depth first over release orders: the prefix of the leaf after the one
// that ran `steps` (the deepest step with a later waiting call takes it),
// or nullopt when every order has been run.
std::optional<std::vector<std::string>> nextDepthFirst(const std::vector<Step> &steps);

// The released names, in order.
std::vector<std::string> releasedNames(const std::vector<Step> &steps);

// The choices of the steps that had any, for a row's label: "1.0.2"
// (the index released at each step with two or more waiting calls); "-"
// when no step had a choice.
std::string choiceLabel(const std::vector<Step> &steps);

// "api/t1#2 sendto".
std::string callName(const std::string &service, uint32_t thread, uint32_t seq,
                     const std::string &syscall);
// A message fbc's proxy held on its way to `service` (runtime/proxy/
// proxy_hold.h), named as a call is with its connection in place of a
// thread (numbered from 0 in the service as its first held message is
// seen, ties by the proxy's accept order) and its request's word in place
// of the syscall: "cache/c1#0 GET".
std::string messageName(const std::string &service, uint32_t conn, uint32_t seq,
                        const std::string &what);

} // namespace fbc::rt::explore
