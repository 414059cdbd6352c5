#include "tools/fbc/cli.h"

int main(int argc, char **argv) {
  return fbc::tools::runFbc(argc, argv);
}
