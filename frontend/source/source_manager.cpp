#include "frontend/source/source_manager.h"

#include <llvm/Support/MemoryBuffer.h>

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
  // LLVM's reader reports a directory as EISDIR (an ifstream opens it and
  // reads it as an empty file, which would load as an empty spec).
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buf =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!buf) {
    error = path + ": " + buf.getError().message();
    return nullptr;
  }
  return add(path, std::string((*buf)->getBuffer()));
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

std::vector<const SourceFile *> SourceManager::files() const {
  std::vector<const SourceFile *> out;
  for (const std::unique_ptr<SourceFile> &f : files_)
    out.push_back(f.get());
  return out;
}

} // namespace fbc::frontend
