// The JSON form of ir::Spec: the printer's class, shared by its halves
// (json_printer.cpp: the spec, its services, clients and mocks;
// json_printer_tests.cpp: assumptions, matrices, tests and what they
// check). Internal to ir/; the interface is printSpecJson in print.h.
#pragma once

#include "ir/contract.h"
#include "ir/duration.h"
#include "ir/host_needs.h"
#include "ir/json_writer.h"
#include "ir/mock.h"
#include "ir/print/print.h"
#include "ir/protocols.h"

namespace fbc::ir::json_detail {

class JsonPrinter {
public:
  explicit JsonPrinter(llvm::raw_ostream &os) : w_(os) {}

  void print(const Spec &spec);

private:
  void loc(std::string_view key, const Loc &l) {
    w_.key(key);
    if (!l.valid()) {
      w_.null();
      return;
    }
    w_.beginObject(/*inlined=*/true);
    w_.field("file", l.file->path());
    w_.field("line", int64_t(l.pos.line));
    w_.field("col", int64_t(l.pos.col));
    w_.endObject();
  }

  void strings(std::string_view key, const std::vector<std::string> &items) {
    w_.key(key);
    w_.beginArray(/*inlined=*/true);
    for (const std::string &s : items)
      w_.value(s);
    w_.endArray();
  }

  void optionalString(std::string_view key, const std::string &s) {
    if (s.empty())
      w_.nullField(key);
    else
      w_.field(key, s);
  }

  void duration(std::string_view key, std::optional<int64_t> ns) {
    if (!ns) {
      w_.nullField(key);
      w_.nullField(std::string(key) + "_ns");
      return;
    }
    w_.field(key, formatDuration(*ns));
    w_.field(std::string(key) + "_ns", *ns);
  }

  // image=/build=/volumes=/ports=/reuse=/seed=/reset=, remote=, and what
  // running the service needs: only the members that are set.
  void container(const Service &s);

  void matcher(const Matcher &m);

  void indices(std::string_view key, const std::vector<uint32_t> &idx) {
    w_.key(key);
    w_.beginArray(/*inlined=*/true);
    for (uint32_t i : idx)
      w_.value(uint64_t(i));
    w_.endArray();
  }

  void monitor(const Monitor &m);

  void assume(const Assume &a);

  void temporal(std::string_view key, const std::shared_ptr<const Temporal> &x);

  void pairs(std::string_view key, const std::vector<std::pair<std::string, std::string>> &kv) {
    w_.key(key);
    w_.beginObject(/*inlined=*/true);
    for (const auto &[k, v] : kv)
      w_.field(k, v);
    w_.endObject();
  }

  void client(const Client &c);

  void function(const FunctionRef &f) {
    w_.beginObject();
    w_.field("name", f.name);
    loc("loc", f.loc);
    w_.endObject();
  }

  void expect(std::string_view key, const Expect &e) { expect(key, &e); }
  void expect(std::string_view key, const std::shared_ptr<const Expect> &e);
  void expect(std::string_view key, const Expect *e);

  void cellFields(const MatrixCell &c);

  void determinism(const Determinism &d);

  void mockResponse(const MockResponse &r);

  void mockRoutes(std::string_view key, const std::vector<MockRoute> &routes);

  void mock(const Mock &m);

  void service(const Service &s);

  void fault(const Fault &f);

  void assumption(const FaultAssumption &a);

  void matrix(const Matrix &m);

  void test(const Test &t);

  JsonWriter w_;
};

} // namespace fbc::ir::json_detail
