// The mock response constructors: json_response text_response
// bytes_response status_only redirect dynamic grpc_response
// grpc_typed_response grpc_raw_response grpc_error. Parameters and messages
// are the reference's (its UnpackArgs wording); where it silently drops a
// header that is not a string, fbc says so.
#include "frontend/lib/args.h"
#include "frontend/lib/json/json.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/printer.h"
#include "ir/builtins/arg_util.h"
#include "ir/builtins/builtins.h"
#include "ir/builtins/mock_values.h"
#include "ir/builtins/spec_builder.h"
#include "ir/quote.h"

#include <algorithm>

namespace fbc::ir::builtins {

using star::Value;

namespace {

Value make(star::Thread &t, MockResponse r) {
  auto *v = t.heap.make<MockResponseValue>();
  v->data = std::move(r);
  return Value::object(v);
}

MockResponse start(star::Thread &t, MockResponseKind kind) {
  MockResponse r;
  r.kind = kind;
  r.loc = CallSite(t, SpecBuilder::of(t).callSites).loc();
  return r;
}

// status= given or its default; an int ("json_response status: expected
// int (got string)").
int64_t statusArg(star::Thread &t, const char *fn, Value v, int64_t dflt) {
  if (!v)
    return dflt;
  if (!v.isInt())
    t.fail(std::string(fn) + " status: expected int (got " + typeOf(v) + ")");
  return star::wantInt(t, fn, "status", v);
}

// body= as JSON text (keys sorted, as the reference's Go encoder writes
// them): "json_response body: cannot encode function as JSON".
std::string jsonArg(star::Thread &t, const char *fn, Value v) {
  if (!v)
    return "null";
  try {
    return star::encodeJson(t, v);
  } catch (const star::EvalError &e) {
    std::string msg = e.message();
    if (msg.starts_with("json.encode: "))
      msg.erase(0, 13);
    t.fail(std::string(fn) + " body: " + msg);
  }
}

// A string or bytes argument's contents.
std::string textArg(star::Thread &t, const char *fn, const char *param, Value v) {
  if (!v)
    return "";
  if (auto *b = v.as<star::Bytes>())
    return std::string(b->view());
  return std::string(star::wantString(t, fn, param, v));
}

void headersArg(star::Thread &t, const char *fn, Value v, MockResponse &r) {
  if (!v || isNone(v))
    return;
  auto *d = v.as<star::Dict>();
  if (!d)
    t.fail(std::string(fn) + ": for parameter headers: got " + typeOf(v) + ", want dict");
  for (const star::HashTable::Entry &e : d->table.entries()) {
    if (e.value.isNull())
      continue;
    auto *k = e.key.as<star::String>();
    auto *val = e.value.as<star::String>();
    if (!k || !val)
      t.fail(std::string(fn) + " headers: names and values must be strings, got " +
             typeOf(k ? e.value : e.key));
    r.headers.emplace_back(std::string(k->view()), std::string(val->view()));
  }
  std::stable_sort(r.headers.begin(), r.headers.end(),
                   [](const auto &a, const auto &b) { return a.first < b.first; });
}

Value bodyResponse(star::Thread &t, const star::Args &args, MockResponseKind kind) {
  const char *fn = mockResponseBuiltin(kind);
  Value status, body, headers;
  star::bindArgs(t, fn, args, {"status?", "body?", "headers?"}, {&status, &body, &headers});
  MockResponse r = start(t, kind);
  r.status = statusArg(t, fn, status, 200);
  if (kind == MockResponseKind::Json) {
    r.body = jsonArg(t, fn, body);
    r.contentType = "application/json";
  } else {
    r.body = textArg(t, fn, "body", body);
    r.contentType = "text/plain; charset=utf-8";
  }
  headersArg(t, fn, headers, r);
  return make(t, std::move(r));
}

// grpc_response(body=) / grpc_typed_response(body=): the body as JSON.
Value grpcBodyResponse(star::Thread &t, const star::Args &args, MockResponseKind kind) {
  const char *fn = mockResponseBuiltin(kind);
  Value body;
  star::bindArgs(t, fn, args, {"body?"}, {&body});
  MockResponse r = start(t, kind);
  r.body = jsonArg(t, fn, body);
  return make(t, std::move(r));
}

} // namespace

void MockResponseValue::repr(star::Printer &p) const {
  if (data.kind == MockResponseKind::Dynamic)
    p.write("<mock_response dynamic=" + data.fn.name + ">");
  else
    p.write("<mock_response status=" + std::to_string(data.status) +
            " body_size=" + std::to_string(data.body.size()) + ">");
}

const MockResponse *mockResponseOf(Value v, std::string &error) {
  auto *r = valueAs<MockResponseValue>(v);
  if (!r) {
    error = "dynamic handler must return a mock_response (got " + typeOf(v) + ")";
    return nullptr;
  }
  if (r->data.kind == MockResponseKind::Dynamic) {
    error = "dynamic handler returned a dynamic response (nested dynamic() is not supported)";
    return nullptr;
  }
  return &r->data;
}

Value jsonResponseFn(star::Thread &t, Value, const star::Args &args) {
  return bodyResponse(t, args, MockResponseKind::Json);
}

Value textResponseFn(star::Thread &t, Value, const star::Args &args) {
  return bodyResponse(t, args, MockResponseKind::Text);
}

Value bytesResponseFn(star::Thread &t, Value, const star::Args &args) {
  const char *fn = "bytes_response";
  Value status, data;
  star::bindArgs(t, fn, args, {"status?", "data?"}, {&status, &data});
  MockResponse r = start(t, MockResponseKind::Bytes);
  r.status = statusArg(t, fn, status, 0);
  r.body = textArg(t, fn, "data", data);
  return make(t, std::move(r));
}

Value statusOnlyFn(star::Thread &t, Value, const star::Args &args) {
  Value code;
  star::bindArgs(t, "status_only", args, {"code"}, {&code});
  MockResponse r = start(t, MockResponseKind::Status);
  r.status = star::wantInt(t, "status_only", "code", code);
  return make(t, std::move(r));
}

Value redirectFn(star::Thread &t, Value, const star::Args &args) {
  Value location, status;
  star::bindArgs(t, "redirect", args, {"location", "status?"}, {&location, &status});
  MockResponse r = start(t, MockResponseKind::Redirect);
  r.headers.emplace_back("Location", star::wantString(t, "redirect", "location", location));
  r.status = status ? star::wantInt(t, "redirect", "status", status) : 302;
  return make(t, std::move(r));
}

Value dynamicFn(star::Thread &t, Value, const star::Args &args) {
  Value handler;
  star::bindArgs(t, "dynamic", args, {"fn"}, {&handler});
  if (!isCallable(handler))
    t.fail("dynamic() requires a callable (got " + typeOf(handler) + ")");
  MockResponse r = start(t, MockResponseKind::Dynamic);
  r.fn = functionRef(handler);
  return make(t, std::move(r));
}

Value grpcResponseFn(star::Thread &t, Value, const star::Args &args) {
  return grpcBodyResponse(t, args, MockResponseKind::Grpc);
}

Value grpcTypedResponseFn(star::Thread &t, Value, const star::Args &args) {
  return grpcBodyResponse(t, args, MockResponseKind::GrpcTyped);
}

Value grpcRawResponseFn(star::Thread &t, Value, const star::Args &args) {
  Value body;
  star::bindArgs(t, "grpc_raw_response", args, {"body"}, {&body});
  MockResponse r = start(t, MockResponseKind::GrpcRaw);
  r.body = textArg(t, "grpc_raw_response", "body", body);
  r.contentType = "application/grpc+raw";
  return make(t, std::move(r));
}

Value grpcErrorFn(star::Thread &t, Value, const star::Args &args) {
  Value code, message;
  star::bindArgs(t, "grpc_error", args, {"code", "message?"}, {&code, &message});
  int n = -1;
  if (code.isInt()) {
    int64_t c = star::wantInt(t, "grpc_error", "code", code);
    if (c < 0 || c > 16)
      t.fail("grpc_error code " + std::to_string(c) + " is not a gRPC status code (0-16)");
    n = static_cast<int>(c);
  } else if (auto *s = code.as<star::String>()) {
    n = grpcCodeByName(s->view());
    if (n < 0)
      t.fail("grpc_error: unknown code name " + quote(s->view()) +
             " (use one of OK, CANCELLED, UNKNOWN, INVALID_ARGUMENT, DEADLINE_EXCEEDED, "
             "NOT_FOUND, ALREADY_EXISTS, PERMISSION_DENIED, RESOURCE_EXHAUSTED, "
             "FAILED_PRECONDITION, ABORTED, OUT_OF_RANGE, UNIMPLEMENTED, INTERNAL, UNAVAILABLE, "
             "DATA_LOSS, UNAUTHENTICATED)");
  } else {
    t.fail("grpc_error code must be int or string (got " + typeOf(code) + ")");
  }
  if (n == 0)
    t.fail("grpc_error code must be non-zero (0 = OK is not an error)");
  MockResponse r = start(t, MockResponseKind::GrpcError);
  r.status = n;
  r.body = message ? std::string(star::wantString(t, "grpc_error", "message", message)) : "";
  return make(t, std::move(r));
}

} // namespace fbc::ir::builtins
