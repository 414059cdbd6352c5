// Builds str() and repr() text. Tracks the containers being printed so a
// cyclic list prints as [1, [...], 3] (Go's behaviour).
#pragma once

#include "frontend/lib/value.h"

#include <string>
#include <vector>

namespace fbc::star {

class Printer {
public:
  std::string out;

  // repr(v): strings quoted with Go-style escapes.
  void repr(Value v);
  // str(v): like repr except that a top-level string is written raw.
  void str(Value v);
  void write(std::string_view s) { out.append(s); }
  void write(char c) { out.push_back(c); }

  // Cycle detection for containers: enter() returns false if `o` is
  // already being printed (the caller then writes "[...]" / "{...}").
  bool enter(const Object *o);
  void leave() { active_.pop_back(); }

private:
  std::vector<const Object *> active_;
};

std::string repr(Value v);
std::string str(Value v);

} // namespace fbc::star
