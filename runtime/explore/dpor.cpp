#include "runtime/explore/dpor.h"

#include <algorithm>
#include <map>

namespace fbc::rt::explore {
namespace {

// What the call a step released touches; null when it was not read.
const Access *releasedAccess(const Step &s) {
  return s.chosen < s.access.size() ? &s.access[s.chosen] : nullptr;
}

// Whether two released calls may not commute: one was not read, or they
// share a resource.
bool mayNotCommute(const Access *a, const Access *b) {
  return !a || !b || dependent(*a, *b);
}

} // namespace

bool Dpor::preempts(size_t d, const std::string &thread) const {
  if (d == 0)
    return false;
  std::string prev = threadOf(path_[d - 1].released);
  return prev != thread && path_[d].enabled.count(prev);
}

const Access *Dpor::accessAt(size_t d, const std::string &t) const {
  const Node &n = path_[d];
  for (size_t k = 0; k < n.waiting.size(); ++k)
    if (threadOf(n.waiting[k]) == t)
      return k < n.access.size() ? &n.access[k] : nullptr;
  return nullptr;
}

void Dpor::addNode(const Step &s, const std::map<std::string, Access> *sleep) {
  Node n;
  n.waiting = s.waiting;
  n.access = s.access;
  n.released = s.released();
  for (const std::string &w : s.waiting)
    n.enabled.insert(threadOf(w));
  n.done.insert(threadOf(n.released));
  n.explored = n.backtrack = n.done;
  n.forced = s.forced;
  size_t d = path_.size();
  path_.push_back(std::move(n));
  if (d == 0)
    return;
  const Node &prev = path_[d - 1];
  std::string went = threadOf(prev.released);
  path_[d].preemptions = prev.preemptions + (preempts(d - 1, went) ? 1 : 0);
  if (sleep) {
    path_[d].sleep = *sleep;
    return;
  }
  // A sleeping thread sleeps on while what goes is independent of its call.
  const Access *wentAccess = accessAt(d - 1, went);
  for (const auto &[t, a] : prev.sleep)
    if (t != went && wentAccess && !dependent(a, *wentAccess))
      path_[d].sleep.emplace(t, a);
}

void Dpor::ran(const std::vector<Step> &steps, std::optional<size_t> diverged) {
  if (leaves_++ && steps.size() != mostEvents_)
    eventsVary_ = true;
  mostEvents_ = std::max(mostEvents_, steps.size());
  diverged_ = diverged_ || diverged;
  classes_.insert(classOf(steps));
  // The nodes the leaf went through as planned are kept (their done and
  // backtrack sets); from the first step that differs, its own.
  size_t keep = std::min(path_.size(), steps.size());
  if (diverged)
    keep = std::min(keep, *diverged);
  for (size_t k = 0; k < keep; ++k)
    if (path_[k].released != steps[k].released() || path_[k].waiting != steps[k].waiting) {
      keep = k;
      break;
    }
  // The node after the last choice starts with the sleep set next() gave
  // it, unless the leaf left the planned path before.
  bool followed = chose_ && keep == lastChoice_ + 1;
  path_.resize(keep);
  for (size_t k = keep; k < steps.size(); ++k)
    addNode(steps[k], followed && k == keep ? &childSleep_ : nullptr);
  childSleep_.clear();
  chose_ = false;
  findRaces(steps);
}

void Dpor::addBacktrack(size_t i, const std::string &thread) {
  Node &node = path_[i];
  if (node.forced)
    return; // no choice can be made there
  if (node.enabled.count(thread))
    node.backtrack.insert(thread);
  else
    node.backtrack.insert(node.enabled.begin(), node.enabled.end());
}

std::string Dpor::classOf(const std::vector<Step> &steps) {
  std::vector<std::string> before;
  for (size_t j = 0; j < steps.size(); ++j)
    for (size_t i = 0; i < j; ++i) {
      const Step &a = steps[i], &b = steps[j];
      if (threadOf(a.released()) == threadOf(b.released()))
        continue;
      if (mayNotCommute(releasedAccess(a), releasedAccess(b)))
        before.push_back(a.released() + "<" + b.released());
    }
  std::sort(before.begin(), before.end());
  std::string out;
  for (const std::string &p : before)
    out.append(p).append("\n");
  return out;
}

void Dpor::findRaces(const std::vector<Step> &steps) {
  using Clock = std::map<std::string, size_t>; // thread -> 1 + its last event known
  auto known = [](const Clock &c, const std::string &t) {
    auto it = c.find(t);
    return it == c.end() ? size_t(0) : it->second;
  };
  size_t n = steps.size();
  std::vector<std::string> thread(n);
  std::vector<const Access *> access(n);
  for (size_t j = 0; j < n; ++j) {
    thread[j] = threadOf(steps[j].released());
    access[j] = releasedAccess(steps[j]);
  }
  auto dep = [&](size_t i, size_t j) { return mayNotCommute(access[i], access[j]); };
  std::map<std::string, Clock> threadClock;
  std::vector<Clock> eventClock(n);
  for (size_t j = 0; j < n; ++j) {
    const std::string &p = thread[j];
    Clock &cp = threadClock[p];
    for (size_t i = j; i-- > 0;) {
      if (thread[i] == p || !dep(i, j) || known(cp, thread[i]) > i)
        continue;
      addBacktrack(i, p);
      // Under a preemption bound the switch at i may be cut: p is also
      // tried at the last state before it where switching threads is
      // free (the thread that went before is not waiting), as bounded
      // partial-order reduction does (Coons, Musuvathi, McKinley 2013).
      if (bound_) {
        size_t k = i;
        while (k > 0 && path_[k].enabled.count(threadOf(path_[k - 1].released)))
          --k;
        if (k != i)
          addBacktrack(k, p);
      }
      break;
    }
    Clock c = cp;
    for (size_t i = 0; i < j; ++i)
      if (thread[i] != p && dep(i, j))
        for (const auto &[t, v] : eventClock[i])
          c[t] = std::max(c[t], v);
    c[p] = j + 1;
    eventClock[j] = c;
    cp = std::move(c);
  }
}

std::optional<std::vector<std::string>> Dpor::next() {
  for (size_t d = path_.size(); d-- > 0;) {
    Node &node = path_[d];
    for (const std::string &q : node.backtrack) {
      if (node.done.count(q))
        continue;
      node.done.insert(q);
      if (node.sleep.count(q))
        continue; // an order equivalent to one run already
      if (bound_ && node.preemptions + (preempts(d, q) ? 1 : 0) > *bound_) {
        ++cut_;
        continue;
      }
      auto call = std::find_if(node.waiting.begin(), node.waiting.end(),
                               [&](const std::string &w) { return threadOf(w) == q; });
      const Access *qa = accessAt(d, q);
      if (call == node.waiting.end() || !qa)
        continue; // cannot happen: backtrack threads are enabled threads
      // The threads run from here before q, and those asleep here, sleep
      // after q while independent of it.
      childSleep_.clear();
      for (const auto &[t, a] : node.sleep)
        if (!dependent(a, *qa))
          childSleep_.emplace(t, a);
      for (const std::string &t : node.explored)
        if (const Access *ta = accessAt(d, t); ta && t != q && !dependent(*ta, *qa))
          childSleep_.emplace(t, *ta);
      node.explored.insert(q);
      node.released = *call;
      lastChoice_ = d;
      chose_ = true;
      path_.resize(d + 1);
      std::vector<std::string> prefix;
      for (const Node &k : path_)
        prefix.push_back(k.released);
      return prefix;
    }
  }
  return std::nullopt;
}

} // namespace fbc::rt::explore
