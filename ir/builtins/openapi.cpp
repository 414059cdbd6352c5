// The OpenAPI reader: see openapi.h. The document is read by the data-file
// reader and converted by the YAML library as load_yaml() converts it, then
// walked here: paths in sorted order, methods in OpenAPI's order, path-item
// parameters merged with the operation's, $refs to components/schemas,
// parameters, requestBodies and responses resolved.
#include "ir/builtins/openapi.h"

#include "frontend/eval/thread.h"
#include "frontend/lib/json/json.h"
#include "frontend/lib/objects.h"
#include "ir/builtins/arg_util.h"
#include "ir/builtins/data_files.h"
#include "ir/quote.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringRef.h>

#include <algorithm>
#include <set>

namespace fbc::ir::builtins {

using star::Value;

namespace {

// What a client() keyword owns: a parameter named like one cannot be bound.
constexpr std::string_view kReservedParams[] = {"body", "headers", "timeout"};

class Reader {
public:
  Reader(const CallSite &site, Loc at, std::string prefix, Contract &c)
      : site_(site), at_(at), prefix_(std::move(prefix)), c_(c) {}

  [[noreturn]] void fail(const std::string &where, const std::string &why) const {
    site_.fail(at_, prefix_ + quote(c_.path) + (where.empty() ? "" : " " + where) + ": " + why);
  }

  static Value field(Value v, std::string_view key) {
    auto *d = v.as<star::Dict>();
    if (!d)
      return Value();
    for (const star::HashTable::Entry &e : d->table.entries())
      if (auto *k = e.key.as<star::String>(); k && !e.value.isNull() && k->view() == key)
        return e.value;
    return Value();
  }
  static std::string text(Value v) {
    auto *s = v ? v.as<star::String>() : nullptr;
    return s ? std::string(s->view()) : "";
  }
  static std::vector<std::pair<std::string, Value>> entries(Value v) {
    std::vector<std::pair<std::string, Value>> out;
    if (auto *d = v ? v.as<star::Dict>() : nullptr)
      for (const star::HashTable::Entry &e : d->table.entries())
        if (auto *k = e.key.as<star::String>(); k && !e.value.isNull())
          out.emplace_back(std::string(k->view()), e.value);
    return out;
  }

  std::string json(Value v, const std::string &where) const {
    try {
      return star::encodeJson(site_.thread(), v);
    } catch (const star::EvalError &e) {
      fail(where, e.message());
    }
  }

  // A $ref within the document: "#/components/<kind>/<name>".
  Value deref(Value v, const char *kind, const std::string &where) const {
    for (int hops = 0; hops < 16; ++hops) {
      std::string ref = text(field(v, "$ref"));
      if (ref.empty())
        return v;
      std::string head = std::string("#/components/") + kind + "/";
      if (!ref.starts_with(head))
        fail(where, "unsupported $ref " + quote(ref) + " (fbc resolves " + head + "... only)");
      v = field(field(field(doc_, "components"), kind), ref.substr(head.size()));
      if (!v)
        fail(where, "$ref " + quote(ref) + " names nothing in the document");
    }
    fail(where, "$ref chain longer than 16");
  }

  std::shared_ptr<Schema> schema(Value v, const std::string &where) {
    auto s = std::make_shared<Schema>();
    if (!v)
      return s;
    if (std::string ref = text(field(v, "$ref")); !ref.empty()) {
      constexpr std::string_view head = "#/components/schemas/";
      if (!ref.starts_with(head))
        fail(where, "unsupported $ref " + quote(ref) + " (fbc resolves " + std::string(head) +
                        "... only)");
      s->ref = ref.substr(head.size());
      if (!field(field(field(doc_, "components"), "schemas"), s->ref))
        fail(where, "$ref " + quote(ref) + " names nothing in the document");
      return s;
    }
    s->type = text(field(v, "type"));
    if (Value n = field(v, "nullable"); n && n.as<star::Bool>())
      s->nullable = n.as<star::Bool>()->value;
    std::vector<Value> items;
    if (Value r = field(v, "required"); r && listItems(r, items))
      for (Value x : items)
        s->required.push_back(text(x));
    for (auto &[name, p] : entries(field(v, "properties")))
      s->properties.emplace_back(name, schema(p, where + ".properties." + name));
    if (Value a = field(v, "additionalProperties"); a && a.as<star::Bool>())
      s->closed = !a.as<star::Bool>()->value;
    if (Value i = field(v, "items"))
      s->items = schema(i, where + ".items");
    items.clear();
    if (Value e = field(v, "enum"); e && listItems(e, items))
      for (Value x : items)
        s->enumJson.push_back(json(x, where + ".enum"));
    for (auto [key, out] :
         {std::pair<const char *, std::vector<std::shared_ptr<Schema>> *>{"allOf", &s->allOf},
          {"anyOf", &s->anyOf},
          {"oneOf", &s->oneOf}}) {
      items.clear();
      if (Value l = field(v, key); l && listItems(l, items))
        for (size_t i = 0; i < items.size(); ++i)
          out->push_back(schema(items[i], where + "." + key + "[" + std::to_string(i) + "]"));
    }
    auto number = [&](const char *k) -> std::optional<double> {
      Value n = field(v, k);
      if (!n)
        return std::nullopt;
      if (n.isSmallInt())
        return static_cast<double>(n.smallInt());
      if (auto *f = n.as<star::Float>())
        return f->value;
      return std::nullopt;
    };
    s->minimum = number("minimum");
    s->maximum = number("maximum");
    for (auto [k, out] :
         {std::pair<const char *, std::optional<int64_t> *>{"minLength", &s->minLength},
          {"maxLength", &s->maxLength},
          {"minItems", &s->minItems},
          {"maxItems", &s->maxItems}})
      if (auto n = number(k))
        *out = static_cast<int64_t>(*n);
    if (Value x = field(v, "example"))
      s->exampleJson = json(x, where + ".example");
    if (Value x = field(v, "default"))
      s->defaultJson = json(x, where + ".default");
    return s;
  }

  std::vector<ContractResponse::Media> content(Value v, const std::string &where) {
    std::vector<ContractResponse::Media> out;
    for (auto &[type, media] : entries(v)) {
      ContractResponse::Media m;
      m.contentType = type;
      std::string at = where + ".content." + type;
      if (Value s = field(media, "schema"))
        m.schema = schema(s, at + ".schema");
      // A text media type serves a string example as it is.
      bool asText = !isJsonMediaType(type);
      auto served = [&](Value x, const std::string &where) {
        return asText && x.as<star::String>() ? text(x) : json(x, where);
      };
      if (Value x = field(media, "example"))
        m.exampleJson = served(x, at + ".example");
      for (auto &[name, ex] : entries(field(media, "examples")))
        if (Value x = field(ex, "value"))
          m.examples[name] = served(x, at + ".examples." + name);
      out.push_back(std::move(m));
    }
    std::sort(out.begin(), out.end(),
              [](const auto &a, const auto &b) { return a.contentType < b.contentType; });
    return out;
  }

  void params(Value list, const std::string &where, std::vector<ContractParam> &out) {
    std::vector<Value> items;
    if (!list || !listItems(list, items))
      return;
    for (size_t i = 0; i < items.size(); ++i) {
      std::string at = where + ".parameters[" + std::to_string(i) + "]";
      Value p = deref(items[i], "parameters", at);
      ContractParam cp;
      cp.wireName = text(field(p, "name"));
      cp.in = text(field(p, "in"));
      if (cp.wireName.empty() || cp.in.empty())
        fail(at, "a parameter needs name and in");
      Value req = field(p, "required");
      cp.required = cp.in == "path" || (req && req.as<star::Bool>() && req.as<star::Bool>()->value);
      cp.name = canonicalName(cp.wireName);
      if (cp.name.empty())
        fail(at, "cannot derive a keyword from parameter " + quote(cp.wireName));
      // The operation's own parameter replaces the path item's (name, in).
      auto same = [&](const ContractParam &x) {
        return x.wireName == cp.wireName && x.in == cp.in;
      };
      out.erase(std::remove_if(out.begin(), out.end(), same), out.end());
      out.push_back(std::move(cp));
    }
  }

  ContractOperation operation(const std::string &method, const std::string &path, Value item,
                              Value op) {
    std::string where = "paths." + path + "." + method;
    ContractOperation o;
    o.method = method;
    for (char &ch : o.method)
      ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    o.path = path;
    o.contractName = text(field(op, "operationId"));
    if (o.contractName.empty()) {
      o.contractName = method;
      llvm::SmallVector<llvm::StringRef, 8> segs;
      llvm::StringRef(path).split(segs, '/');
      for (llvm::StringRef seg : segs) {
        std::string s(seg);
        if (s.size() > 1 && s.front() == '{' && s.back() == '}')
          s = s.substr(1, s.size() - 2);
        if (!s.empty())
          o.contractName += "_" + s;
      }
    }
    params(field(item, "parameters"), "paths." + path, o.params);
    params(field(op, "parameters"), where, o.params);
    auto rank = [](const std::string &in) {
      return in == "path" ? 0 : in == "query" ? 1 : in == "header" ? 2 : 3;
    };
    std::stable_sort(o.params.begin(), o.params.end(), [&](const auto &a, const auto &b) {
      return std::pair(rank(a.in), a.name) < std::pair(rank(b.in), b.name);
    });
    for (size_t i = 0; i < o.params.size(); ++i) {
      const ContractParam &p = o.params[i];
      if (i > 0 && std::any_of(o.params.begin(), o.params.begin() + long(i),
                               [&](const ContractParam &q) { return q.name == p.name; }))
        fail(where,
             "parameters " + quote(p.wireName) + " both normalize to keyword " + quote(p.name));
      if (std::find(std::begin(kReservedParams), std::end(kReservedParams), p.name) !=
          std::end(kReservedParams))
        fail(where, "operation " + quote(o.contractName) + " declares parameter " +
                        quote(p.wireName) + ", which normalizes to the reserved keyword " +
                        quote(p.name));
    }
    if (Value rb = field(op, "requestBody")) {
      rb = deref(rb, "requestBodies", where + ".requestBody");
      o.acceptsBody = true;
      Value req = field(rb, "required");
      o.bodyRequired = req && req.as<star::Bool>() && req.as<star::Bool>()->value;
      std::vector<ContractResponse::Media> media =
          content(field(rb, "content"), where + ".requestBody");
      o.bodyContentType = "application/json";
      if (const ContractResponse::Media *pick = preferredMedia(media)) {
        o.bodyContentType = pick->contentType;
        o.bodySchema = pick->schema;
      }
    }
    for (auto &[status, r] : entries(field(op, "responses"))) {
      std::string at = where + ".responses." + status;
      Value resolved = deref(r, "responses", at);
      o.responses.push_back({status, content(field(resolved, "content"), at)});
    }
    std::sort(o.responses.begin(), o.responses.end(),
              [](const auto &a, const auto &b) { return a.status < b.status; });
    return o;
  }

  void read(Value doc, const std::vector<std::pair<std::string, std::string>> &rename) {
    doc_ = doc;
    if (!doc.as<star::Dict>())
      fail("", "not an OpenAPI document (a mapping at the top)");
    std::string version = text(field(doc, "openapi"));
    if (!version.starts_with("3."))
      fail("", field(doc, "swagger")
                   ? "Swagger 2 documents are not supported; fbc reads OpenAPI 3.x"
                   : "not an OpenAPI 3.x document (no openapi: 3.x field)");
    c_.version = text(field(field(doc, "info"), "version"));
    for (auto &[name, s] : entries(field(field(doc, "components"), "schemas")))
      c_.schemas[name] = schema(s, "components.schemas." + name);
    std::vector<std::pair<std::string, Value>> paths = entries(field(doc, "paths"));
    if (paths.empty())
      fail("", "declares no paths");
    std::sort(paths.begin(), paths.end(),
              [](const auto &a, const auto &b) { return a.first < b.first; });
    std::set<std::string> used;
    for (auto &[path, item] : paths)
      for (const char *m : kContractMethods) {
        Value op = field(item, m);
        if (!op)
          continue;
        ContractOperation o = operation(m, path, item, op);
        auto rn = std::find_if(rename.begin(), rename.end(),
                               [&](const auto &r) { return r.first == o.contractName; });
        std::string raw = rn == rename.end() ? o.contractName : rn->second;
        if (rn != rename.end())
          used.insert(rn->first);
        o.name = canonicalName(raw);
        if (o.name.empty())
          fail("paths." + path + "." + m,
               "cannot derive an operation name from " + quote(raw) + " (no letters or digits)");
        for (const ContractOperation &prev : c_.operations)
          if (prev.name == o.name)
            fail("", "operation name collision: " + quote(prev.contractName) + " and " +
                         quote(o.contractName) + " both normalize to " + quote(o.name) +
                         "; pass rename={" + quote(o.contractName) + ": \"<other_name>\"}");
        c_.operations.push_back(std::move(o));
      }
    for (const auto &[from, to] : rename)
      if (!used.count(from))
        fail("",
             "rename key " + quote(from) + " matches no operation (rename keys are operationIds)");
    std::sort(c_.operations.begin(), c_.operations.end(),
              [](const auto &a, const auto &b) { return a.name < b.name; });
  }

private:
  const CallSite &site_;
  Loc at_;
  std::string prefix_;
  Contract &c_;
  Value doc_;
};

} // namespace

std::shared_ptr<const Contract>
readOpenApi(const CallSite &site, const Loc &at, const std::string &prefix, const std::string &path,
            const std::vector<std::pair<std::string, std::string>> &rename) {
  const frontend::SourceFile &f = readDataFile(site, at, prefix, path);
  Value doc = parseYamlData(site, at, prefix, f, true);
  auto c = std::make_shared<Contract>();
  c->path = path;
  Reader(site, at, prefix, *c).read(doc, rename);
  return c;
}

} // namespace fbc::ir::builtins
