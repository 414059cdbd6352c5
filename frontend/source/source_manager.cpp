#include "frontend/source/source_manager.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

namespace fbc::frontend {

SourceFile::SourceFile(std::string path, std::string text)
    : path_(std::move(path)), text_(std::move(text)) {
  lineStarts_.push_back(0);
  for (uint32_t i = 0; i < text_.size(); ++i)
    if (text_[i] == '\n' && i + 1 < text_.size())
      lineStarts_.push_back(i + 1);
}

std::string_view SourceFile::lineText(uint32_t line) const {
  if (line == 0 || line > lineStarts_.size())
    return {};
  uint32_t begin = lineStarts_[line - 1];
  uint32_t end = begin;
  while (end < text_.size() && text_[end] != '\n')
    ++end;
  if (end > begin && text_[end - 1] == '\r')
    --end;
  return std::string_view(text_).substr(begin, end - begin);
}

const SourceFile *SourceManager::load(const std::string &path, std::string &error) {
  // POSIX rather than an ifstream: a directory opens fine as a stream and
  // then reads as an empty file, which would load as an empty spec.
  auto failed = [&](int err) {
    error = path + ": " + std::strerror(err);
    return nullptr;
  };
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return failed(errno);
  std::string text;
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      int err = errno; // EISDIR for a directory
      ::close(fd);
      return failed(err);
    }
    if (n == 0)
      break;
    text.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return add(path, std::move(text));
}

const SourceFile *SourceManager::add(std::string path, std::string text) {
  files_.push_back(std::make_unique<SourceFile>(std::move(path), std::move(text)));
  return files_.back().get();
}

const SourceFile *SourceManager::find(std::string_view path) const {
  for (auto it = files_.rbegin(); it != files_.rend(); ++it)
    if ((*it)->path() == path)
      return it->get();
  return nullptr;
}

} // namespace fbc::frontend
