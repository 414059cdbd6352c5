#include "tools/fbc/shard_options.h"

#include "bundle/durations.h"
#include "bundle/inspect.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace fbc::tools {

namespace {

constexpr uint32_t kMaxShards = 100000;

// A decimal in [0, kMaxShards]; false for anything else.
bool parseCount(const std::string &s, uint32_t &out) {
  if (s.empty() || s.size() > 6 || s.find_first_not_of("0123456789") != std::string::npos)
    return false;
  unsigned long v = std::strtoul(s.c_str(), nullptr, 10);
  if (v > kMaxShards)
    return false;
  out = uint32_t(v);
  return true;
}

// An index/total pair read from two variables (or the flag).
bool pair(const std::string &index, const std::string &total, bool oneBased,
          const std::string &source, std::optional<ShardRequest> &out, std::string &error) {
  uint32_t k = 0, n = 0;
  if (!parseCount(total, n) || n == 0) {
    error = source + ": bad shard count \"" + total + "\" (want 1 .. " +
            std::to_string(kMaxShards) + ")";
    return false;
  }
  uint32_t lo = oneBased ? 1 : 0;
  if (!parseCount(index, k) || k < lo || k - lo >= n) {
    error = source + ": bad shard index \"" + index + "\" (want " + std::to_string(lo) + " .. " +
            std::to_string(n - 1 + lo) + ")";
    return false;
  }
  out = ShardRequest{k - lo, n, source};
  return true;
}

std::string env(const char *name) {
  const char *v = std::getenv(name);
  return v ? v : "";
}

} // namespace

bool resolveShard(const std::string &flag, uint32_t shardCount, std::optional<ShardRequest> &out,
                  std::string &error) {
  out.reset();
  if (!flag.empty()) {
    size_t slash = flag.find('/');
    if (slash == std::string::npos) {
      error = "bad --shard \"" + flag + "\": want K/N, e.g. 2/5 (shards are numbered from 1)";
      return false;
    }
    return pair(flag.substr(0, slash), flag.substr(slash + 1), true, "--shard " + flag, out, error);
  }
  if (shardCount) {
    const char *idx = std::getenv("JOB_COMPLETION_INDEX");
    if (!idx) {
      error = "--shard-count needs JOB_COMPLETION_INDEX (set by a Kubernetes Indexed Job); "
              "elsewhere use --shard K/N";
      return false;
    }
    return pair(idx, std::to_string(shardCount), false,
                "JOB_COMPLETION_INDEX=" + std::string(idx) + " --shard-count " +
                    std::to_string(shardCount),
                out, error);
  }
  if (std::getenv("TEST_TOTAL_SHARDS")) {
    std::string k = env("TEST_SHARD_INDEX"), n = env("TEST_TOTAL_SHARDS");
    return pair(k, n, false, "TEST_SHARD_INDEX=" + k + " TEST_TOTAL_SHARDS=" + n, out, error);
  }
  if (std::getenv("CI_NODE_INDEX")) {
    std::string k = env("CI_NODE_INDEX"), n = env("CI_NODE_TOTAL");
    return pair(k, n, true, "CI_NODE_INDEX=" + k + " CI_NODE_TOTAL=" + n, out, error);
  }
  return true;
}

bool touchBazelShardStatus(std::string &error) {
  const char *path = std::getenv("TEST_SHARD_STATUS_FILE");
  if (!path || !*path)
    return true;
  int fd = ::open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    error =
        std::string("cannot touch TEST_SHARD_STATUS_FILE ") + path + ": " + std::strerror(errno);
    return false;
  }
  ::close(fd);
  return true;
}

bool measuredForShards(const std::string &flag, const std::string &spec,
                       std::optional<backend::MeasuredDurations> &out, std::string &from,
                       std::string &error) {
  std::string path = flag;
  if (path.empty()) {
    const char *dir = std::getenv("FBC_BUNDLE_DIR");
    std::optional<std::string> newest =
        dir && *dir ? bundle::newestBundleOf(dir, spec) : std::nullopt;
    if (!newest)
      return true;
    path = from = *newest;
  }
  llvm::Expected<bundle::OpenedBundle> b = bundle::openBundle(path);
  if (!b) {
    error = (flag.empty() ? "shard durations from " : "--durations-from ") + path + ": " +
            llvm::toString(b.takeError());
    return false;
  }
  out = bundle::measuredDurations(*b);
  return true;
}

} // namespace fbc::tools
