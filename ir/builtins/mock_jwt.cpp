// jwt_keypair(kid=), jwt_sign(keypair, claims=), jwt_jwks(keypair): the
// Ed25519 (EdDSA) issuer behind @faultbox/mocks/jwt.star. The reference
// makes a random key per call; fbc derives the key from the kid
// (SHA-256 of "fbc jwt_keypair " + kid as the Ed25519 seed) so that the
// same spec gives the same JWKS and tokens in every `fbc ir`, plan and run.
// They are test keys, public by construction: never use them for anything
// real. Signing is nettle's (libhogweed, loaded on first use: only a spec
// that makes a keypair pays for it).
#include "frontend/lib/args.h"
#include "frontend/lib/json/json.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/printer.h"
#include "frontend/support/lazy_library.h"
#include "ir/builtins/arg_util.h"
#include "ir/builtins/builtins.h"
#include "ir/builtins/values.h"
#include "ir/quote.h"

#include <llvm/Support/SHA256.h>
#include <nettle/eddsa.h>

#include <array>

namespace fbc::ir::builtins {

using star::Value;

namespace {

struct Hogweed {
  decltype(&nettle_ed25519_sha512_public_key) publicKey = nullptr;
  decltype(&nettle_ed25519_sha512_sign) sign = nullptr;
};

Hogweed hogweed;
constinit support::LazyLibrary hogweedLib("libhogweed.so.6", "libhogweed6");

void bindHogweed(support::LazyLibrary &l) {
  l.bind("nettle_ed25519_sha512_public_key", hogweed.publicKey);
  l.bind("nettle_ed25519_sha512_sign", hogweed.sign);
}

class KeypairValue final : public SpecValue {
public:
  static constexpr std::string_view kTypeName = "keypair";
  static constexpr bool kNeedsDestroy = true;
  std::string_view typeName() const override { return kTypeName; }
  void repr(star::Printer &p) const override { p.write("<keypair kid=" + quote(kid) + ">"); }

  std::string kid;
  std::array<uint8_t, ED25519_KEY_SIZE> priv{}, pub{};
};

// RFC 4648 base64url without padding, as JWS and JWK use it.
std::string base64url(std::string_view in) {
  static const char *k = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string out;
  uint32_t acc = 0;
  int bits = 0;
  for (unsigned char c : in) {
    acc = (acc << 8) | c;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out += k[(acc >> bits) & 63];
    }
  }
  if (bits)
    out += k[(acc << (6 - bits)) & 63];
  return out;
}

KeypairValue *keypairArg(star::Thread &t, const char *what, Value v) {
  auto *kp = valueAs<KeypairValue>(v);
  if (!kp)
    t.fail(std::string(what) + " must be a jwt_keypair value (got " + typeOf(v) + ")");
  return kp;
}

std::string_view bytes(const uint8_t *p, size_t n) {
  return {reinterpret_cast<const char *>(p), n};
}

} // namespace

Value jwtKeypairFn(star::Thread &t, Value, const star::Args &args) {
  Value kid;
  star::bindArgs(t, "jwt_keypair", args, {"kid?"}, {&kid});
  if (!hogweedLib.load(bindHogweed))
    t.fail("jwt_keypair: " + hogweedLib.error());
  auto *kp = t.heap.make<KeypairValue>();
  kp->kid = kid ? std::string(star::wantString(t, "jwt_keypair", "kid", kid)) : "faultbox-mock-key";
  std::string label = "fbc jwt_keypair " + kp->kid;
  auto seed = llvm::SHA256::hash(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(label.data()), label.size()));
  std::copy(seed.begin(), seed.end(), kp->priv.begin());
  hogweed.publicKey(kp->pub.data(), kp->priv.data());
  return Value::object(kp);
}

Value jwtJwksFn(star::Thread &t, Value, const star::Args &args) {
  Value v;
  star::bindArgs(t, "jwt_jwks", args, {"keypair"}, {&v});
  KeypairValue *kp = keypairArg(t, "jwt_jwks: argument", v);
  auto str = [&](std::string_view s) { return star::makeString(t.heap, s); };
  auto *key = t.heap.make<star::Dict>();
  for (auto [k, val] : {std::pair<const char *, std::string>{"kty", "OKP"},
                        {"crv", "Ed25519"},
                        {"kid", kp->kid},
                        {"x", base64url(bytes(kp->pub.data(), kp->pub.size()))},
                        {"alg", "EdDSA"},
                        {"use", "sig"}})
    key->table.set(t, str(k), str(val));
  auto *keys = t.heap.make<star::List>(std::vector<Value>{Value::object(key)});
  auto *doc = t.heap.make<star::Dict>();
  doc->table.set(t, str("keys"), Value::object(keys));
  return Value::object(doc);
}

Value jwtSignFn(star::Thread &t, Value, const star::Args &args) {
  Value v, claims;
  star::bindArgs(t, "jwt_sign", args, {"keypair", "claims?"}, {&v, &claims});
  KeypairValue *kp = keypairArg(t, "jwt_sign: keypair argument", v);
  std::string payload = "{}";
  if (claims && !isNone(claims)) {
    if (!claims.as<star::Dict>())
      t.fail("jwt_sign claims: must be a string-keyed dict");
    try {
      payload = star::encodeJson(t, claims);
    } catch (const star::EvalError &e) {
      std::string msg = e.message();
      if (msg.starts_with("json.encode: "))
        msg.erase(0, 13);
      t.fail("jwt_sign claims: " + msg);
    }
  }
  auto *h = t.heap.make<star::Dict>();
  for (auto [k, val] : {std::pair<const char *, std::string_view>{"alg", "EdDSA"},
                        {"kid", kp->kid},
                        {"typ", "JWT"}})
    h->table.set(t, star::makeString(t.heap, k), star::makeString(t.heap, val));
  std::string header = star::encodeJson(t, Value::object(h));
  std::string input = base64url(header) + "." + base64url(payload);
  std::array<uint8_t, ED25519_SIGNATURE_SIZE> sig{};
  // A keypair exists, so jwt_keypair loaded the library.
  hogweed.sign(kp->pub.data(), kp->priv.data(), input.size(),
               reinterpret_cast<const uint8_t *>(input.data()), sig.data());
  return star::makeString(t.heap, input + "." + base64url(bytes(sig.data(), sig.size())));
}

} // namespace fbc::ir::builtins
