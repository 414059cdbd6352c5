// `fbc init`: a starter spec. Without a Compose file, a commented template
// (one service, one test, one fault test). From a Compose file
// (docker-compose.yml, read with yaml-cpp): one service() per Compose
// service — image= or build=, its ports (the container port is the
// interface's, ports={container: host} maps it), environment= as env=,
// depends_on= (services are written in dependency order), the healthcheck
// as a tcp()/http() probe of the first published port (the Compose test
// command is kept as a comment) —, each interface's protocol guessed from
// well-known ports and image names (postgres 5432, redis 6379, ...; http
// for 80/443/3000/8000/8080/..., tcp otherwise), and per dependency edge a
// commented fault_assumption + fault_scenario stub. The result plans with
// `fbc plan --coverage`, which lists every edge (docs/init.md).
#pragma once

#include <llvm/Support/Error.h>

#include <string>

namespace fbc::backend {

// The template spec of a plain `fbc init`.
std::string starterSpec();

// The spec for the Compose file at `path` (its text in `yaml`); an error
// names what the file lacks ("no services: mapping", a service that is
// neither image nor build, a depends_on cycle).
llvm::Expected<std::string> specFromCompose(const std::string &path, const std::string &yaml);

} // namespace fbc::backend
