// parallel(..., interleavings="dpor"): dynamic partial-order reduction over
// a test's leaves (Flanagan & Godefroid, POPL 2005: persistent sets found
// from the races of each run), stateless: every leaf reruns the test from
// the start and follows a prefix of releases, then releases the call of
// the thread that went last while it is waiting (no preemption), else the
// first by name.
//
// After a leaf, each released call e_j is checked against the calls
// released before it: the last one e_i of another thread that is
// dependent with e_j (resources.h: conservative) and does not happen
// before e_j's thread (vector clocks over program order and dependence)
// is a race; e_j's thread is added to the backtrack set of the state
// before e_i (or every thread waiting there, when e_j's was not). The
// next leaf is the deepest state with a backtrack thread not yet tried.
// So every Mazurkiewicz class of the released calls' orders (orders equal
// up to swapping adjacent independent calls) is run at least once, as far
// as the calls of a rerun are the same for the same order of releases.
//
// Sleep sets (Godefroid) prune what the races alone would rerun: a thread
// whose call was explored at a state sleeps in the states after it, as
// long as the calls released there are independent of that call; a
// backtrack choice of a sleeping thread is not run (it leads to an order
// equivalent to one already run).
//
// preemptions=N (CHESS's context bound) leaves out the backtrack choices
// that would make an order switch away from a thread that could go on
// more than N times; they are counted (cut()), not silently dropped. Each
// race also adds its thread at the last state before it where a switch is
// not a preemption, so that a bound does not cut the free switches too.
#pragma once

#include "runtime/explore/schedule.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace fbc::rt::explore {

class Dpor {
public:
  explicit Dpor(std::optional<uint32_t> preemptions) : bound_(preemptions) {}

  // The leaf that followed the last next() (or leaf 0) released `steps`;
  // `diverged`: the first step where it could not follow its prefix.
  void ran(const std::vector<Step> &steps, std::optional<size_t> diverged);
  // The release prefix of the next leaf, or nullopt when every backtrack
  // choice has been run or cut.
  std::optional<std::vector<std::string>> next();

  uint64_t cut() const { return cut_; } // choices preemptions= left out
  // The classes the leaves ran() was given fall in (a leaf's class: for
  // every dependent pair of released calls of different threads, which
  // went first; two leaves of one class count once), the most calls a leaf
  // released, whether leaves released different numbers, and whether one
  // could not follow its prefix: what the coverage statement says.
  uint64_t classes() const { return classes_.size(); }
  size_t mostEvents() const { return mostEvents_; }
  bool eventsVary() const { return eventsVary_; }
  bool diverged() const { return diverged_; }

private:
  struct Node {
    std::vector<std::string> waiting; // call names, sorted
    std::vector<Access> access;       // parallel to `waiting`
    std::string released;
    std::set<std::string> enabled, done, backtrack; // threads
    std::set<std::string> explored;                 // threads run from here (done: or cut)
    std::map<std::string, Access> sleep;            // sleeping threads and their calls
    bool forced = false;                            // no choice was made here (the window closed)
    uint32_t preemptions = 0;                       // preemptions of the choices before this node
  };
  // Whether releasing `thread` at node `d` is a preemption: the thread
  // released at d-1 is waiting at d and is not `thread`.
  bool preempts(size_t d, const std::string &thread) const;
  // `sleep`: the node's sleep set as next() computed it (else the last
  // node's, less the threads dependent with what it released).
  void addNode(const Step &s, const std::map<std::string, Access> *sleep);
  // The access of thread `t`'s waiting call at node `d`.
  const Access *accessAt(size_t d, const std::string &t) const;
  void findRaces(const std::vector<Step> &steps);
  // A leaf's class: its dependent pairs of calls of different threads,
  // each "a<b" as released, sorted, a line each.
  static std::string classOf(const std::vector<Step> &steps);
  // `thread` is to be tried at node i (every waiting thread when it is not
  // waiting there).
  void addBacktrack(size_t i, const std::string &thread);

  std::optional<uint32_t> bound_;
  std::vector<Node> path_;
  // The sleep set of the node after the one next() chose at (set by next(),
  // taken by the node ran() adds there).
  std::map<std::string, Access> childSleep_;
  size_t lastChoice_ = 0; // the node next() chose at
  bool chose_ = false;    // next() chose since the last ran()
  uint64_t cut_ = 0;
  uint64_t leaves_ = 0;
  std::set<std::string> classes_; // each leaf's class, as classOf() writes it
  size_t mostEvents_ = 0;
  bool eventsVary_ = false, diverged_ = false;
};

} // namespace fbc::rt::explore
