#include "ir/mock.h"

#include "ir/protocols.h"
#include "ir/quote.h"

#include <fnmatch.h>

#include <algorithm>
#include <array>
#include <vector>

namespace fbc::ir {

namespace {

// gRPC canonical codes, by number.
constexpr std::array<const char *, 17> kGrpcCodes = {
    "OK",
    "CANCELLED",
    "UNKNOWN",
    "INVALID_ARGUMENT",
    "DEADLINE_EXCEEDED",
    "NOT_FOUND",
    "ALREADY_EXISTS",
    "PERMISSION_DENIED",
    "RESOURCE_EXHAUSTED",
    "FAILED_PRECONDITION",
    "ABORTED",
    "OUT_OF_RANGE",
    "UNIMPLEMENTED",
    "INTERNAL",
    "UNAVAILABLE",
    "DATA_LOSS",
    "UNAUTHENTICATED",
};

} // namespace

const char *mockResponseBuiltin(MockResponseKind k) {
  switch (k) {
  case MockResponseKind::Json:
    return "json_response";
  case MockResponseKind::Text:
    return "text_response";
  case MockResponseKind::Bytes:
    return "bytes_response";
  case MockResponseKind::Status:
    return "status_only";
  case MockResponseKind::Redirect:
    return "redirect";
  case MockResponseKind::Dynamic:
    return "dynamic";
  case MockResponseKind::Grpc:
    return "grpc_response";
  case MockResponseKind::GrpcTyped:
    return "grpc_typed_response";
  case MockResponseKind::GrpcRaw:
    return "grpc_raw_response";
  case MockResponseKind::GrpcError:
    return "grpc_error";
  }
  return "status_only";
}

std::string MockResponse::display() const {
  std::string out = std::string(mockResponseBuiltin(kind)) + "(";
  auto arg = [&](std::string_view k, const std::string &v) {
    if (out.back() != '(')
      out += ", ";
    out.append(k).append("=").append(v);
  };
  switch (kind) {
  case MockResponseKind::Json:
  case MockResponseKind::Text:
    arg("status", std::to_string(status));
    arg("body", quote(body));
    break;
  case MockResponseKind::Bytes:
    arg("status", std::to_string(status));
    arg("data", quote(body));
    break;
  case MockResponseKind::Status:
    out += std::to_string(status);
    break;
  case MockResponseKind::Redirect:
    out += quote(headers.empty() ? std::string() : headers.front().second);
    arg("status", std::to_string(status));
    return out + ")";
  case MockResponseKind::Dynamic:
    out += fn.name;
    break;
  case MockResponseKind::Grpc:
  case MockResponseKind::GrpcTyped:
  case MockResponseKind::GrpcRaw:
    arg("body", quote(body));
    break;
  case MockResponseKind::GrpcError:
    arg("code", grpcCodeName(static_cast<int>(status)));
    arg("message", quote(body));
    break;
  }
  if (!headers.empty()) {
    std::string h = "{";
    for (const auto &[k, v] : headers)
      h += (h.size() > 1 ? ", " : "") + quote(k) + ": " + quote(v);
    arg("headers", h + "}");
  }
  return out + ")";
}

bool isMockProtocol(std::string_view protocol) {
  const Protocol *p = findProtocol(protocol);
  return p && p->mock != MockSupport::None;
}

// The reference's mock-capable protocols (those with a mock handler), sorted.
std::string mockProtocolList() {
  std::vector<std::string_view> names;
  for (const Protocol &p : protocols())
    if (p.mock != MockSupport::None)
      names.push_back(p.name);
  std::sort(names.begin(), names.end());
  std::string out;
  for (std::string_view p : names)
    out.append(out.empty() ? "" : ", ").append(p);
  return out;
}

bool grpcRouteMatches(std::string_view pattern, std::string_view method) {
  return pattern == method ||
         fnmatch(std::string(pattern).c_str(), std::string(method).c_str(), 0) == 0;
}

int grpcCodeByName(std::string_view name) {
  for (size_t i = 0; i < kGrpcCodes.size(); ++i)
    if (name == kGrpcCodes[i])
      return static_cast<int>(i);
  return -1;
}

const char *grpcCodeName(int code) {
  return code >= 0 && code < static_cast<int>(kGrpcCodes.size()) ? kGrpcCodes[code] : "UNKNOWN";
}

namespace {

// Why fbc cannot stand `m` up ("" when it can).
std::string mockGap(const Service &s, const Mock &m) {
  for (const Interface &i : s.interfaces)
    if (const Protocol *p = findProtocol(i.protocol); p && p->mock == MockSupport::Gap)
      return std::string(p->mockGap);
  if (!m.openapi.empty() && m.examples == "random")
    return "OpenAPI mocks with examples=\"random\" are not served by fbc yet";
  if (!m.openapi.empty() && (m.validate == "warn" || m.validate == "strict"))
    return "OpenAPI mocks that validate requests (validate=\"" + m.validate +
           "\") are not served by fbc yet";
  if (m.tls)
    return "TLS mocks (tls=True) are not served by fbc yet";
  return "";
}

} // namespace

std::optional<HostNeed> mockNeed(const Service &s, const Mock &m) {
  std::string gap = mockGap(s, m);
  if (gap.empty())
    return std::nullopt;
  HostNeed n;
  n.feature = HostFeature::Unbuilt;
  n.subject = "service " + quote(s.name);
  n.what = std::move(gap);
  n.loc = s.loc;
  return n;
}

} // namespace fbc::ir
