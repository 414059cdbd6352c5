#include "bundle/integrity.h"

#include <llvm/Support/SHA256.h>
#include <simdjson.h>

#include <map>

namespace fbc::bundle {

std::string sha256Hex(std::string_view data) {
  llvm::SHA256 h;
  h.update(llvm::StringRef(data.data(), data.size()));
  llvm::StringRef raw = h.final();
  static const char digits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : raw) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

llvm::Error checkIntegrity(const Contents &c, const std::string &where) {
  auto fail = [&](const std::string &m) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), where + ": " + m);
  };
  const Entry *m = c.find("manifest.json");
  if (!m)
    return llvm::Error::success();
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  simdjson::dom::object files;
  // A manifest that does not parse is reported by whoever reads it.
  if (parser.parse(m->data.data(), m->data.size()).get(root) || root["files"].get(files))
    return llvm::Error::success();
  std::map<std::string, std::string, std::less<>> listed;
  for (auto kv : files) {
    std::string_view digest;
    if (kv.value.get(digest))
      return fail("manifest.json: \"files\" has a digest that is not a string");
    listed.emplace(std::string(kv.key), std::string(digest));
  }
  for (const Entry &e : c.entries) {
    if (e.name == "manifest.json")
      continue;
    auto it = listed.find(e.name);
    if (it == listed.end())
      return fail("entry \"" + e.name + "\" is not listed in manifest.json (an altered bundle?)");
    if (it->second != "sha256:" + sha256Hex(e.data))
      return fail("entry \"" + e.name +
                  "\" is corrupted: its SHA-256 is not the one manifest.json records");
    listed.erase(it);
  }
  if (!listed.empty())
    return fail("entry \"" + listed.begin()->first + "\" listed in manifest.json is missing");
  return llvm::Error::success();
}

} // namespace fbc::bundle
