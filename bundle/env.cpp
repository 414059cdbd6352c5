#include "bundle/env.h"

#include "ir/json_writer.h"

#include <archive.h>
#include <seccomp.h>
#include <simdjson.h>
#include <sys/utsname.h>

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
  w.endObject();
  out += '\n';
  return out;
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
  return e;
}

} // namespace fbc::bundle
