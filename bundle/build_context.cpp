#include "bundle/build_context.h"

#include "bundle/archive.h"
#include "ir/quote.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SHA256.h>

#include <algorithm>
#include <vector>

namespace fbc::bundle {

bool encodeBuildContext(const std::string &dir, std::string &bytes, std::string &digest,
                        std::string &error) {
  if (!llvm::sys::fs::is_directory(dir)) {
    error = "not a directory";
    return false;
  }
  if (!llvm::sys::fs::exists(dir + "/Dockerfile")) {
    error = "no Dockerfile in it";
    return false;
  }
  std::vector<Entry> entries;
  std::error_code ec;
  for (llvm::sys::fs::recursive_directory_iterator it(dir, ec, /*follow_symlinks=*/false), end;
       it != end && !ec; it.increment(ec)) {
    std::string rel = it->path().substr(dir.size() + 1);
    llvm::ErrorOr<llvm::sys::fs::basic_file_status> st = it->status();
    if (!st) {
      error = "cannot read " + ir::quote(rel) + ": " + st.getError().message();
      return false;
    }
    if (st->type() == llvm::sys::fs::file_type::directory_file)
      continue;
    if (st->type() != llvm::sys::fs::file_type::regular_file) {
      error = ir::quote(rel) + " is not a regular file (a build context holds files and folders)";
      return false;
    }
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> data =
        llvm::MemoryBuffer::getFile(it->path(), /*IsText=*/false, /*RequiresNullTerminator=*/false);
    if (!data) {
      error = "cannot read " + ir::quote(rel) + ": " + data.getError().message();
      return false;
    }
    entries.push_back({rel, (*data)->getBuffer().str(), st->permissions() & 0777u});
  }
  if (ec) {
    error = "cannot list it: " + ec.message();
    return false;
  }
  std::sort(entries.begin(), entries.end(),
            [](const Entry &a, const Entry &b) { return a.name < b.name; });
  llvm::SHA256 hash;
  for (const Entry &e : entries) {
    std::string head =
        e.name + '\0' + std::to_string(e.mode) + '\0' + std::to_string(e.data.size()) + '\0';
    hash.update(head);
    hash.update(e.data);
  }
  digest = llvm::toHex(hash.final(), /*LowerCase=*/true);
  llvm::Expected<std::string> tar = encodeArchive(entries, {Compression::Gzip, 6});
  if (!tar) {
    error = llvm::toString(tar.takeError());
    return false;
  }
  bytes = std::move(*tar);
  return true;
}

} // namespace fbc::bundle
