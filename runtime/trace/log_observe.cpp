#include "runtime/trace/log_observe.h"

#include "ir/json_writer.h"

#include <algorithm>
#include <re2/re2.h>
#include <simdjson.h>

namespace fbc::rt {

namespace {

// The fields as one JSON object, in order (the "data" of logfmt and regex).
std::string asJsonObject(const LogFields &fields) {
  std::string out;
  ir::JsonWriter w(out, 0);
  w.beginObject(/*inlined=*/true);
  for (const auto &[k, v] : fields)
    w.field(k, v);
  w.endObject();
  w.finish();
  while (!out.empty() && out.back() == '\n')
    out.pop_back();
  return out;
}

LogFields decodeJson(std::string_view line) {
  LogFields out;
  static thread_local simdjson::dom::parser parser; // lines are decoded on the loop thread
  simdjson::padded_string padded(line);
  simdjson::dom::element doc;
  simdjson::dom::object object;
  if (parser.parse(padded).get(doc) == simdjson::SUCCESS &&
      doc.get_object().get(object) == simdjson::SUCCESS) {
    for (simdjson::dom::key_value_pair kv : object) {
      std::string value;
      if (kv.value.is_string())
        value = std::string(kv.value.get_string().value_unsafe());
      else
        value = simdjson::minify(kv.value);
      out.emplace_back(std::string(kv.key), std::move(value));
    }
  }
  out.emplace_back("data", std::string(line));
  return out;
}

// key=value key2="value with spaces": the reference's reading (a quoted
// value ends at the next '"'; a key is everything up to the next '=', so a
// stray word joins the next key; text without '=' ends the pairs).
LogFields decodeLogfmt(std::string_view line) {
  LogFields out;
  while (!line.empty()) {
    size_t skip = line.find_first_not_of(" \t");
    if (skip == std::string_view::npos)
      break;
    line.remove_prefix(skip);
    size_t eq = line.find('=');
    if (eq == std::string_view::npos)
      break;
    std::string key(line.substr(0, eq));
    line.remove_prefix(eq + 1);
    std::string value;
    if (!line.empty() && line[0] == '"') {
      size_t end = line.find('"', 1);
      value = std::string(line.substr(1, end == std::string_view::npos ? line.npos : end - 1));
      line = end == std::string_view::npos ? std::string_view() : line.substr(end + 1);
    } else {
      size_t sp = line.find_first_of(" \t");
      value = std::string(line.substr(0, sp));
      line = sp == std::string_view::npos ? std::string_view() : line.substr(sp);
    }
    bool replaced = false;
    for (auto &kv : out)
      if (kv.first == key) {
        kv.second = value; // a repeated key: the last one wins
        replaced = true;
      }
    if (!replaced)
      out.emplace_back(std::move(key), std::move(value));
  }
  std::string data = asJsonObject(out);
  out.emplace_back("data", std::move(data));
  return out;
}

} // namespace

LineDecoder::LineDecoder(const ir::ObserveSource &src) : kind_(src.decoder) {
  if (kind_ == "regex") {
    RE2::Options opts;
    opts.set_log_errors(false);
    re_ = std::make_unique<RE2>(src.pattern, opts); // checked at load time
  }
}

LineDecoder::~LineDecoder() = default;

LogFields LineDecoder::decode(std::string_view line) const {
  if (kind_ == "json")
    return decodeJson(line);
  if (kind_ == "logfmt")
    return decodeLogfmt(line);
  if (kind_ == "regex" && re_ && re_->ok()) {
    int n = re_->NumberOfCapturingGroups();
    std::vector<re2::StringPiece> groups(static_cast<size_t>(n) + 1);
    if (re_->Match(re2::StringPiece(line.data(), line.size()), 0, line.size(), RE2::UNANCHORED,
                   groups.data(), n + 1)) {
      LogFields out;
      // Named groups in the pattern's order.
      std::vector<std::pair<int, std::string>> named;
      for (const auto &[name, index] : re_->NamedCapturingGroups())
        named.emplace_back(index, name);
      std::sort(named.begin(), named.end());
      for (const auto &[index, name] : named)
        out.emplace_back(name, std::string(groups[static_cast<size_t>(index)].data(),
                                           groups[static_cast<size_t>(index)].size()));
      std::string data = asJsonObject(out);
      out.emplace_back("data", std::move(data));
      return out;
    }
  }
  return {{"raw", std::string(line)}};
}

LogObserver::LogObserver(Trace &trace, ServiceId service, const ir::ObserveSource &src)
    : trace_(trace), service_(service),
      type_(src.stream == "stderr" ? EventType::Stderr : EventType::Stdout), decoder_(src) {}

void LogObserver::line(std::string_view line) {
  if (!line.empty() && line.back() == '\r')
    line.remove_suffix(1);
  if (line.empty())
    return;
  trace_.record(type_, service_, decoder_.decode(line));
}

} // namespace fbc::rt
