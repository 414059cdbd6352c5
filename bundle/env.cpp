#include "bundle/env.h"

#include "ir/json_writer.h"

#include <archive.h>
#include <seccomp.h>
#include <simdjson.h>
#include <sys/utsname.h>

#include <algorithm>

namespace fbc::bundle {

Env currentEnv(const std::string &fbcVersion, const std::string &fbcCommit) {
  Env e;
  struct utsname u {};
  if (uname(&u) == 0) {
    e.os = u.sysname;
    e.arch = u.machine;
    e.kernel = u.release;
  }
  e.fbcVersion = fbcVersion;
  e.fbcCommit = fbcCommit;
  // The library actually loaded, not the headers built against.
  if (const scmp_version *v = seccomp_version())
    e.libseccompVersion =
        std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->micro);
  int a = archive_version_number(); // MMMmmmrrr
  e.libarchiveVersion = std::to_string(a / 1000000) + "." + std::to_string(a / 1000 % 1000) + "." +
                        std::to_string(a % 1000);
  return e;
}

std::string formatEnvJson(const Env &e) {
  std::string out;
  ir::JsonWriter w(out, 2);
  w.beginObject();
  w.field("os", e.os);
  w.field("arch", e.arch);
  w.field("kernel", e.kernel);
  w.field("fbc_version", e.fbcVersion);
  w.field("fbc_commit", e.fbcCommit);
  w.field("libseccomp_version", e.libseccompVersion);
  w.field("libarchive_version", e.libarchiveVersion);
  if (!e.remotes.empty()) {
    w.key("remotes");
    w.beginArray();
    for (const EnvRemote &r : e.remotes) {
      w.beginObject();
      w.field("service", r.service);
      w.field("interface", r.interface);
      w.field("host", r.host);
      w.field("protocol", r.protocol);
      w.endObject();
    }
    w.endArray();
  }
  if (!e.images.empty()) {
    w.key("images");
    w.beginArray();
    for (const EnvImage &i : e.images) {
      w.beginObject();
      w.field("image", i.image);
      w.field("id", i.id);
      w.endObject();
    }
    w.endArray();
  }
  w.endObject();
  out += '\n';
  return out;
}

std::string replayImageWarning(const EnvImage &then, const std::string &now) {
  std::string was = "image \"" + then.image + "\" ";
  return now.empty() ? "warning: " + was + "is not on the engine now (the run used " + then.id +
                           "): the replay pulls whatever the name gives now\n"
                     : "warning: " + was + "now resolves to " + now + " (the run used " + then.id +
                           "): the replay runs another image under the same name\n";
}

llvm::Expected<Env> parseEnv(std::string_view json) {
  auto fail = [](const std::string &m) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "env.json: " + m);
  };
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (auto err = parser.parse(json.data(), json.size()).get(root))
    return fail(std::string("not valid JSON: ") + simdjson::error_message(err));
  simdjson::dom::object o;
  if (root.get(o))
    return fail("not a JSON object");
  Env e;
  struct Field {
    const char *key;
    std::string *out;
  } fields[] = {{"os", &e.os},
                {"arch", &e.arch},
                {"kernel", &e.kernel},
                {"fbc_version", &e.fbcVersion},
                {"fbc_commit", &e.fbcCommit},
                {"libseccomp_version", &e.libseccompVersion},
                {"libarchive_version", &e.libarchiveVersion},
                // The reference tool's names for the same facts.
                {"host_os", &e.os},
                {"host_arch", &e.arch},
                {"faultbox_version", &e.fbcVersion},
                {"faultbox_commit", &e.fbcCommit}};
  for (const Field &f : fields) {
    simdjson::dom::element v;
    if (o[f.key].get(v))
      continue;
    std::string_view s;
    if (v.get(s))
      return fail(std::string("\"") + f.key + "\" is not a string");
    *f.out = std::string(s);
  }
  simdjson::dom::element remotes;
  if (!o["remotes"].get(remotes)) {
    simdjson::dom::array list;
    if (remotes.get(list))
      return fail("\"remotes\" is not a list");
    for (simdjson::dom::element item : list) {
      EnvRemote r;
      for (auto [key, out] : {std::pair<const char *, std::string *>{"service", &r.service},
                              {"interface", &r.interface},
                              {"host", &r.host},
                              {"protocol", &r.protocol}}) {
        std::string_view s;
        if (item[key].get(s))
          return fail(std::string("\"remotes\" entries need a string \"") + key + "\"");
        *out = std::string(s);
      }
      e.remotes.push_back(std::move(r));
    }
  }
  simdjson::dom::element images;
  if (!o["images"].get(images)) {
    simdjson::dom::array list;
    if (images.get(list))
      return fail("\"images\" is not a list");
    for (simdjson::dom::element item : list) {
      EnvImage i;
      for (auto [key, out] :
           {std::pair<const char *, std::string *>{"image", &i.image}, {"id", &i.id}}) {
        std::string_view s;
        if (item[key].get(s))
          return fail(std::string("\"images\" entries need a string \"") + key + "\"");
        *out = std::string(s);
      }
      e.images.push_back(std::move(i));
    }
  }
  return e;
}

std::vector<EnvRemote> envRemotes(const ir::Spec &spec) {
  std::vector<EnvRemote> out;
  for (const ir::Service &s : spec.services) {
    if (!s.isRemote())
      continue;
    size_t first = out.size();
    for (const ir::Interface &i : s.interfaces)
      if (std::optional<ir::Address> at = s.address(i))
        out.push_back({s.name, i.name, at->spelled(), i.protocol});
    std::sort(out.begin() + ptrdiff_t(first), out.end(),
              [](const EnvRemote &a, const EnvRemote &b) { return a.interface < b.interface; });
  }
  return out;
}

std::string replayRemotesWarning(const std::vector<EnvRemote> &remotes) {
  if (remotes.empty())
    return "";
  std::string out = "warning: this bundle's run used " + std::to_string(remotes.size()) +
                    " remote service interface(s); replay re-dials them, and what they answer "
                    "now may differ from what they answered then:\n";
  for (const EnvRemote &r : remotes)
    out += "  - " + r.service + "." + r.interface + " -> " + r.host + " (" + r.protocol + ")\n";
  return out;
}

} // namespace fbc::bundle
