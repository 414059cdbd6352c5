#include "runtime/os/syscalls.h"
#include "runtime/supervisor/unmediated_io.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace fbc::rt {
namespace {

bool has(const std::vector<int> &v, int x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

TEST(UnmediatedIo, ObservedTrapsSplitAlwaysFromConditional) {
  ObservedTraps t;
  std::string error;
  ASSERT_TRUE(observedTraps({"getrandom", "mmap[shared-write]", "open[/dev/random,/dev/urandom]",
                             "sendto[addressed]", "socket[raw]"},
                            t, error))
      << error;
  EXPECT_TRUE(has(t.always, syscallNumber("getrandom")));
  EXPECT_TRUE(has(t.always, syscallNumber("openat"))); // the open family
  EXPECT_TRUE(has(t.always, syscallNumber("openat2")));
  EXPECT_FALSE(has(t.always, syscallNumber("mmap"))); // by argument only
  EXPECT_FALSE(has(t.always, syscallNumber("sendto")));
  ASSERT_EQ(t.conditional.size(), 3u);
  EXPECT_EQ(t.conditional[0].nr, syscallNumber("mmap"));
  EXPECT_EQ(t.conditional[0].anyOf.size(), 1u);
  EXPECT_EQ(t.conditional[0].anyOf[0].size(),
            2u); // PROT_WRITE, and MAP_SHARED without MAP_ANONYMOUS
  EXPECT_EQ(t.conditional[2].nr, syscallNumber("socket"));
  EXPECT_EQ(t.conditional[2].anyOf.size(), 2u); // SOCK_RAW, or AF_PACKET
  UnmediatedObserver o(t, 0, true);
  EXPECT_TRUE(o.observes(syscallNumber("getrandom")));
  EXPECT_TRUE(o.observes(syscallNumber("mmap")));
  EXPECT_FALSE(o.observes(syscallNumber("write")));
}

TEST(UnmediatedIo, UnknownEntryIsAnError) {
  ObservedTraps t;
  std::string error;
  EXPECT_FALSE(observedTraps({"frobnicate"}, t, error));
  EXPECT_EQ(error, "unknown observed entry \"frobnicate\"");
}

TraceEvent unmediated(ServiceId svc, const char *category, const char *syscall) {
  TraceEvent e;
  e.type = EventType::UnmediatedIo;
  e.service = svc;
  e.fields = {{"category", category}, {"syscall", syscall}, {"pid", "42"}};
  return e;
}

TEST(UnmediatedIo, StrictViolationSkipsToleratedCategories) {
  ir::Spec spec;
  spec.services.resize(2);
  spec.services[0].name = "a";
  spec.services[1].name = "b";
  spec.services[1].nondeterministicOk = {"rand"};
  spec.determinism.explicitCall = true;
  spec.determinism.allow = {"clock"};
  std::vector<std::string> names = {"a", "b"};
  std::vector<TraceEvent> events = {unmediated(0, "clock", "clock_gettime"),
                                    unmediated(1, "rand", "getrandom"),
                                    unmediated(1, "dns", "connect")};
  std::optional<std::string> why = strictViolation(spec, events, names);
  ASSERT_TRUE(why);
  EXPECT_EQ(*why, "strict determinism: unmediated_io[dns] from service \"b\" (syscall=connect) — "
                  "add \"dns\" to determinism(allow=...) or service(\"b\", "
                  "nondeterministic_ok=[...]) to tolerate, or fix the underlying I/O leak");
  events.pop_back();
  EXPECT_FALSE(strictViolation(spec, events, names));
  // Not strict, not L1, or no determinism() call: never a violation.
  events.push_back(unmediated(0, "dns", "connect"));
  EXPECT_TRUE(strictViolation(spec, events, names));
  spec.determinism.strict = false;
  EXPECT_FALSE(strictViolation(spec, events, names));
  spec.determinism.strict = true;
  spec.determinism.level = "L0";
  EXPECT_FALSE(strictViolation(spec, events, names));
  spec.determinism.level = "L1";
  spec.determinism.explicitCall = false;
  EXPECT_FALSE(strictViolation(spec, events, names));
}

} // namespace
} // namespace fbc::rt
