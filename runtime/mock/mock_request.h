// The request a dynamic() handler of an HTTP mock receives: .method, .path,
// .query and .headers (dicts, first value of each name; header names as Go
// canonicalises them, "Content-Type"), .body (a string) and .json() (the
// body decoded). The reference passes a dict, so req["query"] and
// req.get("query") read the same fields.
#pragma once

#include "frontend/lib/objects.h"
#include "frontend/lib/value.h"

#include <string>
#include <utility>
#include <vector>

namespace fbc::rt {

struct MockRequest {
  std::string method, path, body;
  std::vector<std::pair<std::string, std::string>> query, headers; // sorted by name
};

class MockRequestValue final : public star::Object {
public:
  static constexpr star::Kind kKind = star::Kind::Host;
  static constexpr bool kNeedsDestroy = true;
  static constexpr std::string_view kTypeName = "mock_request";
  explicit MockRequestValue(MockRequest r) : star::Object(star::Kind::Host), req(std::move(r)) {}
  std::string_view typeName() const override { return kTypeName; }
  void repr(star::Printer &p) const override;
  star::Value attr(star::Thread &t, std::string_view name) override;
  void attrNames(std::vector<std::string> &out) const override;
  star::Value index(star::Thread &t, star::Value key) override;

  MockRequest req;
};

// "content-type" -> "Content-Type" (Go's CanonicalMIMEHeaderKey).
std::string canonicalHeaderName(std::string_view name);

} // namespace fbc::rt
