// fbc run's flags, checked: see run_settings.h.
#include "tools/fbc/run_settings.h"

#include "bundle/manifest.h"
#include "ir/duration.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <thread>

namespace fbc::tools {
namespace {

bool timeoutOption(const RunOptions &opts, const char *cmd, rt::RunConfig &cfg) {
  if (opts.timeout.empty())
    return true;
  std::string error;
  std::optional<int64_t> d = ir::parseDuration(opts.timeout, error);
  if (!d || *d <= 0)
    return commandError(cmd, "bad --timeout \"" + opts.timeout +
                                 "\": " + (d ? "must be positive" : error));
  cfg.timeoutNs = *d;
  cfg.timeoutExplicit = true;
  return true;
}

// --seed N, or a fresh random seed (53 bits: a JSON number stays exact).
bool seedOption(const RunOptions &opts, const char *cmd, rt::RunConfig &cfg) {
  if (!opts.seed) {
    std::random_device rd;
    cfg.seed = (static_cast<uint64_t>(rd()) << 32 | rd()) & ((uint64_t(1) << 53) - 1);
    return true;
  }
  const std::string &seed = *opts.seed;
  char *end = nullptr;
  errno = 0;
  unsigned long long v = std::strtoull(seed.c_str(), &end, 10);
  if (errno || !end || *end || seed.empty() || seed.front() == '-')
    return commandError(cmd, "bad --seed \"" + seed + "\": want a non-negative integer");
  cfg.seed = v;
  return true;
}

bool leafOption(const RunOptions &opts, const char *cmd, rt::RunConfig &cfg) {
  const std::string &l = opts.leaf;
  if (l.empty())
    return true;
  std::optional<uint64_t> id = bundle::parseLeafId(l);
  if (!id)
    return commandError(cmd, "bad --leaf \"" + l + "\": want a leaf id \"0\" .. \"N-1\"");
  cfg.leafId = *id;
  return true;
}

bool shardOptions(const RunOptions &opts, const char *cmd, std::optional<ShardRequest> &shard) {
  std::string error;
  if (!resolveShard(opts.shard, opts.shardCount, shard, error))
    return commandError(cmd, error);
  if (shard && !opts.leaf.empty())
    return commandError(cmd, "--leaf picks one leaf; it cannot be combined with sharding (" +
                                 shard->source + ")");
  if (!shard && !opts.durationsFrom.empty())
    return commandError(cmd, "--durations-from balances shards: give --shard K/N");
  if (!touchBazelShardStatus(error))
    return commandError(cmd, error);
  return true;
}

bool jobsOption(const RunOptions &opts, const char *cmd, rt::RunConfig &cfg) {
  if (opts.jobs == "auto") {
    cfg.jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    return true;
  }
  const std::string &j = opts.jobs;
  bool ok = !j.empty() && j.size() <= 4 && j[0] != '0' &&
            j.find_first_not_of("0123456789") == std::string::npos;
  if (!ok)
    return commandError(cmd, "bad -j \"" + j + "\": want a number of leaves (1..9999) or auto");
  cfg.jobs = std::stoi(j);
  return true;
}

// --runs N and --show.
bool runsOptions(const RunOptions &opts, const char *cmd, bool exploring, rt::RunConfig &cfg) {
  if (!opts.runs.empty()) {
    const std::string &n = opts.runs;
    if (n.size() > 7 || n[0] == '0' || n.find_first_not_of("0123456789") != std::string::npos ||
        std::stoul(n) > 1000000)
      return commandError(cmd, "bad --runs \"" + n + "\": want a number of runs (1..1000000)");
    cfg.runs = uint32_t(std::stoul(n));
    if (exploring && cfg.runs > 1)
      return commandError(cmd, "--runs repeats each leaf with the next seeds and --explore runs "
                               "each release order once: use one of them");
  }
  if (opts.show != "all" && opts.show != "fail")
    return commandError(cmd, "bad --show \"" + opts.show + "\": want all or fail");
  cfg.showFailOnly = opts.show == "fail";
  return true;
}

bool exploreSettings(const RunOptions &opts, const char *cmd, RunSettings &out) {
  std::string error;
  if (!exploreOptions(opts.explore, out.explore, error))
    return commandError(cmd, error);
  if (opts.replayExplore)
    out.explore = *opts.replayExplore;
  if (!runsOptions(opts, cmd, out.exploring(), out.cfg))
    return false;
  if (out.exploring() && out.cfg.jobs > 1) {
    std::fprintf(stderr,
                 "%s: warning: --explore runs one leaf at a time (each leaf's order follows from "
                 "the last one's)\n",
                 cmd);
    out.cfg.jobs = 1;
  }
  if (out.exploring() && out.shard)
    return commandError(cmd, "--explore finds its leaves as it runs: it cannot be sharded");
  return true;
}

} // namespace

bool commandError(const char *cmd, const std::string &message) {
  std::fprintf(stderr, "%s: error: %s\n", cmd, message.c_str());
  return false;
}

bool runSettings(const RunOptions &opts, std::atomic<bool> *interrupted, RunSettings &out) {
  const char *cmd = opts.command.c_str();
  if (opts.format != "text" && opts.format != "json")
    return commandError(cmd, "unknown format '" + opts.format + "' (formats: text, json)");
  if (opts.noBundle && !opts.bundle.empty())
    return commandError(cmd, "--bundle and --no-bundle contradict each other");
  out.startUnix = static_cast<int64_t>(std::time(nullptr));
  rt::RunConfig &cfg = out.cfg;
  if (!timeoutOption(opts, cmd, cfg) || !seedOption(opts, cmd, cfg) ||
      !leafOption(opts, cmd, cfg) || !shardOptions(opts, cmd, out.shard) ||
      !jobsOption(opts, cmd, cfg) || !exploreSettings(opts, cmd, out))
    return false;
  cfg.schedules = opts.schedules;
  cfg.streamFd = opts.verbose ? STDERR_FILENO : -1;
  cfg.interrupted = interrupted;
  out.bundling = !opts.noBundle;
  cfg.keepServiceOutput = out.bundling;
  cfg.requireFaultsFire = opts.requireFaultsFire;
  cfg.recordOperations = opts.recordOperations;
  cfg.serviceDir = opts.serviceDir;
  return true;
}

} // namespace fbc::tools
