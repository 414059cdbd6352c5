// One container service: see container_service.h.
#include "runtime/containers/container_service.h"

#include "ir/json_writer.h"
#include "ir/quote.h"
#include "runtime/containers/pull_progress.h"
#include "runtime/os/leaf_isolation.h"
#include "runtime/os/output_capture.h"
#include "runtime/supervisor/launch_config.h"

#include <simdjson.h>
#include <sys/wait.h>

#include <string_view>

namespace fbc::rt::containers {

namespace {

// The last non-empty line of `text`, or "".
std::string lastLine(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r'))
    text.remove_suffix(1);
  size_t nl = text.rfind('\n');
  std::string_view last = nl == std::string_view::npos ? text : text.substr(nl + 1);
  while (!last.empty() && (last.front() == ' ' || last.front() == '\t'))
    last.remove_prefix(1);
  return std::string(last);
}

// The strings of a JSON array (the image config's Entrypoint or Cmd; null
// when unset).
std::vector<std::string> stringsOf(simdjson::dom::element e) {
  std::vector<std::string> out;
  simdjson::dom::array items;
  if (!e.get(items))
    for (simdjson::dom::element item : items) {
      std::string_view v;
      if (!item.get(v))
        out.emplace_back(v);
    }
  return out;
}

} // namespace

namespace {

// The services `s` depends on, transitively (each once).
std::vector<const ir::Service *> dependencies(const ir::Spec &spec, const ir::Service &s) {
  std::vector<const ir::Service *> out;
  std::vector<const ir::Service *> todo{&s};
  while (!todo.empty()) {
    const ir::Service *cur = todo.back();
    todo.pop_back();
    for (const ir::Dependency &d : cur->dependsOn)
      if (const ir::Service *dep = spec.findService(d.name);
          dep && std::find(out.begin(), out.end(), dep) == out.end()) {
        out.push_back(dep);
        todo.push_back(dep);
      }
  }
  return out;
}

} // namespace

ContainerConfig containerConfig(const ir::Spec &spec, const ir::Service &s,
                                const std::vector<std::string> &env, const std::string &dir,
                                int64_t stopGraceMs) {
  ContainerConfig c;
  c.service = s.name;
  c.image = s.image;
  if (!s.build.empty())
    c.build = s.build.front() == '/' ? s.build : dir + "/" + s.build;
  // Only the service's own env=: the discovery variables name loopback
  // addresses, which inside a container are the container's own.
  for (const std::string &kv : env) {
    std::string_view key = std::string_view(kv).substr(0, kv.find('='));
    for (const auto &[k, v] : s.env)
      if (k == key)
        c.env.push_back(kv);
  }
  c.args = s.args;
  c.user = s.user;
  for (const auto &[host, inside] : s.volumes)
    c.binds.push_back((host.front() == '/' ? host : dir + "/" + host) + ":" + inside);
  for (const ir::Interface &i : s.interfaces)
    if (i.port > 0 && i.port <= 65535)
      c.ports.emplace_back(static_cast<int>(i.port), static_cast<int>(s.addressOrLoopback(i).port));
  c.anyHostPort =
      std::any_of(s.ports.begin(), s.ports.end(), [](const auto &p) { return p.second == 0; });
  c.stopGraceMs = stopGraceMs;
  for (const ir::Service &other : spec.services)
    if (other.isContainer() && other.name != s.name)
      for (const ir::Interface &i : other.interfaces)
        c.peers[static_cast<int>(other.addressOrLoopback(i).port)] =
            other.name + ":" + std::to_string(i.port);
  for (const ir::Service *dep : dependencies(spec, s))
    if (!dep->isContainer() && !dep->isRemote())
      for (const ir::Interface &i : dep->interfaces)
        c.hostDeps.push_back(static_cast<int>(dep->addressOrLoopback(i).port));
  return c;
}

bool ContainerService::wire(std::vector<std::string> &env, std::vector<std::string> &args,
                            std::string &error) {
  relays_.clear();
  const std::string &gateway = network_->gateway();
  bool failed = false;
  auto relay = [&](int port) {
    if (failed || port <= 0 || port > 65535)
      return;
    std::string why;
    if (std::shared_ptr<HostRelay> r = network_->relayTo(static_cast<uint16_t>(port), why))
      relays_.push_back(std::move(r));
    else if (!why.empty()) {
      error = why;
      failed = true;
    }
  };
  for (int port : cfg_.hostDeps)
    relay(port);
  auto to = [&](uint16_t port) -> std::optional<std::string> {
    for (const auto &[inside, host] : cfg_.ports)
      if (host == port)
        return std::nullopt; // its own address
    if (auto it = cfg_.peers.find(port); it != cfg_.peers.end())
      return it->second;
    relay(port);
    return failed ? std::nullopt : std::optional(gateway + ":" + std::to_string(port));
  };
  env.clear();
  for (const std::string &kv : cfg_.env) {
    size_t eq = kv.find('=');
    env.push_back(kv.substr(0, eq + 1) + rewriteLoopback(std::string_view(kv).substr(eq + 1), to));
  }
  args.clear();
  for (const std::string &a : cfg_.args)
    args.push_back(rewriteLoopback(a, to));
  return !failed;
}

void demuxLogs(std::string_view stream, std::string &out, std::string &err) {
  while (stream.size() >= 8) {
    auto b = [&](size_t i) { return static_cast<unsigned char>(stream[i]); };
    size_t n = (size_t(b(4)) << 24) | (size_t(b(5)) << 16) | (size_t(b(6)) << 8) | b(7);
    std::string_view payload = stream.substr(8, n);
    (b(0) == 2 ? err : out).append(payload);
    stream.remove_prefix(std::min(stream.size(), 8 + n));
  }
}

bool ContainerService::ensureImage(std::string &error) {
  const Engine &e = run_.engine();
  // build=: the image is the one built from the context (by its content).
  if (!cfg_.build.empty() && cfg_.image.empty()) {
    cfg_.image = run_.builtImage(cfg_.service, cfg_.build, error);
    if (cfg_.image.empty())
      return false;
  }
  std::string ref = urlEncode(cfg_.image);
  EngineResponse r = e.get("/images/" + ref + "/json");
  if (r.status == 404) {
    // On a terminal fbc run shows the pull's progress (pull_progress.h).
    PullListener listener = pullListener();
    PullTracker tracker(cfg_.image);
    EngineResponse pull =
        listener ? e.stream("POST", "/images/create?fromImage=" + ref,
                            [&](std::string_view line) {
                              tracker.line(line);
                              listener(tracker.status(), false);
                            })
                 : e.call("POST", "/images/create?fromImage=" + ref, {}, "application/json",
                          /*timeoutMs=*/0);
    std::string why = pull.ok() ? engineStreamError(pull.body) : pull.message();
    if (!why.empty()) {
      error = "image " + ir::quote(cfg_.image) + " is not present and pulling it failed: " + why;
      return false;
    }
    if (listener)
      listener(tracker.status(), true);
    r = e.get("/images/" + ref + "/json");
  }
  if (!r.ok()) {
    error = "image " + ir::quote(cfg_.image) + ": " + r.message();
    return false;
  }
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (parser.parse(r.body).get(doc)) {
    error = "image " + ir::quote(cfg_.image) + ": the engine's description is not JSON";
    return false;
  }
  std::string_view id;
  if (!doc["Id"].get(id)) {
    imageId_ = std::string(id);
    run_.recordImage(cfg_.image, imageId_);
  }
  entrypoint_ = stringsOf(doc["Config"]["Entrypoint"]);
  cmd_ = stringsOf(doc["Config"]["Cmd"]);
  return true;
}

bool ContainerService::prepareShim(const std::string &name, std::string &error) {
  shim_.reset();
  if (filter_.empty())
    return true;
  if (entrypoint_.empty() && cmd_.empty() && cfg_.args.empty()) {
    error = "image " + ir::quote(cfg_.image) +
            " has neither ENTRYPOINT nor CMD: fbc-shim has nothing to run";
    return false;
  }
  shimBinary_ = shimBinary(error);
  std::string dir = shimBinary_.empty() ? "" : run_.shimDir(error);
  if (dir.empty())
    return false;
  shim_ = ShimSocket::listen(dir + "/" + name + ".sock", error);
  return shim_ != nullptr;
}

int ContainerService::takeListener() {
  int fd = listener_;
  listener_ = -1;
  return fd;
}

std::string ContainerService::createBody() const {
  const std::string &network = network_->name();
  std::string body;
  ir::JsonWriter w(body);
  w.beginObject().field("Image", cfg_.image);
  w.key("Env").beginArray();
  for (const std::string &kv : env_)
    w.value(kv);
  w.endArray();
  if (shim_) {
    // fbc-shim runs the image's own program: ENTRYPOINT, then args= or CMD.
    w.key("Entrypoint").beginArray().value(kShimPath).endArray();
    w.key("Cmd").beginArray();
    for (const std::string &a : entrypoint_)
      w.value(a);
    for (const std::string &a : args_.empty() ? cmd_ : args_)
      w.value(a);
    w.endArray();
  } else if (!args_.empty()) {
    w.key("Cmd").beginArray();
    for (const std::string &a : args_)
      w.value(a);
    w.endArray();
  }
  if (!cfg_.user.empty())
    w.field("User", cfg_.user);
  w.key("Labels").beginObject();
  for (const auto &[k, v] : run_.labels())
    w.field(k, v);
  w.field("fbc.service", cfg_.service).endObject();
  w.key("ExposedPorts").beginObject();
  for (const auto &[inside, host] : cfg_.ports)
    w.key(std::to_string(inside) + "/tcp").beginObject().endObject();
  w.endObject();
  w.key("HostConfig").beginObject();
  // A leaf's own namespace reaches the container through ingress relays:
  // nothing is published on the host, so leaves at once never collide.
  w.key("PortBindings").beginObject();
  for (const auto &[inside, host] : cfg_.ports) {
    if (leaf_)
      break;
    w.key(std::to_string(inside) + "/tcp").beginArray().beginObject();
    w.field("HostIp", "127.0.0.1").field("HostPort", std::to_string(host));
    w.endObject().endArray();
  }
  w.endObject();
  w.key("Binds").beginArray();
  for (const std::string &b : cfg_.binds)
    w.value(b);
  if (shim_) {
    w.value(shimBinary_ + ":" + kShimPath + ":ro");
    w.value(shim_->path() + ":" + kShimSocketPath);
  }
  w.endArray();
  // The engine's own seccomp profile may refuse what fbc-shim does
  // (seccomp with a listener, pidfd_getfd); fbc's filter is the one that
  // matters for the test.
  if (shim_)
    w.key("SecurityOpt").beginArray().value("seccomp=unconfined").endArray();
  // The engine's hard limits: its defaults may exceed them, and the
  // container then fails in setrlimit (engine.h).
  const EngineHost::Limits &l = run_.host().limits();
  w.key("Ulimits").beginArray();
  for (auto [name, value] : {std::pair{"nofile", l.nofile}, std::pair{"nproc", l.nproc}})
    if (value)
      w.beginObject()
          .field("Name", name)
          .field("Soft", uint64_t(value))
          .field("Hard", uint64_t(value))
          .endObject();
  w.endArray();
  w.field("NetworkMode", network);
  // The host as Podman names it on every engine (Docker has no such name).
  w.key("ExtraHosts").beginArray().value("host.containers.internal:" + network_->gateway());
  w.endArray();
  w.endObject();
  w.key("NetworkingConfig").beginObject().key("EndpointsConfig").beginObject();
  w.key(network).beginObject().key("Aliases").beginArray().value(cfg_.service).endArray();
  w.endObject().endObject().endObject();
  w.endObject();
  return body;
}

bool ContainerService::start(std::string &error) {
  leaf_ = inLeafNetns();
  if (cfg_.anyHostPort && !leaf_) {
    error = "ports= host port 0 is reachable only from a leaf's own network namespace (fbc run "
            "as root, without --host-network); name the host port";
    return false;
  }
  if (!ensureImage(error))
    return false;
  if (!(network_ = run_.joinNetwork(error)))
    return false;
  const Engine &e = run_.engine();
  std::string name = run_.containerName(cfg_.service);
  if (!wire(env_, args_, error) || !prepareShim(name, error)) {
    relays_.clear();
    network_.reset();
    return false;
  }
  EngineResponse r = e.call("POST", "/containers/create?name=" + urlEncode(name), createBody());
  if (!r.ok()) {
    error = "creating its container failed: " + r.message();
    relays_.clear();
    network_.reset();
    return false;
  }
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  std::string_view id;
  if (parser.parse(r.body).get(doc) || doc["Id"].get(id)) {
    error = "creating its container failed: no Id in " + r.body;
    return false;
  }
  {
    std::lock_guard lock(mu_);
    id_ = std::string(id);
    exit_.reset();
    ownEnd_.reset();
    endedNoted_ = false;
    stdout_.clear();
    stderr_.clear();
    handedOut_ = handedErr_ = 0;
  }
  r = e.call("POST", "/containers/" + id_ + "/start");
  if (!r.ok()) {
    error = "starting its container failed: " + r.message();
    stop();
    return false;
  }
  if (shim_) {
    listener_ = shim_->handOff(
        filter_, [this] { return exited(); }, 60000, error);
    shim_.reset();
    if (listener_ < 0) {
      stop();
      return false;
    }
  }
  if (leaf_ && !openIngress(error)) {
    stop();
    return false;
  }
  return true;
}

bool ContainerService::openIngress(std::string &error) {
  EngineResponse r = run_.engine().get("/containers/" + id_ + "/json");
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  std::string_view ip;
  int64_t pid = 0;
  if (r.ok() && !parser.parse(r.body).get(doc) && !doc["State"]["Pid"].get(pid) && pid <= 0)
    return true; // it ended already: nothing to relay to, and exited() says how
  if (!r.ok() || pid <= 0 ||
      doc["NetworkSettings"]["Networks"][network_->name()]["IPAddress"].get(ip) || ip.empty()) {
    error = "its container has no address on network " + network_->name() + ": " + r.message();
    return false;
  }
  for (const auto &[inside, at] : cfg_.ports) {
    RelayEnds ends{"127.0.0.1",          static_cast<uint16_t>(at),     -1,
                   std::string(ip),      static_cast<uint16_t>(inside), hostNetnsFd(),
                   static_cast<int>(pid)};
    std::unique_ptr<HostRelay> relay = HostRelay::open(ends, error);
    if (!relay)
      return false;
    ingress_.push_back(std::move(relay));
  }
  return true;
}

std::optional<std::string> ContainerService::exited() {
  std::lock_guard lock(mu_);
  if (id_.empty()) // stopped: how it ended, if on its own
    return ownEnd_ ? ownEnd_ : exit_;
  if (exit_)
    return exit_;
  // The healthcheck loop asks every few milliseconds; the engine need not.
  auto now = std::chrono::steady_clock::now();
  if (now - lastCheck_ < std::chrono::milliseconds(50))
    return std::nullopt;
  lastCheck_ = now;
  EngineResponse r = run_.engine().get("/containers/" + id_ + "/json");
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  std::string_view status;
  int64_t code = 0;
  if (!r.ok() || parser.parse(r.body).get(doc) || doc["State"]["Status"].get(status) ||
      doc["State"]["ExitCode"].get(code))
    return std::nullopt;
  if (status != "exited" && status != "dead")
    return std::nullopt;
  std::string what = describeExit(CLD_EXITED, static_cast<int>(code));
  EngineResponse logs = run_.engine().get("/containers/" + id_ + "/logs?stdout=1&stderr=1");
  std::string out, err;
  demuxLogs(logs.body, out, err);
  std::string last = lastLine(err.empty() ? out : err);
  exit_ = last.empty() ? what : what + "; last log line: " + last;
  return exit_;
}

std::optional<std::string> ContainerService::exitedNow() {
  {
    std::lock_guard lock(mu_);
    lastCheck_ = {};
  }
  return exited();
}

void ContainerService::newOutput(std::string &out, std::string &err) {
  std::lock_guard lock(mu_);
  std::string allOut, allErr;
  if (id_.empty()) { // stopped: its logs as fetched then
    allOut = stdout_;
    allErr = stderr_;
  } else {
    EngineResponse logs = run_.engine().get("/containers/" + id_ + "/logs?stdout=1&stderr=1");
    demuxLogs(logs.body, allOut, allErr);
  }
  // What was handed over before is a prefix of the logs (a start begins
  // them anew: handedOut_ is reset there).
  out = allOut.size() > handedOut_ ? allOut.substr(handedOut_) : "";
  err = allErr.size() > handedErr_ ? allErr.substr(handedErr_) : "";
  handedOut_ = std::max(handedOut_, allOut.size());
  handedErr_ = std::max(handedErr_, allErr.size());
}

void ContainerService::fetchLogs() {
  EngineResponse logs = run_.engine().get("/containers/" + id_ + "/logs?stdout=1&stderr=1");
  stdout_.clear();
  stderr_.clear();
  demuxLogs(logs.body, stdout_, stderr_);
}

std::optional<std::string> ContainerService::endedOnItsOwn(bool evenRunning) const {
  EngineResponse r = run_.engine().get("/containers/" + id_ + "/json");
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  std::string_view status;
  int64_t code = 0;
  if (!r.ok() || parser.parse(r.body).get(doc) || doc["State"]["Status"].get(status) ||
      doc["State"]["ExitCode"].get(code) ||
      (!evenRunning && status != "exited" && status != "dead"))
    return std::nullopt;
  return describeExit(CLD_EXITED, static_cast<int>(code));
}

void ContainerService::stop() {
  std::lock_guard lock(mu_);
  if (id_.empty())
    return;
  const Engine &e = run_.engine();
  // A container that ended before fbc stopped it died on its own: its
  // service_stopped says so as a dying binary's does (unexpected, with the
  // last lines of its logs).
  ownEnd_ = endedOnItsOwn(false);
  long graceS = (cfg_.stopGraceMs + 999) / 1000;
  if (!ownEnd_)
    e.call("POST", "/containers/" + id_ + "/stop?t=" + std::to_string(graceS));
  // The engine learns of an exit late (its monitor's cleanup runs after
  // the service's clients saw it): one the supervisor saw (noteEnded()) is
  // the container's own, with the status the stop leaves.
  if (!ownEnd_ && endedNoted_)
    ownEnd_ = endedOnItsOwn(true);
  fetchLogs();
  e.call("DELETE", "/containers/" + id_ + "?force=1&v=1");
  id_.clear();
  ingress_.clear();
  relays_.clear();
  network_.reset(); // after its relays: the network may go back to the pool
}

std::vector<std::pair<std::string, std::string>> ContainerService::startedFields() const {
  return {{"image", cfg_.image}};
}

std::vector<std::pair<std::string, std::string>> ContainerService::stoppedFields() const {
  std::lock_guard lock(mu_);
  if (!ownEnd_)
    return {{"exit", exit_ ? *exit_ : "stopped"}};
  std::vector<std::pair<std::string, std::string>> fields = {{"exit", *ownEnd_},
                                                             {"unexpected", "true"}};
  for (const auto &[name, text] : {std::pair{"stdout", &stdout_}, {"stderr", &stderr_}})
    if (std::string tail = OutputCapture::lastLinesOf(*text, OutputCapture::kTailLines);
        !tail.empty())
      fields.emplace_back(name, std::move(tail));
  return fields;
}

std::string ContainerService::stdoutText() const {
  std::lock_guard lock(mu_);
  return stdout_;
}

std::string ContainerService::stderrText() const {
  std::lock_guard lock(mu_);
  return stderr_;
}

} // namespace fbc::rt::containers

namespace fbc::rt {

namespace {

// Where no engine could be had (the check that opened the run said so
// already; this only keeps the start honest).
class NoEngine final : public InProcessService {
public:
  explicit NoEngine(std::string why) : why_(std::move(why)) {}
  bool start(std::string &error) override {
    error = why_;
    return false;
  }
  void stop() override {}
  std::vector<std::pair<std::string, std::string>> startedFields() const override { return {}; }

private:
  std::string why_;
};

} // namespace

ServiceSpec containerServiceSpec(const ir::Spec &spec, const ir::Service &s, const std::string &dir,
                                 std::vector<int> trapped,
                                 const std::vector<ProxyEndpoint> &proxies,
                                 const std::string &scratch, int64_t stopGraceMs) {
  ServiceSpec launched = launchConfig(spec, s, dir, {}, proxies, scratch);
  ServiceSpec out;
  out.name = s.name;
  // seccomp=False: no shim, no filter (proxy faults still apply).
  if (s.seccomp)
    out.launch.trapped = std::move(trapped);
  out.health = launched.health;
  out.observe = s.observe; // its logs' lines (supervisor/in_process_logs.h)
  out.ports = launched.ports;
  for (const ir::Interface &i : s.interfaces)
    if (i.port > 0 && i.port <= 65535)
      out.networkPorts.push_back(static_cast<uint16_t>(i.port));
  out.proxyPorts = launched.proxyPorts;
  std::string why;
  if (containers::ContainerRun *run = containers::sharedRun(why))
    out.inProcess = std::make_shared<containers::ContainerService>(
        *run, containers::containerConfig(spec, s, launched.launch.env, dir, stopGraceMs));
  else
    out.inProcess = std::make_shared<NoEngine>(why);
  return out;
}

} // namespace fbc::rt
