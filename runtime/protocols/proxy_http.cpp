// The proxy's HTTP/1.1 codec (proxy_protocol.h), framing requests and
// responses with nodejs http-parser (Debian libhttp-parser-dev; see
// docs/architecture.md for why that one). The parser is incremental, so
// the codec remembers how much of the unforwarded bytes it has fed already
// and never feeds a byte twice; the proxy relays every byte as it was
// received, so keep-alive connections, chunked bodies and pipelined
// requests pass through untouched.
//
// Units: a request whose body is all here is one Request; otherwise its
// head (and the body bytes seen so far) is a Head and the rest arrive as
// Body units, so a large upload streams instead of being buffered.
#include "runtime/protocols/proxy_http.h"

#include <http_parser.h>

#include <cstring>
#include <deque>

namespace fbc::rt {
namespace {

std::string jsonEscape(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out;
}

class HttpCodec final : public ProtocolCodec {
public:
  HttpCodec() {
    http_parser_settings_init(&reqSettings_);
    reqSettings_.on_message_begin = [](http_parser *p) {
      self(p)->url_.clear();
      return 0;
    };
    reqSettings_.on_url = [](http_parser *p, const char *at, size_t n) {
      self(p)->url_.append(at, n);
      return 0;
    };
    reqSettings_.on_headers_complete = [](http_parser *p) {
      self(p)->event_ = Event::Headers;
      http_parser_pause(p, 1);
      return 0;
    };
    reqSettings_.on_message_complete = [](http_parser *p) {
      self(p)->event_ = Event::Complete;
      http_parser_pause(p, 1);
      return 0;
    };
    http_parser_init(&req_, HTTP_REQUEST);
    req_.data = this;

    http_parser_settings_init(&respSettings_);
    respSettings_.on_headers_complete = [](http_parser *p) {
      HttpCodec *c = self(p);
      // A response to HEAD has no body whatever its Content-Length says.
      bool head = !c->methods_.empty() && c->methods_.front() == HTTP_HEAD;
      return head ? 1 : 0;
    };
    respSettings_.on_message_complete = [](http_parser *p) {
      HttpCodec *c = self(p);
      if (p->status_code < 200)
        return 0; // 100 Continue and friends precede the real response
      ++c->ended_;
      c->status_ = std::to_string(p->status_code);
      if (!c->methods_.empty())
        c->methods_.pop_front();
      return 0;
    };
    http_parser_init(&resp_, HTTP_RESPONSE);
    resp_.data = this;
  }

  RequestInfo splitRequest(std::string_view pending) override {
    RequestInfo out;
    if (upgraded_) {
      out.split = Split::NotThisProtocol;
      out.length = pending.size();
      return out;
    }
    while (fed_ < pending.size()) {
      event_ = Event::None;
      size_t n =
          http_parser_execute(&req_, &reqSettings_, pending.data() + fed_, pending.size() - fed_);
      fed_ += n;
      if (HTTP_PARSER_ERRNO(&req_) == HPE_PAUSED) {
        http_parser_pause(&req_, 0);
        if (event_ == Event::Headers) {
          headers_ = true;
          method_ = http_method_str(static_cast<http_method>(req_.method));
          keepAlive_ = http_should_keep_alive(&req_) != 0;
          continue;
        }
        // The message is complete: a whole Request, or the last Body unit.
        out.split = inBody_ ? Split::Body : Split::Request;
        out.length = fed_;
        out.last = true;
        fillFields(out);
        if (!inBody_)
          methods_.push_back(req_.method);
        fed_ = 0;
        headers_ = inBody_ = false;
        upgraded_ = req_.upgrade;
        return out;
      }
      if (HTTP_PARSER_ERRNO(&req_) != HPE_OK) {
        out.split = Split::NotThisProtocol;
        out.length = pending.size();
        return out;
      }
    }
    // Everything here is parsed and the message has not ended.
    if (inBody_ && fed_ > 0) {
      out.split = Split::Body;
    } else if (headers_ && !inBody_) {
      out.split = Split::Head;
      fillFields(out);
      methods_.push_back(req_.method);
      inBody_ = true;
    } else {
      return out; // NeedMore
    }
    out.length = fed_;
    fed_ = 0;
    return out;
  }

  size_t feedResponse(std::string_view bytes, std::string &status) override {
    if (respBroken_)
      return bytes.empty() ? 0 : SIZE_MAX; // cannot frame: owe nothing
    ended_ = 0;
    size_t n = http_parser_execute(&resp_, &respSettings_, bytes.data(), bytes.size());
    if (n != bytes.size() || HTTP_PARSER_ERRNO(&resp_) != HPE_OK) {
      respBroken_ = true;
      return SIZE_MAX;
    }
    if (ended_)
      status = status_;
    return ended_;
  }

  std::string reply(const ReplySpec &spec, const RequestInfo &req) override {
    // The request is answered here, so the server owes no response for it.
    if (!methods_.empty())
      methods_.pop_back();
    HttpReply r = httpReply(spec);
    return "HTTP/1.1 " + std::to_string(r.status) + " " + r.reason +
           "\r\nContent-Type: application/json\r\nContent-Length: " +
           std::to_string(r.body.size()) + (req.closeAfter ? "\r\nConnection: close" : "") +
           "\r\n\r\n" + r.body;
  }

private:
  enum class Event { None, Headers, Complete };
  static HttpCodec *self(http_parser *p) { return static_cast<HttpCodec *>(p->data); }

  void fillFields(RequestInfo &out) const {
    out.method = method_;
    out.closeAfter = !keepAlive_;
    std::string_view path = url_;
    // An absolute-form target (a client speaking to a proxy) still matches by path.
    if (size_t scheme = path.find("://"); scheme != std::string_view::npos && path[0] != '/') {
      size_t slash = path.find('/', scheme + 3);
      path = slash == std::string_view::npos ? "/" : path.substr(slash);
    }
    out.target = std::string(path.substr(0, path.find_first_of("?#")));
  }

  http_parser req_{}, resp_{};
  http_parser_settings reqSettings_{}, respSettings_{};
  size_t fed_ = 0; // bytes at the front of `pending` already fed to req_
  bool headers_ = false, inBody_ = false, upgraded_ = false, keepAlive_ = true;
  Event event_ = Event::None;
  std::string url_, method_;
  std::deque<unsigned> methods_; // requests the server has yet to answer
  size_t ended_ = 0;
  std::string status_;
  bool respBroken_ = false;
};

} // namespace

HttpReply httpReply(const ReplySpec &spec) {
  HttpReply r;
  r.status = spec.status ? spec.status : spec.kind == ReplyKind::Error ? 500 : 200;
  r.reason = http_status_str(static_cast<http_status>(r.status));
  if (r.reason == "<unknown>")
    r.reason = "Fault";
  if (spec.hasBody)
    r.body = spec.body;
  else if (spec.kind == ReplyKind::Error)
    r.body = "{\"error\":\"" +
             jsonEscape(spec.message.empty() ? http_status_str(static_cast<http_status>(r.status))
                                             : spec.message) +
             "\"}";
  return r;
}

std::unique_ptr<ProtocolCodec> makeHttpCodec() {
  return std::make_unique<HttpCodec>();
}

} // namespace fbc::rt
