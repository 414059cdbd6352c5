// The run's containers, their labels and their removal: see container_run.h.
#include "runtime/containers/container_run.h"

#include "ir/json_writer.h"
#include "runtime/containers/container_shim.h"
#include "runtime/containers/image_build.h"
#include "runtime/os/host_check.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <simdjson.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

extern char **environ;

namespace fbc::rt::containers {

namespace {

constexpr const char *kWatchdogEnv = "FBC_CONTAINER_WATCHDOG";
constexpr const char *kRunLabel = "fbc.run";
constexpr const char *kPidLabel = "fbc.pid";

// `?filters={"label":["<filter>"]}` for a list endpoint.
std::string labelFilter(const std::string &filter) {
  std::string json;
  ir::JsonWriter w(json);
  w.beginObject().key("label").beginArray().value(filter).endArray().endObject();
  return "filters=" + urlEncode(json);
}

// The values of `field` of each object of the JSON array `body` (or of the
// array member `member` of the object `body` when `member` is set).
std::vector<std::string> fieldsOf(const std::string &body, const char *field,
                                  const char *member = nullptr) {
  std::vector<std::string> out;
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (parser.parse(body).get(doc))
    return out;
  simdjson::dom::array items;
  if (member ? doc[member].get(items) : doc.get(items))
    return out;
  for (simdjson::dom::element item : items) {
    std::string_view v;
    if (!item[field].get(v))
      out.emplace_back(v);
  }
  return out;
}

// The label values `key` of the containers or networks `body` lists.
std::vector<std::string> labelValues(const std::string &body, const char *labelsField,
                                     const char *key) {
  std::vector<std::string> out;
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  simdjson::dom::array items;
  if (parser.parse(body).get(doc) || doc.get(items))
    return out;
  for (simdjson::dom::element item : items) {
    std::string_view v;
    if (!item[labelsField][key].get(v))
      out.emplace_back(v);
  }
  return out;
}

void sleepMs(long ms) {
  timespec ts{ms / 1000, (ms % 1000) * 1000000};
  nanosleep(&ts, nullptr);
}

// A run id unique on this machine and readable in `podman ps`: fbc's pid
// and the low bits of the time it started.
std::string makeRunId() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  std::ostringstream id;
  id << getpid() << "-" << std::hex << ((ts.tv_sec * 1000 + ts.tv_nsec / 1000000) & 0xffffff);
  return id.str();
}

// Removes directory `dir` and the sockets in it.
void removeShimDir(const std::string &dir) {
  if (DIR *d = opendir(dir.c_str())) {
    while (dirent *e = readdir(d))
      if (e->d_name[0] != '.')
        unlink((dir + "/" + e->d_name).c_str());
    closedir(d);
  }
  rmdir(dir.c_str());
}

} // namespace

std::string processIdentity(int pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat;
  if (!std::getline(in, stat))
    return "";
  size_t paren = stat.rfind(')');
  if (paren == std::string::npos)
    return "";
  std::istringstream fields(stat.substr(paren + 2));
  std::string f;
  // state is field 3 of stat; starttime is field 22.
  for (int i = 3; i <= 22 && fields >> f; ++i) {
    if (i == 3 && f == "Z")
      return "";
    if (i == 22)
      return std::to_string(pid) + ":" + f;
  }
  return "";
}

int removeLabelled(const Engine &engine, const std::string &filter) {
  int removed = 0;
  std::string query = labelFilter(filter);
  for (const std::string &id : fieldsOf(engine.get("/containers/json?all=1&" + query).body, "Id"))
    if (engine.call("DELETE", "/containers/" + id + "?force=1&v=1").ok())
      ++removed;
  for (const std::string &id : fieldsOf(engine.get("/networks?" + query).body, "Id"))
    engine.call("DELETE", "/networks/" + id);
  for (const std::string &name : fieldsOf(engine.get("/volumes?" + query).body, "Name", "Volumes"))
    engine.call("DELETE", "/volumes/" + urlEncode(name) + "?force=1");
  return removed;
}

int sweepDeadRuns(const Engine &engine) {
  std::string query = labelFilter(kPidLabel);
  std::vector<std::string> owners =
      labelValues(engine.get("/containers/json?all=1&" + query).body, "Labels", kPidLabel);
  for (const std::string &o :
       labelValues(engine.get("/networks?" + query).body, "Labels", kPidLabel))
    owners.push_back(o);
  std::sort(owners.begin(), owners.end());
  owners.erase(std::unique(owners.begin(), owners.end()), owners.end());
  int removed = 0;
  for (const std::string &owner : owners) {
    int pid = std::atoi(owner.c_str());
    if (pid > 0 && processIdentity(pid) == owner)
      continue; // its fbc still runs
    removed += removeLabelled(engine, std::string(kPidLabel) + "=" + owner);
  }
  return removed;
}

std::unique_ptr<ContainerRun> ContainerRun::open(std::string &error) {
  std::unique_ptr<ContainerRun> run(new ContainerRun());
  run->host_ = EngineHost::open(error);
  if (!run->host_)
    return nullptr;
  run->runId_ = makeRunId();
  run->pidLabel_ = processIdentity(getpid());
  run->networks_ = std::make_unique<NetworkPool>(run->engine(), run->runId_, run->labels());
  sweepDeadRuns(run->engine());
  // The watchdog: fbc itself, re-executed, holding the read end.
  int p[2];
  if (pipe2(p, O_CLOEXEC) == 0) {
    std::vector<std::string> env;
    for (char **e = environ; *e; ++e)
      env.emplace_back(*e);
    env.push_back(std::string(kWatchdogEnv) + "=" + run->engine().socket() + "\n" + run->runId_ +
                  "\n" + std::to_string(run->host_->servicePid()));
    pid_t pid = spawnDetached({"/proc/self/exe"}, env, "", p[0]);
    ::close(p[0]);
    if (pid < 0)
      ::close(p[1]);
    else
      run->watchdogFd_ = p[1];
  }
  return run;
}

ContainerRun::~ContainerRun() {
  close();
}

std::vector<std::pair<std::string, std::string>> ContainerRun::labels() const {
  return {{kRunLabel, runId_}, {kPidLabel, pidLabel_}};
}

std::shared_ptr<ContainerNetwork> ContainerRun::joinNetwork(std::string &error) {
  return networks_->join(error);
}

std::string ContainerRun::shimDir(std::string &error) {
  std::lock_guard lock(mu_);
  std::string dir = shimDirOf(runId_);
  if (!shimDirMade_) {
    // Searchable by the image's USER, whoever that is: the socket is 0777.
    if (mkdir(dir.c_str(), 0711) < 0 && errno != EEXIST) {
      error = "cannot create " + dir + ": " + std::strerror(errno);
      return "";
    }
    chmod(dir.c_str(), 0711); // whatever the umask
    shimDirMade_ = true;
  }
  return dir;
}

std::string ContainerRun::containerName(const std::string &service) {
  std::lock_guard lock(mu_);
  return "fbc-" + runId_ + "-" + service + "-" + std::to_string(++counter_);
}

void ContainerRun::close() {
  std::lock_guard lock(mu_);
  if (closed_)
    return;
  closed_ = true;
  if (!host_)
    return; // never opened: nothing was created
  removeLabelled(engine(), std::string(kRunLabel) + "=" + runId_);
  if (shimDirMade_)
    removeShimDir(shimDirOf(runId_));
  if (watchdogFd_ >= 0) {
    // "done": the watchdog exits without sweeping.
    if (write(watchdogFd_, "x", 1) != 1) {
    }
    ::close(watchdogFd_);
    watchdogFd_ = -1;
  }
  host_.reset(); // stops fbc's own podman service
}

namespace {
std::mutex sharedMu;
std::once_flag sharedOnce;
std::unique_ptr<ContainerRun> shared;
std::string sharedWhy;
} // namespace

void ContainerRun::recordImage(const std::string &ref, const std::string &id) {
  std::lock_guard lock(mu_);
  for (const auto &[r, i] : images_)
    if (r == ref)
      return;
  images_.emplace_back(ref, id);
}

std::string ContainerRun::builtImage(const std::string &service, const std::string &dir,
                                     std::string &error) {
  std::lock_guard lock(buildMu_);
  auto [it, fresh] = builds_.try_emplace({service, dir});
  if (!fresh)
    return it->second;
  std::string tag = buildImage(engine(), service, dir, error);
  if (tag.empty())
    builds_.erase(it); // a failed build is tried again by the next leaf
  else
    it->second = tag;
  return tag;
}

std::vector<std::pair<std::string, std::string>> ContainerRun::images() const {
  std::lock_guard lock(mu_);
  return images_;
}

ContainerRun *sharedRun(std::string &why) {
  std::call_once(sharedOnce, [] { shared = ContainerRun::open(sharedWhy); });
  why = sharedWhy;
  return shared.get();
}

std::vector<std::pair<std::string, std::string>> usedImages() {
  std::lock_guard lock(sharedMu);
  return shared ? shared->images() : std::vector<std::pair<std::string, std::string>>{};
}

std::optional<std::string> resolveImageNow(const std::string &ref, std::string &why) {
  ContainerRun *run = sharedRun(why);
  if (!run)
    return std::nullopt;
  EngineResponse r = run->engine().get("/images/" + urlEncode(ref) + "/json");
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  std::string_view id;
  if (!r.ok() || parser.parse(r.body).get(doc) || doc["Id"].get(id))
    return std::string();
  return std::string(id);
}

void closeSharedRun() {
  std::lock_guard lock(sharedMu);
  if (shared)
    shared->close();
}

void installEngineProbe() {
  setContainerEngineProbe([]() -> std::optional<std::string> {
    std::string why;
    if (sharedRun(why))
      return std::nullopt;
    return why;
  });
}

int runWatchdogIfAsked() {
  const char *spec = std::getenv(kWatchdogEnv);
  if (!spec)
    return -1;
  std::istringstream in(spec);
  std::string socket, runId, servicePid;
  std::getline(in, socket);
  std::getline(in, runId);
  std::getline(in, servicePid);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE})
    signal(sig, SIG_IGN);
  char c = 0;
  ssize_t n;
  while ((n = read(3, &c, 1)) < 0 && errno == EINTR) {
  }
  if (n == 1 && c == 'x')
    return 0; // fbc closed the run itself
  // fbc is gone without closing: remove what it left.
  Engine engine(socket);
  removeLabelled(engine, std::string(kRunLabel) + "=" + runId);
  removeShimDir(shimDirOf(runId));
  if (pid_t pid = std::atoi(servicePid.c_str()); pid > 0) {
    kill(pid, SIGTERM);
    for (int waited = 0; !processIdentity(pid).empty() && waited < 5000; waited += 10)
      sleepMs(10);
    // fbc's own service: its socket's directory (engine.cpp) goes too.
    std::string dir = socket.substr(0, socket.rfind('/'));
    unlink((dir + "/podman.sock").c_str());
    unlink((dir + "/service.log").c_str());
    rmdir(dir.c_str());
  }
  return 0;
}

} // namespace fbc::rt::containers
