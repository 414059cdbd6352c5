// The per-rule random stream behind probability=. SplitMix64: tiny state,
// good statistical quality, and fully determined by its seed, so a run is
// reproducible from the run seed. Each rule draws from its own stream, so
// one rule's draws never depend on how often another rule was evaluated
// (the reference shares one generator per service, so its draws depend on
// the syscall interleaving across rules).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace fbc::rt {

class SplitMix64 {
public:
  explicit SplitMix64(uint64_t seed = 0) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1) with 53 random bits.
  double nextDouble() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

private:
  uint64_t state_;
};

// FNV-1a, to fold a rule's stable name into its seed.
inline uint64_t hashName(std::string_view s) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

// A rule's own stream, for syscall and protocol rules alike: it depends on
// the run seed, on what the rule is (its probability-site key, as the plan
// names it) and on where it was pushed (the scope's id, its index there),
// never on how often other rules were evaluated.
inline SplitMix64 ruleStream(uint64_t runSeed, std::string_view siteKey, uint64_t scopeId,
                             size_t index) {
  return SplitMix64(runSeed ^ hashName(siteKey) ^ (scopeId * 0x9e3779b97f4a7c15ULL) ^
                    (index * 0xc2b2ae3d27d4eb4fULL));
}

// Whether one matching occurrence fires: as the leaf pinned it, else by the
// rule's probability. Only a real probability draws, so a rule that is
// certain (or never) consumes no randomness and a stream's draws are
// exactly its coin flips.
inline bool fireDecision(std::optional<bool> pinned, double probability, SplitMix64 &rng) {
  if (pinned)
    return *pinned;
  if (probability >= 1.0)
    return true;
  if (probability <= 0.0)
    return false;
  return rng.nextDouble() < probability;
}

} // namespace fbc::rt
