// The protocol table (ir/protocols.h) is what every layer uses: for each
// entry, the load accepts exactly its matchers, the plan accepts exactly its
// step methods (and `dir()` lists them), `--suggest` writes its stub rule
// and fault syscall, and the runtime attaches a codec when it is framed, a
// step client when it has steps, and the readiness probe it names.
#include "frontend/eval/big_stack.h"
#include "ir/load/load_spec.h"
#include "ir/mock.h"
#include "ir/protocols.h"
#include "passes/pass_manager.h"
#include "runtime/body/protocol_steps.h"
#include "runtime/clients/healthcheck.h"
#include "runtime/protocols/proxy_protocol.h"
#include "runtime/supervisor/launch_config.h"

#include <gtest/gtest.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace fbc {
namespace {

struct Loaded {
  std::unique_ptr<ir::LoadedSpec> spec;
  std::string errors; // the load's diagnostics
  ir::Plan plan;
};

Loaded load(const std::string &text) {
  std::string dir = "/tmp/fbc_protocol_table_" + std::to_string(getpid());
  mkdir(dir.c_str(), 0700);
  std::string path = dir + "/spec.star";
  std::ofstream(path) << text;
  Loaded out;
  star::runWithLargeStack([&] {
    out.spec = ir::loadSpec(path);
    llvm::raw_string_ostream os(out.errors);
    out.spec->printDiagnostics(os);
    if (out.spec->ok())
      out.plan = passes::buildPlan(out.spec->spec());
    return 0;
  });
  std::remove(path.c_str());
  rmdir(dir.c_str());
  return out;
}

constexpr std::string_view kAllMatchers[] = {"method", "path",    "query", "command",   "key",
                                             "topic",  "subject", "op",    "collection"};

rt::Healthcheck::Kind probeOf(ir::HealthcheckKind k) {
  switch (k) {
  case ir::HealthcheckKind::Http:
    return rt::Healthcheck::Kind::Http;
  case ir::HealthcheckKind::Redis:
    return rt::Healthcheck::Kind::Redis;
  case ir::HealthcheckKind::Postgres:
    return rt::Healthcheck::Kind::Postgres;
  case ir::HealthcheckKind::Kafka:
    return rt::Healthcheck::Kind::Kafka;
  case ir::HealthcheckKind::Memcached:
    return rt::Healthcheck::Kind::Memcached;
  case ir::HealthcheckKind::Mysql:
    return rt::Healthcheck::Kind::Mysql;
  case ir::HealthcheckKind::Nats:
    return rt::Healthcheck::Kind::Nats;
  case ir::HealthcheckKind::Amqp:
    return rt::Healthcheck::Kind::Amqp;
  case ir::HealthcheckKind::Grpc:
    return rt::Healthcheck::Kind::Grpc;
  case ir::HealthcheckKind::Tcp:
  case ir::HealthcheckKind::Ready:
    break;
  }
  return rt::Healthcheck::Kind::Tcp;
}

std::string service(const ir::Protocol &p) {
  return "s = service(\"s\", \"/bin/s\", interface(\"main\", \"" + std::string(p.name) +
         "\", 4000), healthcheck = ready())\n";
}

TEST(ProtocolTable, TheLoadTakesExactlyTheEntrysMatchers) {
  for (const ir::Protocol &p : ir::protocols()) {
    SCOPED_TRACE(std::string(p.name));
    for (std::string_view m : kAllMatchers) {
      Loaded l = load(service(p) + "a = fault_assumption(\"a\", target = s.main, rules = [drop(" +
                      std::string(m) + " = \"x\")])\n");
      EXPECT_EQ(l.spec->ok(), p.accepts(m)) << m << ": " << l.errors;
      if (!p.accepts(m)) {
        EXPECT_NE(l.errors.find(std::string(m) + "= matches "), std::string::npos) << l.errors;
      }
    }
  }
}

TEST(ProtocolTable, ThePlanTakesExactlyTheEntrysSteps) {
  for (const ir::Protocol &p : ir::protocols()) {
    SCOPED_TRACE(std::string(p.name));
    std::string text = service(p) + "def test_steps():\n    dir(s.main)\n";
    for (const ir::StepMethod &m : p.steps) // del is a Starlark keyword
      text += m.name == "del" ? "    getattr(s.main, \"del\")()\n"
                              : "    s.main." + std::string(m.name) + "()\n";
    text += "    s.main.not_a_step()\n";
    // What `fbc ir` binds: dir() of the interface lists the steps.
    text += "steps = [n for n in dir(s.main) if n not in ('addr', 'host', 'internal_addr', "
            "'port', 'proxy_addr', 'proxy_host', 'proxy_port')]\n";
    std::string want;
    for (const ir::StepMethod &m : p.steps)
      want.append("\"").append(m.name).append("\", ");
    text += "assume(sorted(steps) == sorted([" + want + "]))\n";
    Loaded l = load(text);
    ASSERT_TRUE(l.spec->ok()) << l.errors;
    ASSERT_EQ(l.plan.tests.size(), 1u);
    const auto &errors = l.plan.tests[0].argErrors();
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].loc.pos.line, 4 + p.steps.size());
    EXPECT_NE(errors[0].message.find("s.main.not_a_step(): "), std::string::npos);
    // The run's step client and the plan agree on who has steps.
    EXPECT_EQ(rt::findStepClient(p.name) != nullptr, !p.steps.empty());
  }
}

TEST(ProtocolTable, SuggestWritesTheEntrysStub) {
  for (const ir::Protocol &p : ir::protocols()) {
    SCOPED_TRACE(std::string(p.name));
    Loaded l = load(service(p) + "api = service(\"api\", \"/bin/api\", depends_on = [s])\n");
    ASSERT_TRUE(l.spec->ok()) << l.errors;
    ASSERT_EQ(l.plan.suggestions.size(), 1u);
    const std::string &s = l.plan.suggestions[0].text;
    EXPECT_NE(s.find("    " + std::string(p.faultSyscall) + " = deny(\"ECONNREFUSED\"),\n"),
              std::string::npos)
        << s;
    if (p.suggestRule.empty())
      EXPECT_EQ(s.find("through fbc's proxy"), std::string::npos) << s;
    else
      EXPECT_NE(s.find("rules  = [" + std::string(p.suggestRule) + "],"), std::string::npos) << s;
  }
}

TEST(ProtocolTable, TheRuntimeAttachesTheEntrysCodecAndProbe) {
  for (const ir::Protocol &p : ir::protocols()) {
    SCOPED_TRACE(std::string(p.name));
    // Framed by a codec, or by the HTTP/2 bridge (runtime/proxy/proxy_h2.h), not both.
    EXPECT_EQ(rt::findProxyProtocol(p.name) != nullptr || p.http2 != ir::Http2::None, p.framed);
    if (p.http2 != ir::Http2::None) {
      EXPECT_EQ(rt::findProxyProtocol(p.name), nullptr);
    }
    // What a rule decides is named: a framed request, or a datagram.
    EXPECT_EQ(p.framed || p.datagrams, !p.unit.empty() && !p.units.empty());
    // A datagram protocol's steps have a client (its proxy is the UDP relay).
    if (p.datagrams) {
      EXPECT_NE(rt::findStepClient(p.name), nullptr);
    }
    EXPECT_EQ(ir::isMockProtocol(p.name), p.mock != ir::MockSupport::None);
    Loaded l = load(service(p));
    ASSERT_TRUE(l.spec->ok()) << l.errors;
    rt::Healthcheck h = rt::healthcheckOf(*l.spec->spec().findService("s"), "");
    EXPECT_EQ(h.kind, probeOf(p.readiness));
  }
  // Every runtime attachment names an entry.
  for (const rt::ProxyProtocol &c : rt::proxyProtocols())
    EXPECT_NE(ir::findProtocol(c.name), nullptr) << c.name;
}

TEST(ProtocolTable, AProtocolWithoutAnEntryIsPlainTcp) {
  Loaded l = load("s = service(\"s\", \"/bin/s\", interface(\"main\", \"cassandra\", 9042), "
                  "healthcheck = ready())\n");
  ASSERT_TRUE(l.spec->ok()) << l.errors;
  EXPECT_EQ(rt::healthcheckOf(*l.spec->spec().findService("s"), "").kind,
            rt::Healthcheck::Kind::Tcp);
  EXPECT_EQ(rt::findStepClient("cassandra"), nullptr);
  EXPECT_EQ(ir::stepMethodMismatch("cassandra", "s.main", "query"),
            "s.main.query(): fbc has no step methods for \"cassandra\" interfaces");
  EXPECT_EQ(ir::stepMethodMismatch("postgres", "db.main", "querry"),
            "db.main.querry(): postgres interfaces have no step \"querry\"; postgres steps: exec, "
            "query (did you mean \"query\"?)");
}

} // namespace
} // namespace fbc
