// The value an HTTP step returns to the test body:
//   .status (int, 0 when no response), .body (str, trimmed), .headers (dict,
//   lower-case names), .duration_ms (int), .ok (bool: a response arrived),
//   .error (str), .data (the body JSON-decoded, else the body), .json()
//   .client, .operation (a client() call's: its name and the operation's;
//   "" for a step), .contract_ok (False when validate= found a violation),
//   .contract_error (the violation, "")
// bool(resp) is resp.ok. repr: <response status=200> / <response error="...">.
#pragma once

#include "frontend/lib/objects.h"
#include "runtime/clients/steps.h"

namespace fbc::rt {

class ResponseValue final : public star::Object {
public:
  static constexpr star::Kind kKind = star::Kind::Host;
  static constexpr bool kNeedsDestroy = true;
  static constexpr std::string_view kTypeName = "response";
  explicit ResponseValue(HttpStepResponse r) : star::Object(star::Kind::Host), resp(std::move(r)) {
    freeze();
  }
  std::string_view typeName() const override { return kTypeName; }
  void repr(star::Printer &p) const override;
  bool truth() const override { return resp.ok; }
  star::Value attr(star::Thread &t, std::string_view name) override;
  void attrNames(std::vector<std::string> &out) const override;

  HttpStepResponse resp;
  std::string client, operation;
  bool contractOk = true;
  std::string contractError;
};

ResponseValue *asResponse(star::Value v);

} // namespace fbc::rt
