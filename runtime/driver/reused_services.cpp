// service(reuse=True, seed=, reset=): the stage a spec with reused
// services runs its tests on (executor.h), which of them a test starts, and
// the seed= / reset= functions it runs before its body.
//
// A reused service is started by the first test that needs it and kept
// running until the end of the run; its trap set is the union of every
// test's for it (the filter is fixed at launch), while rules stay scoped to
// the test that installs them. seed= runs once after a start (the first,
// and every restart), reset= before every later test. A reused service
// found dead, or not answering its healthcheck, when a test begins is
// started afresh and seeded again, with a service_recreated event saying
// why. A service without reuse=True starts fresh every test and runs its
// seed= after every start (reset= never runs for it).
#include "frontend/eval/thread.h"
#include "frontend/lib/ops.h"
#include "ir/quote.h"
#include "runtime/driver/reuse_stage.h"
#include "runtime/os/leaf_isolation.h"
#include "runtime/proxy/proxy.h"
#include "runtime/supervisor/launch_config.h"
#include "runtime/supervisor/supervisor.h"

#include <algorithm>

namespace fbc::rt {

bool Executor::reusesServices() const {
  const auto &services = loaded_.spec().services;
  return std::any_of(services.begin(), services.end(),
                     [](const ir::Service &s) { return s.reuse; });
}

bool Executor::reusedSpec(size_t i) const {
  return stage_ && i < stage_->reused.size() && stage_->reused[i];
}

Executor::Stage *Executor::openStage(const SupervisorOptions &so, std::string &error) {
  if (stage_)
    return stage_.get();
  const ir::Spec &spec = loaded_.spec();
  size_t n = spec.services.size();
  auto stage = std::make_unique<Stage>();
  std::vector<std::string> users;
  for (const ir::Service &s : spec.services)
    users.push_back(s.user);
  stage->scratch = ScratchDir::make(error);
  if (!stage->scratch || !stage->scratch->handTo(users, error))
    return nullptr;
  stage->sup = std::make_unique<Supervisor>(so);
  stage->hub = std::make_unique<ProxyHub>(stage->sup->trace());
  stage->hub->rules().setSeed(cfg_.seed);
  stage->reused.assign(n, false);
  stage->traps.assign(n, {});
  stage->started.assign(n, false);
  stage->seeded.assign(n, false);
  for (size_t i = 0; i < n; ++i)
    stage->reused[i] = spec.services[i].reuse;
  // Proxies in front of every interface some test's protocol rules target,
  // and the reused services' traps over every test (and every option a
  // leaf's choose() may pick).
  std::vector<std::vector<std::string>> proxies(n);
  for (const ir::LeafTest &lt : cfg_.leaves->tests) {
    for (size_t i = 0; i < n && i < lt.proxies.size(); ++i)
      proxies[i].insert(proxies[i].end(), lt.proxies[i].begin(), lt.proxies[i].end());
    for (size_t i = 0; i < n && i < lt.traps.size(); ++i)
      stage->traps[i].insert(stage->traps[i].end(), lt.traps[i].begin(), lt.traps[i].end());
    for (const ir::LeafTest::OptionTraps &o : lt.optionTraps)
      if (o.service < n)
        stage->traps[o.service].insert(stage->traps[o.service].end(), o.syscalls.begin(),
                                       o.syscalls.end());
  }
  for (size_t i = 0; i < n; ++i) {
    for (auto *v : {&stage->traps[i]}) {
      std::sort(v->begin(), v->end());
      v->erase(std::unique(v->begin(), v->end()), v->end());
    }
    std::sort(proxies[i].begin(), proxies[i].end());
    proxies[i].erase(std::unique(proxies[i].begin(), proxies[i].end()), proxies[i].end());
    const ir::Service &svc = spec.services[i];
    for (const std::string &name : proxies[i]) {
      const ir::Interface *iface = svc.findInterface(name);
      std::optional<ir::Address> at = iface ? svc.address(*iface) : std::nullopt;
      if (!at || at->port <= 0 || at->port > 65535)
        continue;
      if (!stage->hub->add(
              proxyEndpoint(static_cast<ServiceId>(i), svc, *iface, *at, specDir(spec.path)),
              error))
        return nullptr;
    }
  }
  if (!stage->hub->endpoints().empty())
    stage->hub->start();
  stage_ = std::move(stage);
  return stage_.get();
}

std::vector<ServiceId> Executor::servicesToStart(const std::vector<ServiceId> &order) {
  std::vector<ServiceId> out;
  Supervisor &sup = *stage_->sup;
  for (ServiceId id : order) {
    if (!stage_->reused[id] || !stage_->started[id]) {
      out.push_back(id);
      continue;
    }
    bool alive = sup.runningNow(id);
    std::string unhealthy = alive ? sup.probeHealth(id) : "";
    if (alive && unhealthy.empty())
      continue;                          // still up: this test uses it as the last one left it
    alive = alive && sup.runningNow(id); // or it died while probed
    sup.stop(id);
    std::string why =
        alive ? "healthcheck failed: " + unhealthy : sup.exitDescription(id).value_or("stopped");
    sup.trace().record(EventType::ServiceRecreated, id, {{"reason", why}});
    stage_->started[id] = false;
    out.push_back(id);
  }
  return out;
}

void Executor::planHooks(const std::vector<ServiceId> &order,
                         const std::vector<ServiceId> &started) {
  hooks_.clear();
  const ir::Spec &spec = loaded_.spec();
  // In start order: a seed may use the services it depends on.
  for (ServiceId id : order) {
    const ir::Service &svc = spec.services[id];
    bool fresh = std::find(started.begin(), started.end(), id) != started.end();
    if (!reusedSpec(id)) {
      if (svc.seed && fresh)
        hooks_.push_back({id, svc.seed.get(), true});
      continue;
    }
    if (fresh) {
      stage_->started[id] = true;
      stage_->seeded[id] = false;
    }
    if (!stage_->seeded[id] && svc.seed)
      hooks_.push_back({id, svc.seed.get(), true});
    else if (stage_->seeded[id] && svc.reset)
      hooks_.push_back({id, svc.reset.get(), false});
    else
      stage_->seeded[id] = true; // no seed= to run
  }
}

bool Executor::runHooks(star::Thread &th, std::string &error) {
  for (const Hook &h : hooks_) {
    const std::string &name = loaded_.spec().services[h.service].name;
    sup_->trace().record(h.seed ? EventType::ServiceSeed : EventType::ServiceReset, h.service);
    try {
      star::call(th, h.fn->value, llvm::ArrayRef<star::Value>{});
    } catch (const star::EvalError &e) {
      error = "service " + ir::quote(name) + ": " + (h.seed ? "seed" : "reset") +
              " failed: " + e.message();
      return false;
    }
    if (h.seed && reusedSpec(h.service))
      stage_->seeded[h.service] = true;
  }
  return true;
}

} // namespace fbc::rt
