// An API contract as fbc reads it from an OpenAPI 3.x document (YAML or
// JSON): its operations, each operation's parameters, request body and
// declared responses, and the schemas those use. One reader
// (ir/builtins/openapi.cpp) builds it for both ends of a contract:
// client() gets one method per operation, mock_service(openapi=) serves one
// route per operation from its examples. The run checks responses against
// the schemas (runtime/values/contract_check.h).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fbc::ir {

// The subset of an OpenAPI 3.0 schema object fbc checks. `ref` names a
// schema under components/schemas (resolved through Contract::schemas,
// so recursive schemas are fine); the other fields are then unset.
struct Schema {
  std::string ref;
  std::string type; // "" (any), string, integer, number, boolean, array, object
  bool nullable = false;
  std::vector<std::string> required;                                       // as written
  std::vector<std::pair<std::string, std::shared_ptr<Schema>>> properties; // as written
  bool closed = false; // additionalProperties: false
  std::shared_ptr<Schema> items;
  std::vector<std::string> enumJson; // allowed values, each as compact JSON
  std::vector<std::shared_ptr<Schema>> allOf, anyOf, oneOf;
  std::optional<double> minimum, maximum;
  std::optional<int64_t> minLength, maxLength, minItems, maxItems;
  std::string exampleJson, defaultJson; // "" when absent
};

struct ContractParam {
  std::string name;     // the keyword a call passes: snake_case (canonicalName)
  std::string wireName; // as the contract spells it: {orderId}, ?include=, X-Tenant
  std::string in;       // path, query, header, cookie
  bool required = false;
};

// One declared response: a status ("200", "2XX", "default") and, per
// media type, its schema and first example.
struct ContractResponse {
  std::string status;
  struct Media {
    std::string contentType;
    std::shared_ptr<Schema> schema; // null: none declared
    // As served: JSON, but a string example of a non-JSON media type is
    // its text.
    std::string exampleJson;                     // example:, "" if none
    std::map<std::string, std::string> examples; // examples: name -> value
  };
  std::vector<Media> content; // sorted by content type
};

// Of the media types declared, the one fbc sends or serves:
// application/json, else the first by content type; null when none.
const ContractResponse::Media *preferredMedia(const std::vector<ContractResponse::Media> &content);

struct ContractOperation {
  std::string name;                  // the method: canonicalName(operationId), or rename=
  std::string contractName;          // operationId, or "get_orders_orderId" when it declares none
  std::string method;                // GET POST ...
  std::string path;                  // the template: /orders/{orderId}
  std::vector<ContractParam> params; // path, query, header, cookie; then by name
  bool acceptsBody = false, bodyRequired = false;
  std::string bodyContentType;             // application/json unless it declares another
  std::shared_ptr<Schema> bodySchema;      // null: none declared
  std::vector<ContractResponse> responses; // sorted by status
  // "GET /orders/{orderId}".
  std::string wire() const { return method + " " + path; }
  // `get_order(order_id, include=…, body=…)`: required first.
  std::string signature() const;
};

class GrpcDescriptors; // ir/grpc_descriptors.h

struct Contract {
  std::string kind = "openapi"; // or "grpc": a descriptor set's service
  std::string path;             // as written in the spec
  std::string version;          // info.version, "" when absent
  // gRPC: the service (grpc_service=) whose methods are the operations (each
  // POST to its full method name, its body the input message as a dict),
  // and the set that encodes and decodes their messages.
  std::string service;
  std::shared_ptr<const GrpcDescriptors> grpc;
  std::vector<ContractOperation> operations;              // sorted by name
  std::map<std::string, std::shared_ptr<Schema>> schemas; // components/schemas
  // "openapi:./orders.yaml@1.4.0" (the reference's contract identity),
  // "grpc:./all.pb#geo.Geo".
  std::string id() const;
  const ContractOperation *find(std::string_view name) const;
  const ContractOperation *findByContractName(std::string_view name) const;
  // Follows `s`'s $ref (null when it names no schema).
  const Schema *resolve(const Schema &s) const;
};

// The path-item methods fbc reads, as OpenAPI spells them, in the order it
// reads them (mock_service(openapi=) lists its routes in this order too).
inline constexpr const char *kContractMethods[] = {"get",    "post", "put",     "patch",
                                                   "delete", "head", "options", "trace"};

// A JSON media type (application/json, application/problem+json, ...): its
// examples are JSON, a string example of any other type is served as its
// text, and only JSON bodies are checked against a schema.
inline bool isJsonMediaType(std::string_view type) {
  return type.find("json") != std::string_view::npos;
}

// A contract identifier as a Starlark name: getOrder -> get_order,
// GetOrderByID -> get_order_by_id, HTTPServer -> http_server, get-order ->
// get_order; "op_" before a leading digit; "" when it has no letter or
// digit.
std::string canonicalName(std::string_view raw);

// The response an operation's mock route serves (examples= "" or "first":
// the first example, else an error; "synthesize": the example, else a
// value built from the schema; any other string names an example, else
// the first): the primary response (200, 201, 202, 203, 204, default,
// any 2XX, then the first), status, content type and body. `error` says
// why there is none.
struct ContractExample {
  int64_t status = 200;
  std::string contentType; // "" for a status-only response
  std::string body;
};
std::optional<ContractExample> contractExample(const Contract &c, const ContractOperation &op,
                                               std::string_view examples, std::string &error);

// A value that fits `s`, as compact JSON: its example or default, else
// "", 0, false, [one item], {each property}.
std::string synthesizeJson(const Contract &c, const Schema &s, int depth = 0);

} // namespace fbc::ir
