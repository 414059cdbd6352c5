// A lazily maintained name -> position index over a vector, for the
// find-by-name lookups of the IR and its builder, which would otherwise
// scan (a large spec has thousands of services, assumptions and tests, and
// the builder looks one up per registration). Entries are added as the
// vector grows; a hit is checked against the element's current name; the
// first element of a name wins, as a linear scan's would. Copies and moves
// start empty (the index is rebuilt on first use).
#pragma once

#include <llvm/ADT/StringMap.h>

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace fbc::ir {

class NameIndex {
public:
  NameIndex() = default;
  NameIndex(const NameIndex &) {}
  NameIndex(NameIndex &&) noexcept {}
  NameIndex &operator=(const NameIndex &) {
    reset();
    return *this;
  }
  NameIndex &operator=(NameIndex &&) noexcept {
    reset();
    return *this;
  }

  // The position of the first element of `vec` whose nameOf() is `name`,
  // or -1.
  template <class Vec, class NameOf>
  ptrdiff_t find(const Vec &vec, std::string_view name, NameOf nameOf) const {
    for (int attempt = 0; attempt < 2; ++attempt) {
      if (vec.size() < indexed_)
        reset();
      for (; indexed_ < vec.size(); ++indexed_) {
        std::string_view n = nameOf(vec[indexed_]);
        map_.try_emplace(llvm::StringRef(n.data(), n.size()), uint32_t(indexed_));
      }
      auto it = map_.find(llvm::StringRef(name.data(), name.size()));
      if (it == map_.end())
        return -1;
      if (nameOf(vec[it->second]) == name)
        return it->second;
      reset(); // an element was renamed in place: rebuild once
    }
    return -1;
  }

private:
  void reset() const {
    map_.clear();
    indexed_ = 0;
  }
  mutable llvm::StringMap<uint32_t> map_;
  mutable size_t indexed_ = 0;
};

} // namespace fbc::ir
