// load_file(path), load_json(path), load_yaml(path): data files read while
// the spec loads. Paths are relative to the root spec's folder (as the
// reference tool resolves them), network schemes are refused, a file larger
// than kMaxBytes is refused before it is read, and every file read is kept
// in the loaded spec's SourceManager so a run bundle's spec/ snapshot
// carries it (docs/bundle.md) and a replay reads the same bytes.
#include "frontend/lib/json/json.h"
#include "frontend/lib/numeric.h"
#include "frontend/lib/objects.h"
#include "ir/builtins/arg_util.h"
#include "ir/builtins/binder.h"
#include "ir/builtins/builtins.h"
#include "ir/builtins/data_files.h"
#include "ir/builtins/spec_builder.h"
#include "ir/builtins/surface.h"
#include "ir/quote.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/Path.h>

#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fcntl.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

namespace fbc::ir::builtins {

using star::Value;

std::string errnoText(int err) {
  std::string s = std::strerror(err);
  if (!s.empty())
    s[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(s[0])));
  return s;
}

namespace {

// The reference's cap: large enough for SQL dumps and descriptor sets.
constexpr uint64_t kMaxBytes = 50ull * 1024 * 1024;
// A YAML document whose aliases expand past max(this, its size in bytes)
// values is refused: without aliases a document never has more values than
// bytes, and a "billion laughs" file is small on disk and huge expanded.
constexpr uint64_t kMinYamlValueCap = 1'000'000;

// The one path argument (positional or path=), bound as Go's UnpackArgs
// binds it.
std::string pathArg(const CallSite &site, const star::Args &args, const char *fn) {
  Value v;
  bindSlots(BindCall(site, args, {fn, UnknownForm::Go}), {"path"}, {&v});
  auto *s = v.as<star::String>();
  if (!s)
    site.fail(site.at(site.param(0, "path")),
              std::string(fn) + ": for parameter path: got " + typeOf(v) + ", want string");
  return std::string(s->view());
}

std::string fileKind(mode_t mode) {
  if (S_ISFIFO(mode))
    return "a FIFO";
  if (S_ISCHR(mode))
    return "a character device";
  if (S_ISBLK(mode))
    return "a block device";
  if (S_ISSOCK(mode))
    return "a socket";
  return "a special file";
}

} // namespace

const frontend::SourceFile &readDataFile(const CallSite &site, const Loc &at,
                                         const std::string &prefix, const std::string &path) {
  SpecBuilder &b = SpecBuilder::of(site.thread());
  if (path.find("://") != std::string::npos)
    site.fail(at, prefix + "network schemes are not supported: inline the content or download "
                           "it separately");
  if (path.empty())
    site.fail(at, prefix + "path must not be empty");
  if (!b.sources)
    site.fail(at, prefix + "data files can only be read while a spec loads");
  std::string resolved = path;
  if (!llvm::sys::path::is_absolute(path) && !b.specDir.empty()) {
    llvm::SmallString<256> joined(b.specDir);
    llvm::sys::path::append(joined, path);
    resolved = std::string(joined.str());
  }
  if (const frontend::SourceFile *f = b.sources->find(resolved))
    return *f;
  // O_NONBLOCK: the open of a FIFO with no writer would wait forever; it is
  // refused below with every other file that is not a regular one.
  int fd = ::open(resolved.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    site.fail(at, prefix + "open " + resolved + ": " + errnoText(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    int err = errno;
    ::close(fd);
    site.fail(at, prefix + "stat " + resolved + ": " + errnoText(err));
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    site.fail(at, prefix + "path is a directory");
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    site.fail(at, prefix + "not a regular file (" + fileKind(st.st_mode) +
                      "): a data file is read once, whole, and kept in the bundle");
  }
  // /proc and /sys files are the machine's state, not the spec's data (a
  // spec reading /proc/self/environ would copy fbc's environment into its
  // bundle's spec/ snapshot).
  if (struct statfs fs{};
      ::fstatfs(fd, &fs) == 0 && (fs.f_type == PROC_SUPER_MAGIC || fs.f_type == SYSFS_MAGIC)) {
    ::close(fd);
    site.fail(at, prefix + "is on " + (fs.f_type == PROC_SUPER_MAGIC ? "/proc" : "/sys") +
                      ": the machine's state is not a data file (it would be copied into the "
                      "bundle)");
  }
  ::fcntl(fd, F_SETFL, 0);
  if (static_cast<uint64_t>(st.st_size) > kMaxBytes) {
    ::close(fd);
    site.fail(at, prefix + std::to_string(st.st_size) + " bytes exceeds the " +
                      std::to_string(kMaxBytes) + "-byte limit on data files");
  }
  std::string text;
  char buf[65536];
  for (;;) {
    ssize_t r = ::read(fd, buf, sizeof buf);
    if (r < 0 && errno == EINTR)
      continue;
    if (r < 0) {
      int err = errno;
      ::close(fd);
      site.fail(at, prefix + "read " + resolved + ": " + errnoText(err));
    }
    if (r == 0)
      break;
    text.append(buf, static_cast<size_t>(r));
    if (text.size() > kMaxBytes) { // grew while being read
      ::close(fd);
      site.fail(at, prefix + "more than " + std::to_string(kMaxBytes) +
                        " bytes: exceeds the limit on data files");
    }
  }
  ::close(fd);
  return *b.sources->add(resolved, std::move(text));
}

namespace {

// Records the call in the IR and returns the file's text.
const std::string &loadData(star::Thread &t, const star::Args &args, const char *fn,
                            std::string &path, std::string &resolved) {
  SpecBuilder &b = SpecBuilder::of(t);
  CallSite site(t, b.callSites);
  b.requireLoading(site, fn);
  path = pathArg(site, args, fn);
  const frontend::SourceFile &f = readDataFile(site, site.at(site.param(0, "path")),
                                               std::string(fn) + "(" + quote(path) + "): ", path);
  resolved = f.path();
  b.dataFiles.push_back({fn, path, f.text().size(), site.loc()});
  return f.text();
}

// "line:col" of a byte offset in `text` (1-based, columns in bytes).
std::string lineCol(const std::string &text, size_t offset) {
  offset = std::min(offset, text.size());
  size_t line = 1, col = 1;
  for (size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return std::to_string(line) + ":" + std::to_string(col);
}

// ------------------------------------------------------------------ YAML

// A plain (unquoted, untagged) scalar resolved by the YAML 1.2 core schema:
// null, bool, int (decimal, 0o, 0x), float (with .inf and .nan), else str.
Value plainScalar(star::Heap &h, const std::string &s) {
  if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL")
    return star::none();
  if (s == "true" || s == "True" || s == "TRUE")
    return star::boolean(true);
  if (s == "false" || s == "False" || s == "FALSE")
    return star::boolean(false);
  std::string_view body = s;
  bool negative = false;
  if (!body.empty() && (body[0] == '-' || body[0] == '+')) {
    negative = body[0] == '-';
    body.remove_prefix(1);
  }
  auto integer = [&](std::string_view digits, int base) -> std::optional<Value> {
    if (digits.empty())
      return std::nullopt;
    int64_t v = 0;
    auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v, base);
    if (ec != std::errc() || p != digits.data() + digits.size())
      return std::nullopt;
    return star::makeInt(h, negative ? -v : v);
  };
  if (body.size() > 2 && body[0] == '0' && body[1] == 'x')
    if (auto v = integer(body.substr(2), 16))
      return *v;
  if (body.size() > 2 && body[0] == '0' && body[1] == 'o')
    if (auto v = integer(body.substr(2), 8))
      return *v;
  bool digitsOnly = !body.empty();
  for (char c : body)
    digitsOnly &= c >= '0' && c <= '9';
  if (digitsOnly)
    if (auto v = integer(body, 10))
      return *v;
  if (body == ".inf" || body == ".Inf" || body == ".INF")
    return star::makeFloat(h, negative ? -INFINITY : INFINITY);
  if (s == ".nan" || s == ".NaN" || s == ".NAN")
    return star::makeFloat(h, NAN);
  // [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
  size_t i = 0, intDigits = 0, fracDigits = 0;
  while (i < body.size() && body[i] >= '0' && body[i] <= '9')
    ++i, ++intDigits;
  bool dot = i < body.size() && body[i] == '.';
  if (dot) {
    ++i;
    while (i < body.size() && body[i] >= '0' && body[i] <= '9')
      ++i, ++fracDigits;
  }
  bool ok = intDigits > 0 || fracDigits > 0;
  if (ok && i < body.size() && (body[i] == 'e' || body[i] == 'E')) {
    ++i;
    if (i < body.size() && (body[i] == '-' || body[i] == '+'))
      ++i;
    size_t expDigits = 0;
    while (i < body.size() && body[i] >= '0' && body[i] <= '9')
      ++i, ++expDigits;
    ok = expDigits > 0;
  } else if (ok && !dot) {
    ok = false; // an integer too large for int64: keep the text
  }
  if (ok && i == body.size())
    return star::makeFloat(h, std::strtod(s.c_str(), nullptr));
  return star::makeString(h, s);
}

class YamlConverter {
public:
  YamlConverter(star::Thread &t, const CallSite &site, Loc at, std::string prefix, std::string file,
                uint64_t maxValues)
      : t_(t), site_(site), at_(at), prefix_(std::move(prefix)), file_(std::move(file)),
        maxValues_(maxValues) {}

  Value convert(const YAML::Node &n) {
    if (++count_ > maxValues_)
      site_.fail(at_, prefix_ + "the document expands to more than " + std::to_string(maxValues_) +
                          " values (aliases)");
    switch (n.Type()) {
    case YAML::NodeType::Undefined:
    case YAML::NodeType::Null:
      return star::none();
    case YAML::NodeType::Scalar:
      return scalar(n);
    case YAML::NodeType::Sequence: {
      std::vector<Value> elems;
      elems.reserve(n.size());
      for (const YAML::Node &child : n)
        elems.push_back(convert(child));
      return Value::object(t_.heap.make<star::List>(std::move(elems)));
    }
    case YAML::NodeType::Map: {
      star::Dict *d = t_.heap.make<star::Dict>();
      for (const auto &kv : n) {
        // An OpenAPI document's `200:` keys are its text.
        Value key = keysAsText_ && kv.first.IsScalar()
                        ? star::makeString(t_.heap, kv.first.Scalar())
                        : convert(kv.first);
        if (!key.as<star::String>())
          site_.fail(at_, prefix_ + "non-string map key " +
                              (kv.first.IsScalar() ? kv.first.Scalar() : typeOf(key)) + " at " +
                              mark(kv.first.Mark()) +
                              ": Starlark dicts from data files have "
                              "string keys");
        d->put(t_, key, convert(kv.second));
      }
      return Value::object(d);
    }
    }
    __builtin_unreachable();
  }

  void keysAsText() { keysAsText_ = true; }

  std::string mark(const YAML::Mark &m) const {
    return file_ + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
  }

private:
  Value scalar(const YAML::Node &n) {
    const std::string &s = n.Scalar();
    const std::string &tag = n.Tag();
    if (tag == "!") // quoted or block scalar: a string
      return star::makeString(t_.heap, s);
    if (tag.empty() || tag == "?")
      return plainScalar(t_.heap, s);
    static const std::string kStd = "tag:yaml.org,2002:";
    if (tag.rfind(kStd, 0) == 0) {
      std::string kind = tag.substr(kStd.size());
      if (kind == "str")
        return star::makeString(t_.heap, s);
      Value v = plainScalar(t_.heap, s);
      bool fits = (kind == "null" && isNone(v)) || (kind == "bool" && v.as<star::Bool>()) ||
                  (kind == "int" && v.isSmallInt()) ||
                  (kind == "float" && (v.as<star::Float>() || v.isSmallInt()));
      if (fits)
        return kind == "float" && v.isSmallInt()
                   ? star::makeFloat(t_.heap, static_cast<double>(v.smallInt()))
                   : v;
      site_.fail(at_,
                 prefix_ + "cannot decode " + quote(s) + " as !!" + kind + " at " + mark(n.Mark()));
    }
    site_.fail(at_, prefix_ + "unsupported tag " + tag + " at " + mark(n.Mark()));
  }

  star::Thread &t_;
  const CallSite &site_;
  Loc at_;
  std::string prefix_;
  std::string file_; // the data file, for "file:line:col"
  uint64_t maxValues_;
  uint64_t count_ = 0;
  bool keysAsText_ = false;
};

} // namespace

Value loadFileFn(star::Thread &t, Value, const star::Args &args) {
  std::string path, resolved;
  const std::string &text = loadData(t, args, "load_file", path, resolved);
  return star::makeString(t.heap, text);
}

Value loadJsonFn(star::Thread &t, Value, const star::Args &args) {
  std::string path, resolved;
  const std::string &text = loadData(t, args, "load_json", path, resolved);
  try {
    return star::decodeJson(t, text);
  } catch (const star::EvalError &e) {
    // "json.decode: at offset N, why" -> "file:line:col: why".
    std::string why = e.message();
    static constexpr std::string_view kHead = "json.decode: at offset ";
    std::string where = resolved;
    if (why.rfind(kHead, 0) == 0) {
      size_t comma = why.find(", ", kHead.size());
      size_t offset = 0;
      std::string_view digits = std::string_view(why).substr(kHead.size(), comma - kHead.size());
      std::from_chars(digits.data(), digits.data() + digits.size(), offset);
      where += ":" + lineCol(text, offset);
      why = comma == std::string::npos ? why : why.substr(comma + 2);
    } else if (why.rfind("json.decode: ", 0) == 0) {
      why = why.substr(13);
    }
    CallSite site(t, SpecBuilder::of(t).callSites);
    site.fail(site.at(site.param(0, "path")),
              "load_json(" + quote(path) + "): malformed JSON: " + where + ": " + why);
  }
}

Value parseYamlData(const CallSite &site, const Loc &at, const std::string &prefix,
                    const frontend::SourceFile &f, bool keysAsText) {
  YAML::Node doc;
  try {
    doc = YAML::Load(f.text());
  } catch (const YAML::Exception &e) {
    site.fail(at, prefix + "malformed YAML: " + f.path() + ":" + std::to_string(e.mark.line + 1) +
                      ":" + std::to_string(e.mark.column + 1) + ": " + e.msg);
  }
  uint64_t cap = std::max<uint64_t>(kMinYamlValueCap, f.text().size());
  YamlConverter c(site.thread(), site, at, prefix, f.path(), cap);
  if (keysAsText)
    c.keysAsText();
  return c.convert(doc);
}

Value loadYamlFn(star::Thread &t, Value, const star::Args &args) {
  std::string path, resolved;
  loadData(t, args, "load_yaml", path, resolved);
  CallSite site(t, SpecBuilder::of(t).callSites);
  const frontend::SourceFile *f = SpecBuilder::of(t).sources->find(resolved);
  return parseYamlData(site, site.at(site.param(0, "path")), "load_yaml(" + quote(path) + "): ", *f,
                       false);
}

} // namespace fbc::ir::builtins
