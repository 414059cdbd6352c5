#include "runtime/clients/steps.h"

#include "runtime/clients/tcp_dial.h"
#include "runtime/trace/trace.h"

#include <curl/curl.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>

namespace fbc::rt {
namespace {

struct BodySink {
  std::string &body;
  bool overLimit = false;
};

size_t onBody(char *data, size_t size, size_t n, void *user) {
  auto *sink = static_cast<BodySink *>(user);
  size_t len = size * n;
  if (sink->body.size() + len > kMaxHttpBody) {
    sink->overLimit = true;
    return 0; // curl stops with CURLE_WRITE_ERROR
  }
  sink->body.append(data, len);
  return len;
}

size_t onHeader(char *data, size_t size, size_t n, void *user) {
  auto *out = static_cast<std::vector<std::pair<std::string, std::string>> *>(user);
  size_t len = size * n;
  std::string_view line(data, len);
  if (line.starts_with("HTTP/")) {
    out->clear(); // a new response (after a 100 Continue or a redirect)
    return len;
  }
  size_t colon = line.find(':');
  if (colon == std::string_view::npos)
    return len;
  std::string name(line.substr(0, colon));
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  std::string_view value = line.substr(colon + 1);
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
    value.remove_prefix(1);
  while (!value.empty() && (value.back() == '\r' || value.back() == '\n' || value.back() == ' '))
    value.remove_suffix(1);
  out->emplace_back(std::move(name), std::string(value));
  return len;
}

int onProgress(void *user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  auto *cancelled = static_cast<const std::function<bool()> *>(user);
  return (*cancelled && (*cancelled)()) ? 1 : 0;
}

std::string trimSpace(std::string s) {
  auto sp = [](unsigned char c) { return std::isspace(c) != 0; };
  while (!s.empty() && sp(static_cast<unsigned char>(s.back())))
    s.pop_back();
  size_t i = 0;
  while (i < s.size() && sp(static_cast<unsigned char>(s[i])))
    ++i;
  return s.substr(i);
}

} // namespace

HttpStepResponse httpStep(const HttpStepRequest &req, const std::function<bool()> &cancelled) {
  HttpStepResponse out;
  int64_t t0 = monotonicNs();
  CURL *c = curl_easy_init();
  if (!c) {
    out.error = std::string("curl_easy_init failed: ") + curl_easy_strerror(CURLE_FAILED_INIT);
    return out;
  }
  curl_slist *headers = nullptr;
  for (const auto &[k, v] : req.headers)
    headers = curl_slist_append(headers, (k + ": " + v).c_str());
  // No "Expect: 100-continue" round trip on bodies.
  headers = curl_slist_append(headers, "Expect:");
  char errbuf[CURL_ERROR_SIZE] = {};
  curl_easy_setopt(c, CURLOPT_URL, req.url.c_str());
  curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, req.method.c_str());
  if (req.method == "GET")
    curl_easy_setopt(c, CURLOPT_HTTPGET, 1L);
  if (req.hasBody) {
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, req.body.data());
    curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(req.body.size()));
  }
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);
  if (req.http2)
    curl_easy_setopt(c, CURLOPT_HTTP_VERSION,
                     static_cast<long>(CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE));
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(req.timeoutMs));
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, 5000L);
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_NOPROXY, "*");
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, onBody);
  BodySink sink{out.body};
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &sink);
  curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, onHeader);
  curl_easy_setopt(c, CURLOPT_HEADERDATA, &out.headers);
  curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, onProgress);
  curl_easy_setopt(c, CURLOPT_XFERINFODATA, &cancelled);
  curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
  setCurlTls(c, req.tls.get());
  CURLcode rc = curl_easy_perform(c);
  if (rc == CURLE_OK) {
    out.ok = true;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &out.status);
    out.body = trimSpace(std::move(out.body));
  } else {
    out.error = sink.overLimit ? "the response body is over fbc's limit of " +
                                     std::to_string(kMaxHttpBody) + " bytes"
                : rc == CURLE_ABORTED_BY_CALLBACK ? "cancelled"
                : errbuf[0]                       ? errbuf
                                                  : curl_easy_strerror(rc);
    out.body.clear();
    out.headers.clear();
  }
  curl_slist_free_all(headers);
  curl_easy_cleanup(c);
  out.durationMs = (monotonicNs() - t0) / 1000000;
  return out;
}

void setCurlTls(void *curl, const TlsClientConfig *tls) {
  if (!tls)
    return;
  CURL *c = static_cast<CURL *>(curl);
  if (tls->insecure) {
    curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 0L);
    curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 0L);
  } else if (!tls->ca.empty()) {
    curl_easy_setopt(c, CURLOPT_CAINFO, tls->ca.c_str());
  }
  if (!tls->cert.empty()) {
    curl_easy_setopt(c, CURLOPT_SSLCERT, tls->cert.c_str());
    curl_easy_setopt(c, CURLOPT_SSLKEY, tls->key.c_str());
  }
}

TcpStepResult tcpStep(const std::string &host, uint16_t port, const std::string &data,
                      const std::function<bool()> &cancelled, const TlsClientConfig *tls) {
  TcpStepResult out;
  int64_t t0 = monotonicNs();
  std::string line = data;
  if (line.empty() || line.back() != '\n')
    line += '\n';
  std::string reply;
  // EOF before a newline is an error: the reply line never came whole (a
  // service that closes without answering must not read as an empty success).
  out.error = exchangeOnce(
      host, port, line, t0 + 5 * 1000000000LL, 10000, cancelled,
      [&](std::string_view chunk, std::string &error) {
        size_t before = reply.size();
        reply.append(chunk);
        if (reply.find('\n', before) != std::string::npos)
          return ReplyState::Done;
        if (reply.size() <= kMaxTcpReply)
          return ReplyState::NeedMore;
        error =
            "read: the reply exceeds " + std::to_string(kMaxTcpReply) + " bytes without a newline";
        return ReplyState::Failed;
      },
      "connection closed before a reply line", tls);
  out.durationMs = (monotonicNs() - t0) / 1000000;
  if (!out.error.empty())
    return out;
  reply.resize(reply.find('\n'));
  while (!reply.empty() && (reply.back() == '\r' || reply.back() == ' '))
    reply.pop_back();
  out.ok = true;
  out.reply = std::move(reply);
  return out;
}

} // namespace fbc::rt
