#include "runtime/containers/image_build.h"

#include "ir/quote.h"

#include <atomic>
#include <cctype>

namespace fbc::rt::containers {
namespace {

std::atomic<ContextEncoder> encoder{nullptr};

// An image name component is lower-case letters, digits and [._-].
std::string nameComponent(const std::string &service) {
  std::string out;
  for (char c : service)
    out += std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-'
               ? static_cast<char>(std::tolower(static_cast<unsigned char>(c)))
               : '-';
  return out;
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
    s.pop_back();
  return s;
}

} // namespace

void setContextEncoder(ContextEncoder e) {
  encoder = e;
}

std::string buildImage(const Engine &engine, const std::string &service, const std::string &dir,
                       std::string &error) {
  ContextEncoder encode = encoder;
  std::string context, digest, why;
  if (!encode) {
    error = "build= " + ir::quote(dir) + ": this program cannot pack a build context";
    return "";
  }
  if (!encode(dir, context, digest, why)) {
    error = "build= " + ir::quote(dir) + ": " + why;
    return "";
  }
  std::string tag = "localhost/fbc-build-" + nameComponent(service) + ":" + digest.substr(0, 16);
  if (engine.get("/images/" + urlEncode(tag) + "/json").ok())
    return tag; // this context was built before
  EngineResponse r = engine.call("POST", "/build?t=" + urlEncode(tag) + "&rm=1&forcerm=1", context,
                                 "application/x-tar", /*timeoutMs=*/0);
  why = r.ok() ? engineStreamError(r.body) : r.message();
  if (!why.empty()) {
    error = "build= " + ir::quote(dir) + ": the engine could not build it: " + trimmed(why);
    return "";
  }
  return tag;
}

} // namespace fbc::rt::containers
