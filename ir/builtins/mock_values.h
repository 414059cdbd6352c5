// The value the mock response constructors return (json_response(),
// status_only(), dynamic(), grpc_error(), ...): type "mock_response",
// carrying the ir::MockResponse it stands for. mock_service(routes=,
// default=) takes them at load time; fbc run's HTTP mock converts what a
// dynamic() handler returns with mockResponseOf().
#pragma once

#include "ir/builtins/values.h"
#include "ir/mock.h"

#include <string>

namespace fbc::ir::builtins {

class MockResponseValue final : public SpecValue {
public:
  static constexpr std::string_view kTypeName = "mock_response";
  static constexpr bool kNeedsDestroy = true;
  std::string_view typeName() const override { return kTypeName; }
  // <mock_response status=200 body_size=7>, <mock_response dynamic=f>
  void repr(star::Printer &p) const override;

  MockResponse data;
};

// The response `v` stands for, or null (and `error` says why) when `v` is
// not a static mock_response: what a dynamic() handler must return.
const MockResponse *mockResponseOf(star::Value v, std::string &error);

} // namespace fbc::ir::builtins
