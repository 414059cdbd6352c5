// What `fbc report` renders at most, and the record of what it cut
// (docs/report.md "Limits"). A bundle is a file from anywhere: a few KB of
// zstd hold a gigabyte of JSON, so without bounds a tiny bundle could ask
// for a page of hundreds of megabytes (or more memory than the machine
// has). Each bound below cuts what passes it and counts the cut; the page
// lists every cut in a banner, and `fbc report` says so on stderr.
#pragma once

#include "ir/json_writer.h"

#include <simdjson.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fbc::bundle {

struct ReportLimits {
  size_t maxRows = 10000;      // tests-table rows (and trace entries read)
  size_t maxItems = 5000;      // elements of one list: a trace's events, cells, plan tests...
  size_t maxString = 64 << 10; // bytes of one string (a name, a reason, an event field)
  size_t maxDepth = 32;        // nesting of a value copied from trace.json
  size_t maxText = 4 << 20;    // bytes of one spec file or one service's stdout or stderr
  size_t maxLeafFields = 64;   // leaf fields of one row (its label)
  size_t maxData = 64 << 20;   // bytes of the page's data in all, as the page holds it
};

// The page data's budget and the cuts made to keep to it. Sizes count the
// data as the page holds it: the JSON plus what the script element's
// escaping adds (<, > and & become 6 bytes, U+2028/9 6 instead of 3).
class ReportBudget {
public:
  ReportBudget(const std::string &out, const ReportLimits &limits) : out_(out), limits_(limits) {}
  const ReportLimits &limits() const { return limits_; }

  // Whether the data is still under maxData; when not, the caller stops a
  // list and calls cutItems() with what it left out.
  bool room() const { return size() < limits_.maxData; }
  // `s` kept whole, or cut to `cap` bytes (and to the room left) at a UTF-8
  // boundary and marked "… [fbc: cut, N bytes in all]"; a cut is counted
  // under `what` ("strings cut to 65536 bytes").
  std::string clip(std::string_view s, size_t cap, const std::string &what);
  std::string clip(std::string_view s) { return clip(s, limits_.maxString, stringsWhat()); }
  // Counts `n` things not shown, under the phrase `what` (the notice reads
  // "<what>: <n>").
  void cut(const std::string &what, uint64_t n);
  // The list items a full budget left out.
  void cutItems(uint64_t n) { cut(itemsWhat(), n); }
  std::string itemsWhat() const;
  // Calls f(x) for the first `max` elements of `a` while there is room;
  // counts the others under `what`, or as left out by a full budget.
  template <typename F>
  void each(simdjson::dom::array a, size_t max, const std::string &what, F f) {
    size_t n = 0, total = 0;
    for (simdjson::dom::element x : a) {
      ++total;
      if (n < max && room()) {
        ++n;
        f(x);
      }
    }
    if (n < total)
      cut(n >= max ? what : itemsWhat(), total - n);
  }
  // Copies a JSON value: arrays and objects to their first maxItems
  // members, strings and keys through clip(), nesting to maxDepth, and
  // nothing once the budget is spent.
  void copy(ir::JsonWriter &w, simdjson::dom::element e, size_t depth = 0);
  // "<what>: <n>" per kind of cut, in the order first made.
  std::vector<std::string> notices() const;

private:
  uint64_t size() const { return out_.size() + escapes_; }
  std::string stringsWhat() const;

  const std::string &out_;
  const ReportLimits &limits_;
  uint64_t escapes_ = 0; // bytes the script escaping adds to what was kept
  std::vector<std::pair<std::string, uint64_t>> cuts_;
};

// The events of trace entry `t` the page keeps: its first maxItems, as
// ReportBudget::copy keeps them (what the page's per-event data indexes).
std::vector<simdjson::dom::element> keptEvents(const ReportLimits &limits,
                                               simdjson::dom::element t);
// An event's "fields" object (the event itself when it has none, so a
// lookup of a missing key finds nothing).
simdjson::dom::element eventFields(simdjson::dom::element e);
// e[key] as a string: "" when `e` is not an object or has no string there.
std::string_view stringAt(simdjson::dom::element e, const char *key);

} // namespace fbc::bundle
