#include "runtime/os/output_capture.h"

#include <sys/epoll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string_view>
#include <vector>

namespace fbc::rt {

OutputCapture::OutputCapture(EventLoop &loop, int fd, std::string prefix, StreamWriter *stream,
                             size_t cap)
    : loop_(loop), fd_(fd), prefix_(std::move(prefix)), stream_(stream), cap_(cap) {}

OutputCapture::~OutputCapture() {
  if (fd_ >= 0)
    close(fd_);
}

void OutputCapture::start() {
  loop_.add(fd_, EPOLLIN, this);
}

void OutputCapture::onEvents(uint32_t) {
  drain();
}

void OutputCapture::drain() {
  if (fd_ < 0)
    return;
  char buf[16384];
  for (;;) {
    ssize_t n = read(fd_, buf, sizeof buf);
    if (n > 0) {
      {
        std::lock_guard lock(mu_);
        captured_.append(buf, static_cast<size_t>(n));
        if (captured_.size() > cap_)
          captured_.erase(0, captured_.size() - cap_);
      }
      stream(buf, static_cast<size_t>(n));
      observe(buf, static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR)
      continue;
    if (n == 0) { // every writer is gone
      loop_.remove(fd_);
      close(fd_);
      fd_ = -1;
    }
    return; // EAGAIN or EOF
  }
}

void OutputCapture::stream(const char *data, size_t n) {
  if (!stream_)
    return;
  partial_.append(data, n);
  size_t start = 0, nl;
  std::string out;
  for (;;) {
    nl = partial_.find('\n', start);
    if (nl != std::string::npos && nl - start < kMaxLine) {
      out += prefix_;
      out.append(partial_, start, nl - start + 1);
      start = nl + 1;
    } else if (partial_.size() - start >= kMaxLine) {
      out += prefix_;
      out.append(partial_, start, kMaxLine);
      out += " [line split by fbc]\n";
      start += kMaxLine;
    } else {
      break;
    }
  }
  partial_.erase(0, start);
  if (!out.empty())
    stream_->write(out);
}

void OutputCapture::observe(const char *data, size_t n) {
  if (!sink_)
    return;
  sinkPartial_.append(data, n);
  size_t start = 0;
  for (;;) {
    size_t nl = sinkPartial_.find('\n', start);
    size_t len = nl == std::string::npos ? sinkPartial_.size() - start : nl - start;
    if (nl == std::string::npos && len < kMaxLine)
      break;
    len = std::min(len, kMaxLine);
    sink_(std::string_view(sinkPartial_).substr(start, len));
    start += len + (nl != std::string::npos && start + len == nl ? 1 : 0);
  }
  sinkPartial_.erase(0, start);
}

void OutputCapture::finish() {
  drain();
  if (sink_ && !sinkPartial_.empty()) {
    sink_(sinkPartial_);
    sinkPartial_.clear();
  }
  if (fd_ >= 0) {
    loop_.remove(fd_);
    close(fd_);
    fd_ = -1;
  }
  if (stream_ && !partial_.empty()) {
    stream_->write(prefix_ + partial_ + "\n");
    partial_.clear();
  }
}

std::string OutputCapture::text() const {
  std::lock_guard lock(mu_);
  return captured_;
}

std::string OutputCapture::lastLinesOf(std::string_view text, size_t maxLines) {
  std::string_view rest(text);
  while (!rest.empty() && (rest.back() == '\n' || rest.back() == '\r'))
    rest.remove_suffix(1);
  std::vector<std::string_view> lines; // last first
  while (!rest.empty() && lines.size() < maxLines) {
    size_t nl = rest.rfind('\n');
    std::string_view line = nl == std::string_view::npos ? rest : rest.substr(nl + 1);
    if (!line.empty() && line.back() == '\r')
      line.remove_suffix(1);
    lines.push_back(line);
    rest = nl == std::string_view::npos ? std::string_view() : rest.substr(0, nl);
  }
  std::string out;
  for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
    if (!out.empty())
      out += '\n';
    if (it->size() <= kMaxTailLine) {
      out += *it;
      continue;
    }
    // Cut on a UTF-8 character boundary.
    size_t cut = kMaxTailLine;
    while (cut > 0 && (static_cast<unsigned char>((*it)[cut]) & 0xC0) == 0x80)
      --cut;
    out.append(it->substr(0, cut));
    out += " [line clipped by fbc]";
  }
  return out;
}

} // namespace fbc::rt
