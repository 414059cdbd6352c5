// `fbc init`: see compose_init.h.
#include "backend/compose_init.h"

#include "ir/protocols.h"

#include "ir/quote.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <vector>

namespace fbc::backend {

namespace {

llvm::Error fail(const std::string &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", msg.c_str());
}

// Well-known services: an image name fragment, its protocol and port.
// The protocol the table's guesses give an image serving `port`: the
// protocol whose well-known port it is, else the one its image names, else
// one commonly served there; tcp when none does.
std::string protocolFor(const std::string &image, int port) {
  for (const ir::Protocol &p : ir::protocols())
    if (p.defaultPort == port)
      return std::string(p.name);
  for (const ir::Protocol &p : ir::protocols())
    for (std::string_view fragment : p.images)
      if (image.find(fragment) != std::string::npos)
        return std::string(p.name);
  for (const ir::Protocol &p : ir::protocols())
    if (std::find(p.commonPorts.begin(), p.commonPorts.end(), port) != p.commonPorts.end())
      return std::string(p.name);
  return "tcp";
}

// The well-known port of the protocol an image names, if any.
std::optional<int> knownPort(const std::string &image) {
  for (const ir::Protocol &p : ir::protocols())
    for (std::string_view fragment : p.images)
      if (p.defaultPort && image.find(fragment) != std::string::npos)
        return p.defaultPort;
  return std::nullopt;
}

std::string identifier(const std::string &name) {
  std::string out;
  for (char c : name)
    out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0])))
    out = "svc_" + out;
  return out;
}

struct Port {
  int container = 0;
  std::optional<int> host;
};

std::optional<int> number(const std::string &s) {
  if (s.empty() || s.size() > 5 || !std::all_of(s.begin(), s.end(), ::isdigit))
    return std::nullopt;
  return std::stoi(s);
}

// "8080:80", "127.0.0.1:8080:80", "80", "8080:80/tcp", 80, {target, published}.
std::optional<Port> parsePort(const YAML::Node &n) {
  Port p;
  if (n.IsMap()) {
    auto target = n["target"] ? number(n["target"].as<std::string>()) : std::nullopt;
    if (!target)
      return std::nullopt;
    p.container = *target;
    if (n["published"])
      p.host = number(n["published"].as<std::string>());
    return p;
  }
  if (!n.IsScalar())
    return std::nullopt;
  std::string s = n.as<std::string>();
  if (size_t slash = s.find('/'); slash != std::string::npos)
    s.resize(slash);
  std::vector<std::string> parts;
  for (size_t at = 0;;) {
    size_t colon = s.find(':', at);
    parts.push_back(s.substr(at, colon == std::string::npos ? std::string::npos : colon - at));
    if (colon == std::string::npos)
      break;
    at = colon + 1;
  }
  auto c = number(parts.back());
  if (!c)
    return std::nullopt;
  p.container = *c;
  if (parts.size() >= 2)
    p.host = number(parts[parts.size() - 2]);
  return p;
}

struct ComposeService {
  std::string name, var;
  std::string image, build;
  std::vector<Port> ports;
  std::vector<std::pair<std::string, std::string>> env;
  std::vector<std::string> dependsOn;
  std::string healthTest; // the Compose healthcheck's test, as written
};

std::string scalarOrJoined(const YAML::Node &n) {
  if (n.IsScalar())
    return n.as<std::string>();
  std::string out;
  if (n.IsSequence())
    for (const YAML::Node &x : n) {
      out += out.empty() ? "" : " ";
      out += x.IsScalar() ? x.as<std::string>() : std::string("?");
    }
  return out;
}

llvm::Expected<ComposeService> readService(const std::string &name, const YAML::Node &n) {
  ComposeService s;
  s.name = name;
  s.var = identifier(name);
  if (!n.IsMap())
    return fail("service \"" + name + "\" is not a mapping");
  if (n["image"])
    s.image = n["image"].as<std::string>();
  if (const YAML::Node b = n["build"])
    s.build = b.IsMap() && b["context"] ? b["context"].as<std::string>() : scalarOrJoined(b);
  if (s.image.empty() && s.build.empty())
    return fail("service \"" + name + "\" has neither image: nor build:");
  for (const char *key : {"ports", "expose"})
    if (const YAML::Node ports = n[key]; ports && ports.IsSequence())
      for (const YAML::Node &p : ports)
        if (std::optional<Port> port = parsePort(p)) {
          if (std::string(key) == "expose")
            port->host.reset();
          bool dup = std::any_of(s.ports.begin(), s.ports.end(),
                                 [&](const Port &q) { return q.container == port->container; });
          if (!dup)
            s.ports.push_back(*port);
        }
  if (s.ports.empty())
    if (std::optional<int> port = knownPort(s.image.empty() ? name : s.image))
      s.ports.push_back({*port, std::nullopt});
  if (const YAML::Node env = n["environment"]) {
    if (env.IsMap()) {
      for (const auto &kv : env)
        s.env.emplace_back(kv.first.as<std::string>(),
                           kv.second.IsNull() ? "" : kv.second.as<std::string>());
    } else if (env.IsSequence()) {
      for (const YAML::Node &e : env) {
        std::string text = e.as<std::string>();
        size_t eq = text.find('=');
        s.env.emplace_back(text.substr(0, eq), eq == std::string::npos ? "" : text.substr(eq + 1));
      }
    }
  }
  if (const YAML::Node deps = n["depends_on"]) {
    if (deps.IsSequence())
      for (const YAML::Node &d : deps)
        s.dependsOn.push_back(d.as<std::string>());
    else if (deps.IsMap())
      for (const auto &kv : deps)
        s.dependsOn.push_back(kv.first.as<std::string>());
  }
  if (const YAML::Node h = n["healthcheck"]; h && h.IsMap() && h["test"])
    s.healthTest = scalarOrJoined(h["test"]);
  return s;
}

// Dependencies first; the Compose order otherwise.
llvm::Expected<std::vector<const ComposeService *>>
dependencyOrder(const std::vector<ComposeService> &all) {
  std::map<std::string, const ComposeService *> byName;
  for (const ComposeService &s : all)
    byName[s.name] = &s;
  std::vector<const ComposeService *> out;
  std::set<std::string> done, visiting;
  std::function<llvm::Error(const ComposeService &)> visit =
      [&](const ComposeService &s) -> llvm::Error {
    if (done.count(s.name))
      return llvm::Error::success();
    if (!visiting.insert(s.name).second)
      return fail("depends_on cycle through service \"" + s.name + "\"");
    for (const std::string &d : s.dependsOn) {
      auto it = byName.find(d);
      if (it == byName.end())
        return fail("service \"" + s.name + "\" depends on \"" + d + "\", which is not defined");
      if (llvm::Error e = visit(*it->second))
        return e;
    }
    done.insert(s.name);
    out.push_back(&s);
    return llvm::Error::success();
  };
  for (const ComposeService &s : all)
    if (llvm::Error e = visit(s))
      return e;
  return out;
}

std::string interfaceName(const ComposeService &s, size_t i) {
  return i == 0 ? "main" : std::string("port") + std::to_string(s.ports[i].container);
}

void writeService(const ComposeService &s, std::string &out) {
  out += s.var + std::string(" = service(\n    ") + ir::quote(s.name) + ",\n";
  std::string source = s.image.empty() ? s.build : s.image;
  for (size_t i = 0; i < s.ports.size(); ++i) {
    std::string proto = protocolFor(source, s.ports[i].container);
    out += std::string("    interface(") + ir::quote(interfaceName(s, i)) + std::string(", ") +
           ir::quote(proto) + ", " + std::to_string(s.ports[i].container) + "),\n";
  }
  if (!s.image.empty())
    out += std::string("    image = ") + ir::quote(s.image) + ",\n";
  else
    out += std::string("    build = ") + ir::quote(s.build) + ",\n";
  std::string ports;
  for (const Port &p : s.ports)
    if (p.host) {
      ports += ports.empty() ? "" : ", ";
      ports += std::to_string(p.container) + ": " + std::to_string(*p.host);
    }
  if (!ports.empty())
    out += "    ports = {" + ports + "},\n";
  if (!s.env.empty()) {
    out += "    env = {\n";
    for (const auto &[k, v] : s.env)
      out += std::string("        ") + ir::quote(k) + std::string(": ") + ir::quote(v) + ",\n";
    out += "    },\n";
  }
  if (!s.dependsOn.empty()) {
    out += "    depends_on = [";
    for (size_t i = 0; i < s.dependsOn.size(); ++i) {
      out += i ? ", " : "";
      out += identifier(s.dependsOn[i]);
    }
    out += "],\n";
  }
  if (!s.ports.empty()) {
    const Port &p = s.ports.front();
    int port = p.host.value_or(p.container);
    if (!s.healthTest.empty())
      out += "    # Compose healthcheck: " + s.healthTest + "\n";
    out += std::string("    healthcheck = tcp(") +
           ir::quote(std::string("localhost:") + std::to_string(port)) + "),\n";
  }
  out += ")\n\n";
}

} // namespace

std::string starterSpec() {
  return R"(# A starter fbc spec: one service, one test, one fault test.
# fbc check spec.star     find mistakes without running anything
# fbc plan spec.star      what the tests will cost
# fbc run spec.star       run them against the real service

api = service(
    "api",
    "./bin/api",  # the binary, relative to this file
    interface("main", "http", 8080),
    healthcheck = http("localhost:8080/health"),
)

def get_home():
    return api.main.get(path = "/")

# The positive control: no fault, the service answers.
def test_home():
    assert_eq(get_home().status, 200)

# The same scenario while every write() of the api fails with EIO.
def test_home_write_eio():
    r = fault(api, write = deny("EIO"), run = get_home)
    assert_true(r.status >= 500)
)";
}

llvm::Expected<std::string> specFromCompose(const std::string &path, const std::string &yaml) {
  YAML::Node root;
  try {
    root = YAML::Load(yaml);
  } catch (const YAML::Exception &e) {
    return fail(path + std::string(":") + std::to_string(e.mark.line + 1) + ":" +
                std::to_string(e.mark.column + 1) + ": " + e.msg);
  }
  const YAML::Node services = root.IsMap() ? root["services"] : YAML::Node();
  if (!services || !services.IsMap() || services.size() == 0)
    return fail(path + ": no services: mapping");
  std::vector<ComposeService> all;
  try {
    for (const auto &kv : services) {
      llvm::Expected<ComposeService> s = readService(kv.first.as<std::string>(), kv.second);
      if (!s)
        return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: %s", path.c_str(),
                                       llvm::toString(s.takeError()).c_str());
      all.push_back(std::move(*s));
    }
  } catch (const YAML::Exception &e) {
    return fail(path + ": " + e.msg);
  }
  llvm::Expected<std::vector<const ComposeService *>> order = dependencyOrder(all);
  if (!order)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: %s", path.c_str(),
                                   llvm::toString(order.takeError()).c_str());
  std::string out = "# Generated by `fbc init --from-compose " + path +
                    "`: one service per Compose service,\n# interface protocols guessed from "
                    "ports and images. Review it, then:\n#   fbc check spec.star && fbc plan "
                    "spec.star --coverage\n\n";
  for (const ComposeService *s : *order)
    writeService(*s, out);
  // A smoke test per service with a published http interface.
  for (const ComposeService *s : *order) {
    if (s->ports.empty() || !s->ports.front().host)
      continue;
    std::string source = s->image.empty() ? s->build : s->image;
    // The stub calls .main.get(path = "/"): only where the protocol has it.
    const ir::StepMethod *get =
        ir::findStepMethod(protocolFor(source, s->ports.front().container), "get");
    if (!get || std::none_of(get->keywords.begin(), get->keywords.end(),
                             [](const ir::StepKeyword &k) { return k.name == "path"; }))
      continue;
    out += "def test_" + s->var + "_answers():\n    assert_eq(" + s->var +
           ".main.get(path = \"/\").status, 200)\n\n";
  }
  // One fault stub per dependency edge.
  for (const ComposeService *s : *order)
    for (const std::string &dep : s->dependsOn) {
      std::string d = identifier(dep);
      out += "# Edge " + s->name + " -> " + dep + ": what should " + s->name + " do when " + dep +
             " refuses connections?\n";
      out += "# " + d + "_down = fault_assumption(\"" + d + "_down\", target = " + d +
             ", connect = deny(\"ECONNREFUSED\"))\n";
      out += "# fault_scenario(\"" + s->var + "_" + d + "_down\", scenario = <a " + s->name +
             " scenario>, faults = [" + d +
             "_down],\n#                expect = lambda r: "
             "<what " +
             s->name + " should answer>)\n\n";
    }
  while (out.size() >= 2 && out.ends_with("\n\n"))
    out.pop_back();
  return out;
}

} // namespace fbc::backend
