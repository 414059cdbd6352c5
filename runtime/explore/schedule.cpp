#include "runtime/explore/schedule.h"

#include <algorithm>

namespace fbc::rt::explore {

std::string threadOf(const std::string &call) {
  return call.substr(0, call.find('#'));
}

size_t PrefixChooser::choose(size_t step, const std::vector<std::string> &waiting) {
  size_t k = pick(step, waiting);
  last_ = threadOf(waiting[k]);
  return k;
}

size_t PrefixChooser::pick(size_t step, const std::vector<std::string> &waiting) {
  if (step < prefix_.size() && !diverged_) {
    auto it = std::find(waiting.begin(), waiting.end(), prefix_[step]);
    if (it != waiting.end())
      return size_t(it - waiting.begin());
    diverged_ = step;
  }
  if (stick_)
    for (size_t k = 0; k < waiting.size(); ++k)
      if (threadOf(waiting[k]) == last_)
        return k;
  return 0;
}

size_t SampleChooser::choose(size_t, const std::vector<std::string> &waiting) {
  return size_t(rng_.next() % waiting.size());
}

std::optional<std::vector<std::string>> nextDepthFirst(const std::vector<Step> &steps) {
  for (size_t d = steps.size(); d-- > 0;) {
    const Step &s = steps[d];
    if (!s.forced && s.chosen + 1 < s.waiting.size()) {
      std::vector<std::string> prefix;
      for (size_t k = 0; k < d; ++k)
        prefix.push_back(steps[k].released());
      prefix.push_back(s.waiting[s.chosen + 1]);
      return prefix;
    }
  }
  return std::nullopt;
}

std::vector<std::string> releasedNames(const std::vector<Step> &steps) {
  std::vector<std::string> out;
  for (const Step &s : steps)
    out.push_back(s.released());
  return out;
}

std::string choiceLabel(const std::vector<Step> &steps) {
  std::string out;
  for (const Step &s : steps)
    if (s.waiting.size() > 1) {
      if (!out.empty())
        out += '.';
      out += std::to_string(s.chosen);
    }
  return out.empty() ? "-" : out;
}

std::string callName(const std::string &service, uint32_t thread, uint32_t seq,
                     const std::string &syscall) {
  return service + "/t" + std::to_string(thread) + "#" + std::to_string(seq) + " " + syscall;
}

std::string messageName(const std::string &service, uint32_t conn, uint32_t seq,
                        const std::string &what) {
  return service + "/c" + std::to_string(conn) + "#" + std::to_string(seq) + " " + what;
}

} // namespace fbc::rt::explore
