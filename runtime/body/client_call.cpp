// A client()'s calls in a test body: `mobile.get_order(order_id=1)` and
// `mobile.call("getOrder", params={...})`. The operation's parameters bind
// by name onto its path, query, headers and cookies; the request goes out
// as the HTTP step does (libcurl, through the target's proxy when the test
// has one); the trace records it as the client's own activity
// (client_call, client_return, contract_violation: the client is an actor
// with its own lane); validate= checks the request and the response
// against the contract (runtime/values/contract_check.h).
#include "runtime/driver/executor.h"

#include "frontend/eval/thread.h"
#include "frontend/lib/json/json.h"
#include "frontend/lib/numeric.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/printer.h"
#include "frontend/lib/spellcheck.h"
#include "ir/builtins/binder.h"
#include "ir/builtins/client_value.h"
#include "ir/contract.h"
#include "ir/duration.h"
#include "ir/quote.h"
#include "runtime/body/builtin_args.h"
#include "runtime/clients/steps.h"
#include "runtime/supervisor/launch_config.h"
#include "runtime/supervisor/supervisor.h"
#include "runtime/values/contract_check.h"
#include "runtime/values/response_value.h"

#include <llvm/ADT/StringExtras.h>

#include <algorithm>
#include <map>

namespace fbc::rt {

using star::Value;

namespace {

using Headers = std::vector<std::pair<std::string, std::string>>;

// A parameter value on the wire: strings as they are, bools as
// true/false, numbers in decimal (an integral float without ".0").
std::string paramText(star::Thread &t, Value v, const std::string &what) {
  if (auto *s = v.as<star::String>())
    return std::string(s->view());
  if (auto *b = v.as<star::Bool>())
    return b->value ? "true" : "false";
  if (v.isInt())
    return star::str(v);
  if (auto *f = v.as<star::Float>())
    return ir::formatNumber(f->value);
  failBadArgument(t, what + ": unsupported parameter value of type " +
                         std::string(star::typeName(v)) +
                         " (expected string, int, float, or bool)");
}

// Percent-encoding: a path segment keeps RFC 3986's unreserved and
// sub-delimiter characters, a query component its unreserved ones (space
// as "+").
std::string escape(std::string_view s, bool query) {
  static constexpr std::string_view kSegment = "-._~!$&'()*+,;=:@";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || (query ? std::string_view("-._~").find(char(c)) != std::string_view::npos
                                  : kSegment.find(char(c)) != std::string_view::npos)) {
      out += char(c);
    } else if (query && c == ' ') {
      out += '+';
    } else {
      static constexpr char kHex[] = "0123456789ABCDEF";
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

// Header `name` in `h`, in any case.
template <class H> auto findHeader(H &h, std::string_view name) {
  return std::find_if(h.begin(), h.end(), [&](const auto &kv) {
    return llvm::StringRef(kv.first).equals_insensitive(name);
  });
}

std::string headerValue(const Headers &h, std::string_view name) {
  auto it = findHeader(h, name);
  return it == h.end() ? "" : it->second;
}

void setHeader(Headers &h, const std::string &name, std::string value) {
  if (auto it = findHeader(h, name); it != h.end())
    it->second = std::move(value);
  else
    h.emplace_back(name, std::move(value));
}

Headers headersArg(star::Thread &t, Value v, const std::string &what) {
  auto *d = v.as<star::Dict>();
  if (!d)
    failBadArgument(t, what + ": expected a dict of string→string, got " +
                           std::string(star::typeName(v)));
  Headers out;
  for (const star::HashTable::Entry &e : d->table.entries())
    if (!e.value.isNull())
      setHeader(out, paramText(t, e.key, what), paramText(t, e.value, what));
  return out;
}

// "/v1" + "/orders" = "/v1/orders"; "" or "/" adds nothing.
std::string joinBasePath(std::string base, const std::string &path) {
  while (!base.empty() && base.back() == '/')
    base.pop_back();
  size_t first = base.find_first_not_of('/');
  if (first == std::string::npos)
    return path;
  return "/" + base.substr(first) + path;
}

struct Request {
  HttpStepRequest http;
  std::string path; // with its query
  std::string params;
};

// Binds the call's arguments onto `op`'s wire form (the reference's rules:
// unknown keywords and missing required parameters are errors, only a
// query parameter takes a list, per-call headers= win over the client's).
Request bindArgs(star::Thread &t, const ir::Client &c, const ir::ContractOperation &op,
                 const std::map<std::string, Value> &args) {
  std::string sig = op.signature();
  std::vector<std::string> names;
  for (const ir::ContractParam &p : op.params)
    names.push_back(p.name);
  for (const auto &[k, v] : args) {
    if (k == "body" || k == "headers" || k == "timeout" ||
        std::find(names.begin(), names.end(), k) != names.end())
      continue;
    std::string msg = sig + ": unknown argument " + ir::quote(k);
    if (std::string_view near = star::nearestName(k, names); !near.empty())
      msg += " (did you mean " + ir::quote(near) + "?)";
    std::vector<std::string> sorted = names;
    std::sort(sorted.begin(), sorted.end());
    msg += sorted.empty() ? "; the operation declares no parameters"
                          : "; declared parameters: " + llvm::join(sorted, ", ");
    failUnknownKeyword(t, std::move(msg));
  }
  auto body = args.find("body");
  if (body == args.end() && op.acceptsBody && op.bodyRequired)
    failBadArgument(t, sig + ": body= is required");
  if (body != args.end() && !op.acceptsBody)
    failBadArgument(t, sig + ": operation " + op.wire() + " declares no request body");

  Request r;
  std::string path = op.path;
  std::vector<std::pair<std::string, std::string>> query, cookies;
  Headers headers = c.headers;
  for (const ir::ContractParam &p : op.params) {
    auto it = args.find(p.name);
    if (it == args.end()) {
      if (p.required)
        failBadArgument(t, sig + ": missing required " + p.in + " parameter " + ir::quote(p.name));
      continue;
    }
    std::string what = sig + ": parameter " + ir::quote(p.name);
    r.params += (r.params.empty() ? "" : ", ") + p.name + "=" + star::str(it->second);
    auto *list = it->second.as<star::List>();
    if (list && p.in != "query")
      failBadArgument(t, what + " is a " + p.in + " parameter and cannot take a list");
    if (list) {
      for (Value item : list->elems)
        query.emplace_back(p.wireName, paramText(t, item, what));
      continue;
    }
    std::string text = paramText(t, it->second, what);
    if (p.in == "path") {
      std::string placeholder = "{" + p.wireName + "}";
      size_t at = path.find(placeholder);
      if (at == std::string::npos)
        t.fail("operation " + op.contractName + " declares path parameter " +
               ir::quote(p.wireName) + " but its path " + ir::quote(op.path) + " has no " +
               placeholder + " placeholder");
      path.replace(at, placeholder.size(), escape(text, false));
    } else if (p.in == "query") {
      query.emplace_back(p.wireName, text);
    } else if (p.in == "header") {
      setHeader(headers, p.wireName, text);
    } else {
      cookies.emplace_back(p.wireName, text);
    }
  }
  if (size_t open = path.find('{'); open != std::string::npos)
    t.fail(sig + ": path " + ir::quote(op.path) + " still has unbound placeholder " +
           path.substr(open, path.find('}', open) - open + 1));
  if (auto h = args.find("headers"); h != args.end())
    for (auto &[k, v] : headersArg(t, h->second, sig + ": headers="))
      setHeader(headers, k, v);
  if (!cookies.empty()) {
    std::vector<std::string> items;
    for (const auto &[k, v] : cookies)
      items.push_back(k + "=" + v);
    std::sort(items.begin(), items.end());
    setHeader(headers, "Cookie", llvm::join(items, "; "));
  }
  r.path = joinBasePath(c.basePath, path);
  std::stable_sort(query.begin(), query.end(),
                   [](const auto &a, const auto &b) { return a.first < b.first; });
  for (size_t i = 0; i < query.size(); ++i)
    r.path += (i ? "&" : "?") + escape(query[i].first, true) + "=" + escape(query[i].second, true);
  r.http.method = op.method;
  if (body != args.end()) {
    auto *s = body->second.as<star::String>();
    r.http.body = s ? std::string(s->view()) : star::encodeJson(t, body->second);
    r.http.hasBody = true;
    if (findHeader(headers, "Content-Type") == headers.end())
      headers.emplace_back("Content-Type", op.bodyContentType);
  }
  std::sort(headers.begin(), headers.end());
  r.http.headers = std::move(headers);
  return r;
}

// before=: the hook sees {operation, method, path, body, headers} and
// returns a dict whose headers (merged) and body (replaced) are sent.
void applyBefore(star::Thread &t, const ir::Client &c, const ir::ContractOperation &op,
                 Request &r) {
  std::string who = "client " + ir::quote(c.name) + " before= hook";
  auto *req = t.heap.make<star::Dict>();
  auto put = [&](star::Dict *d, const std::string &k, Value v) {
    d->put(t, star::makeString(t.heap, k), v);
  };
  put(req, "operation", star::makeString(t.heap, op.name));
  put(req, "method", star::makeString(t.heap, r.http.method));
  put(req, "path", star::makeString(t.heap, r.path));
  put(req, "body", star::makeString(t.heap, r.http.body));
  auto *h = t.heap.make<star::Dict>();
  for (const auto &[k, v] : r.http.headers)
    put(h, k, star::makeString(t.heap, v));
  put(req, "headers", Value::object(h));
  Value arg = Value::object(req);
  Value out = star::call(t, c.before->value, llvm::ArrayRef<Value>(arg));
  auto *d = out.as<star::Dict>();
  if (!d)
    failBadArgument(t, who + " must return a dict (got " + std::string(star::typeName(out)) + ")");
  for (const star::HashTable::Entry &e : d->table.entries()) {
    auto *k = e.key.as<star::String>();
    if (!k || e.value.isNull())
      continue;
    if (k->view() == "headers") {
      for (auto &[name, v] : headersArg(t, e.value, who + ": headers"))
        setHeader(r.http.headers, name, v);
      std::sort(r.http.headers.begin(), r.http.headers.end());
    } else if (k->view() == "body") {
      auto *s = e.value.as<star::String>();
      if (!s)
        failBadArgument(t, who + ": body must be a string (got " +
                               std::string(star::typeName(e.value)) + ")");
      r.http.body = std::string(s->view());
      r.http.hasBody = true;
    }
  }
}

} // namespace

ServiceId Executor::clientActor(const ir::Client &c) {
  // The client is its own actor in the trace, after the services.
  const ir::Spec &spec = loaded_.spec();
  ServiceId self = static_cast<ServiceId>(spec.services.size() +
                                          size_t(spec.findClient(c.name) - spec.clients.data()));
  sup_->trace().setServiceName(self, c.name);
  return self;
}

Value Executor::callClient(star::Thread &t, const ir::builtins::ClientValue &cv,
                           std::string_view method, const star::Args &args) {
  const ir::Client &c = cv.data;
  const ir::Spec &spec = loaded_.spec();
  std::string who = "client " + ir::quote(c.name);
  const ir::ContractOperation *op = nullptr;
  std::map<std::string, Value> kw;
  if (method == "call") {
    // call(name, params={}, body=, headers=, timeout=): an operationId
    // (or a method name) that cannot be written as an attribute.
    Value name;
    if (args.positional.size() > 1)
      failBadArgument(t, "call: got " + std::to_string(args.positional.size()) +
                             " positional arguments, want at most 1");
    ir::builtins::bindParams(
        ir::builtins::BindCall(
            t, args,
            ir::builtins::Wording::own("call",
                                       [](std::string_view fn, std::string_view k) {
                                         return std::string(fn) + ": unexpected keyword argument " +
                                                ir::quote(k) +
                                                " (want name, params=, body=, headers=, timeout=)";
                                       })),
        {{"name", ir::builtins::Positional}, {"params"}, {"body"}, {"headers"}, {"timeout"}},
        [&](size_t i, const ir::builtins::Arg &a) {
          if (i == 0) {
            name = a.value;
          } else if (i == 1) {
            auto *d = a.value.as<star::Dict>();
            if (!d)
              failBadArgument(t, "call: params must be a dict, got " +
                                     std::string(star::typeName(a.value)));
            for (const star::HashTable::Entry &e : d->table.entries()) {
              if (e.value.isNull())
                continue;
              auto *s = e.key.as<star::String>();
              if (!s)
                failBadArgument(t, who + " call(): params keys must be strings (got " +
                                       std::string(star::typeName(e.key)) + ")");
              kw[std::string(s->view())] = e.value;
            }
          } else {
            kw[std::string(a.name)] = a.value;
          }
        });
    auto *s = name ? name.as<star::String>() : nullptr;
    if (!s)
      failBadArgument(t, "call: missing argument for name");
    op = c.contract->findByContractName(s->view());
    if (!op)
      op = c.contract->find(s->view());
    if (!op)
      failBadArgument(t, who + " call(" + ir::quote(s->view()) +
                             "): no such operation; call() accepts an operationId or a generated "
                             "name");
  } else {
    op = c.contract->find(method);
    if (!op)
      t.fail(who + " has no operation " + ir::quote(method));
    if (!args.positional.empty())
      failBadArgument(t, op->name + " takes keyword arguments only (got " +
                             std::to_string(args.positional.size()) +
                             " positional): " + op->signature());
    for (const star::Kwarg &k : args.kwargs)
      kw[std::string(k.name->view())] = k.value;
  }

  int64_t timeoutNs = c.timeoutNs;
  if (auto it = kw.find("timeout"); it != kw.end()) {
    auto *s = it->second.as<star::String>();
    std::string error;
    std::optional<int64_t> d = s ? ir::parseDuration(s->view(), error) : std::nullopt;
    if (!s)
      failBadArgument(t, op->signature() + ": timeout= must be a duration string like \"5s\"");
    if (!d)
      failBadDuration(t, op->signature() + ": timeout=" + ir::quote(s->view()) + ": " + error);
    if (*d <= 0)
      failBadArgument(t, op->signature() + ": timeout=" + ir::quote(s->view()) +
                             ": duration must be positive");
    timeoutNs = *d;
  }
  if (c.contract->grpc)
    return callGrpcClient(t, cv, *op, kw, timeoutNs);
  Request r = bindArgs(t, c, *op, kw);
  if (c.before)
    applyBefore(t, c, *op, r);
  std::string contentType = headerValue(r.http.headers, "Content-Type");
  if (c.validate == "request" || c.validate == "strict")
    if (std::string e = checkRequest(t, *c.contract, *op, contentType, r.http.body); !e.empty())
      t.fail(who + " " + op->name + ": request does not conform to " + c.contract->path + ": " + e);

  std::optional<ServiceId> target = sup_ ? sup_->findService(c.service) : std::nullopt;
  if (!target)
    t.fail("service " + ir::quote(c.service) + " is not running");
  const ir::Service *svc = spec.findService(c.service);
  const ir::Interface *iface = svc ? svc->findInterface(c.interface) : nullptr;
  ir::Address at = iface ? dialAddress(c.service, *iface) : ir::Address{};
  // A TLS interface's client speaks HTTPS trusting its tls_cert, as steps do.
  if (iface && iface->tls)
    r.http.tls = tlsClientConfig(*iface->tls, specDir(spec.path));
  r.http.url = (r.http.tls ? "https://" : "http://") + at.dialHostPort() + r.path;
  if (timeoutNs > 0)
    r.http.timeoutMs = std::max<int64_t>(1, timeoutNs / 1000000);

  ServiceId self = clientActor(c);
  Trace &trace = sup_->trace();
  std::vector<std::pair<std::string, std::string>> f{{"client", c.name},
                                                     {"target", c.service},
                                                     {"interface", c.interface},
                                                     {"protocol", iface ? iface->protocol : "http"},
                                                     {"operation", op->name},
                                                     {"contract", c.contract->id()},
                                                     {"method", op->method},
                                                     {"path", clippedField(r.path, 200)},
                                                     {"params", clippedField(r.params, 200)}};
  if (r.http.hasBody)
    f.emplace_back("body", clippedField(r.http.body, 200));
  trace.record(EventType::ClientCall, self, std::move(f));
  HttpStepResponse got;
  {
    InterpreterLock::Released waiting(body_.lock());
    got = httpStep(r.http, [this] { return cancelled(); });
  }
  if (cancelled())
    t.fail(who + " " + op->name + "(): cancelled");
  auto *resp = t.heap.make<ResponseValue>(std::move(got));
  const HttpStepResponse &res = resp->resp;
  resp->client = c.name;
  resp->operation = op->name;
  if (res.ok && (c.validate == "response" || c.validate == "strict")) {
    resp->contractError = checkResponse(t, *c.contract, *op, res.status,
                                        headerValue(res.headers, "content-type"), res.body);
    resp->contractOk = resp->contractError.empty();
  }
  std::vector<std::pair<std::string, std::string>> back{
      {"client", c.name},
      {"target", c.service},
      {"operation", op->name},
      {"status_code", std::to_string(res.status)},
      {"duration_ms", std::to_string(res.durationMs)},
      {"success", res.ok ? "true" : "false"},
      {"contract_ok", resp->contractOk ? "true" : "false"}};
  if (!res.ok)
    back.emplace_back("error", clippedField(res.error, 200));
  if (!resp->contractOk)
    back.emplace_back("contract_error", clippedField(resp->contractError, 200));
  if (res.status && (res.status < 200 || res.status > 299))
    back.emplace_back("body", clippedField(res.body, 2048));
  trace.record(EventType::ClientReturn, self, std::move(back));
  if (!resp->contractOk) {
    trace.record(EventType::ContractViolation, self,
                 {{"client", c.name},
                  {"target", c.service},
                  {"operation", op->name},
                  {"contract", c.contract->id()},
                  {"detail", clippedField(resp->contractError, 400)}});
    if (c.validate == "strict")
      t.fail(who + " " + op->name + ": response does not conform to " + c.contract->path + ": " +
             resp->contractError);
  }
  return Value::object(resp);
}

} // namespace fbc::rt
