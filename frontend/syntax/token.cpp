#include "frontend/syntax/token.h"

namespace fbc::syntax {

const char *tokenName(Tok t) {
  static constexpr const char *kNames[] = {
#define TOKEN(Name, spelling) spelling,
#include "frontend/syntax/tokens.def"
  };
  static_assert(std::size(kNames) == size_t(Tok::NumTokens));
  return t < Tok::NumTokens ? kNames[size_t(t)] : "?";
}

bool isPunctuation(Tok t) {
  switch (t) {
#define TOKEN(Name, spelling)
#define PUNCT(Name, spelling) case Tok::Name:
#include "frontend/syntax/tokens.def"
    return true;
  default:
    return false;
  }
}

std::string tokenGoString(Tok t) {
  if (isPunctuation(t))
    return std::string("'") + tokenName(t) + "'";
  return tokenName(t);
}

} // namespace fbc::syntax
