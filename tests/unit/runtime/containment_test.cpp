// Containment that touches nothing but the run's own (issue #31): scratch
// directories that never delete through a mount, temporary directories a
// dead run left that later runs sweep (and live ones they keep), and cgroup
// names that two services cannot share.
#include "runtime/os/cgroups.h"
#include "runtime/os/leaf_isolation.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

namespace fbc::rt {
namespace {

namespace fs = std::filesystem;

struct OwnDir {
  std::string path;
  OwnDir() {
    std::string t = "/tmp/fbc-unit-XXXXXX";
    path = mkdtemp(t.data()) ? t : "";
  }
  ~OwnDir() { fs::remove_all(path); }
};

// A service that bind-mounts a host folder into $FBC_SCRATCH must not get
// that folder emptied when the leaf's scratch directory goes.
TEST(ScratchDir, RemovalNeverCrossesAMount) {
  OwnDir host;
  ASSERT_FALSE(host.path.empty());
  std::ofstream(host.path + "/precious") << "keep me\n";
  std::string error;
  std::unique_ptr<ScratchDir> scratch = ScratchDir::make(error);
  ASSERT_TRUE(scratch) << error;
  std::string scratchPath = scratch->path();
  std::string point = scratchPath + "/mnt";
  ASSERT_EQ(mkdir(point.c_str(), 0755), 0);
  std::ofstream(scratchPath + "/own") << "the leaf's\n";
  if (mount(host.path.c_str(), point.c_str(), nullptr, MS_BIND, nullptr) != 0)
    GTEST_SKIP() << "cannot bind-mount here: " << std::strerror(errno);
  ASSERT_TRUE(fs::exists(point + "/precious"));
  scratch.reset();
  EXPECT_TRUE(fs::exists(host.path + "/precious")) << "deleted through the bind mount";
  EXPECT_FALSE(fs::exists(scratchPath)) << "the mount was not detached";
  if (fs::exists(point))
    umount2(point.c_str(), MNT_DETACH);
}

// A scratch directory nobody holds is a dead run's (kill -9 mid-leaf): the
// next one made sweeps it. One a live process holds stays.
TEST(ScratchDir, DeadOnesAreSweptLiveOnesKept) {
  OwnDir tmp;
  ASSERT_FALSE(tmp.path.empty());
  std::string dead = tmp.path + "/fbc-scratch-lk-dead01",
              live = tmp.path + "/fbc-scratch-lk-live01",
              legacy = tmp.path + "/fbc-scratch-old001", // an older fbc's: never locked
      other = tmp.path + "/fbc-scratch-lk-notours";
  for (const std::string &d : {dead, live, legacy, other})
    ASSERT_EQ(mkdir(d.c_str(), 0755), 0);
  std::ofstream(dead + "/left") << "x";
  int held = open(live.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  ASSERT_GE(held, 0);
  ASSERT_EQ(flock(held, LOCK_EX), 0);
  const char *old = getenv("TMPDIR");
  std::string saved = old ? old : "";
  setenv("TMPDIR", tmp.path.c_str(), 1);
  std::string error;
  std::unique_ptr<ScratchDir> scratch = ScratchDir::make(error);
  if (old)
    setenv("TMPDIR", saved.c_str(), 1);
  else
    unsetenv("TMPDIR");
  ASSERT_TRUE(scratch) << error;
  EXPECT_TRUE(scratch->path().starts_with(tmp.path + "/fbc-scratch-lk-")) << scratch->path();
  EXPECT_FALSE(fs::exists(dead));
  EXPECT_TRUE(fs::exists(live));
  EXPECT_TRUE(fs::exists(legacy)); // cannot be told dead
  EXPECT_TRUE(fs::exists(other));  // not a name fbc makes
  close(held);
}

// x.y and x_y are two services: two cgroups (stopping one must not kill
// the other, nor one's pids limit apply to the other).
TEST(Cgroups, ServiceNamesMapToDistinctDirectories) {
  std::string error;
  std::unique_ptr<LeafCgroup> leaf = RunCgroups::instance().newLeaf(error);
  if (!leaf)
    GTEST_SKIP() << "no cgroups here: " << error;
  std::set<std::string> dirs;
  for (const char *name : {"x.y", "x_y", "x-y", "x_2ey"}) {
    ServiceCgroup *svc = leaf->service(name, 64, error);
    ASSERT_TRUE(svc) << error;
    const CgroupRoots &r = svc->roots();
    dirs.insert(std::string(r.v2) + "|" + r.pids + "|" + r.freezer);
  }
  EXPECT_EQ(dirs.size(), 4u);
}

} // namespace
} // namespace fbc::rt
