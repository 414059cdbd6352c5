// remotes({iface: host}): the per-interface hosts of a remote service
// (service(remote=remotes({...}))); the reference's checks and messages.
#include "frontend/lib/objects.h"
#include "frontend/lib/printer.h"
#include "ir/builtins/arg_util.h"
#include "ir/builtins/spec_builder.h"
#include "ir/builtins/surface.h"
#include "ir/quote.h"

namespace fbc::ir::builtins {

using star::Value;

void RemotesValue::repr(star::Printer &p) const {
  p.write("<remotes");
  for (const auto &[iface, host] : hosts) {
    p.write(' ');
    p.write(iface);
    p.write('=');
    p.write(host);
  }
  p.write('>');
}

Value remotesFn(star::Thread &t, Value, const star::Args &args) {
  CallSite site(t, SpecBuilder::of(t).callSites);
  if (args.positional.size() != 1)
    site.fail("remotes() takes exactly one positional argument (a dict {iface: host}); got " +
              std::to_string(args.positional.size()));
  if (!args.kwargs.empty())
    site.fail(site.at(site.keyword(args.kwargs[0].name->view())),
              "remotes() does not accept keyword arguments");
  auto *d = args.positional[0].as<star::Dict>();
  const syntax::Expr *lit = site.positional(0);
  if (!d)
    site.fail(site.at(lit),
              "remotes() argument must be a dict {iface: host}, got " + typeOf(args.positional[0]));
  auto *r = t.heap.make<RemotesValue>();
  forEachDictEntry(site, lit, *d, [&](Value key, Value value, Loc at) {
    auto *k = key.as<star::String>();
    if (!k)
      site.fail(at, "remotes() keys must be strings (interface names), got " + typeOf(key));
    auto *v = value.as<star::String>();
    if (!v)
      site.fail(at, "remotes() values must be strings (host or host:port), got " + typeOf(value) +
                        " for key " + quote(k->view()));
    if (k->view().empty())
      site.fail(at, "remotes() keys must be non-empty interface names");
    if (v->view().empty())
      site.fail(at, "remotes() values must be non-empty hosts (got empty for interface " +
                        quote(k->view()) + ")");
    r->hosts.emplace_back(std::string(k->view()), std::string(v->view()));
  });
  if (r->hosts.empty())
    site.fail(site.at(lit), "remotes() requires at least one entry");
  return Value::object(r);
}

} // namespace fbc::ir::builtins
