#!/usr/bin/env python3
"""What parallel(interleavings="dpor") runs against the naive count of
release orders (issue #30): C concurrent clients, each one request to
tests/fixtures/redis_counter.c (a client of a real redis-server, Debian's,
run with seccomp = False so only the app's calls are held) that makes K
Redis commands: K = 2 is INCR hits (GET hits, SET hits), K = 3 adds SET of
the client's own key (INCR hits copy:<i>). A request makes 2K + 2 held
calls (receive, a write and a read per command, reply), so the naive count
of release orders is (C(2K+2))! / ((2K+2)!)^C.

For each case it runs the test once under DPOR and reports the leaves run,
the classes they fell in (the coverage statement's count: leaves of one
class count once; more leaves than classes means a rerun did not follow its
prefix the same way), how many lost an update (hits != C at the end: the bug found), the ratio to
the naive count, the run's wall time (fbc's start and plan included) and
per leaf, and the median row duration_ms (a leaf's services, body, releases
and stop). The same requests under interleavings="all" (launch orders) are
run too: C! leaves, none loses an update.

  bench/explore/run.py --fbc build/release/tools/fbc/fbc \\
      [--fixtures build/release/tests/fixtures] [--cases 2x2,2x3,3x2,3x3]
"""
import argparse
import json
import math
import os
import statistics
import subprocess
import tempfile
import time


def spec_text(fixtures, clients, ops):
    app = os.path.abspath(os.path.join(fixtures, "fixture_redis_counter"))
    branches = []
    defs = []
    for i in range(clients):
        request = "INCR hits" if ops == 2 else f"INCR hits copy:{i}"
        defs.append(f'def client{i}():\n    return app.main.send(data = "{request}")\n')
        branches.append(f"client{i}")
    calls = ", ".join(branches)
    return f'''cache = service("cache", "/usr/bin/redis-server",
    interface("main", "redis", 7411),
    args = ["--port", "7411", "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
            "--dbfilename", "none.rdb"],
    healthcheck = ready(),
    seccomp = False,
)
app = service("app", "{app}",
    interface("main", "tcp", 7412),
    args = ["--port", "7412"],
    env = {{"REDIS_ADDR": "127.0.0.1:7411"}},
    depends_on = [cache],
    healthcheck = tcp("localhost:7412"),
)

{chr(10).join(defs)}
def test_dpor():
    parallel({calls}, interleavings = "dpor")
    assert_eq(cache.main.get("hits"), "{clients}")

def test_launch_orders():
    parallel({calls}, interleavings = "all")
    assert_eq(cache.main.get("hits"), "{clients}")
'''


def run(fbc, cwd, test):
    args = [fbc, "run", "spec.star", "--seed", "1", "--format=json", "--no-bundle",
            "--test", test]
    t0 = time.monotonic()
    p = subprocess.run(args, cwd=cwd, capture_output=True, text=True)
    wall = time.monotonic() - t0
    if p.returncode not in (0, 2):
        raise SystemExit(f"fbc exited {p.returncode}:\n{p.stderr}")
    if p.stderr:
        raise SystemExit(f"fbc warned (a budget or a bound cut the search?):\n{p.stderr}")
    rows = json.loads(p.stdout)["tests"]
    return rows, wall


def naive(clients, ops):
    calls = 2 * ops + 2
    return math.factorial(clients * calls) // math.factorial(calls) ** clients


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fbc", required=True)
    ap.add_argument("--fixtures", default="build/release/tests/fixtures")
    ap.add_argument("--cases", default="2x2,2x3,3x2,3x3")
    a = ap.parse_args()
    fbc = os.path.abspath(a.fbc)
    print(f"{'case':5} {'naive orders':>15} {'leaves':>6} {'classes':>7} {'ratio':>9} "
          f"{'lost':>5} {'wall s':>7} {'s/leaf':>7} {'row ms':>7} {'launch':>6} {'lost':>4}")
    for case in a.cases.split(","):
        clients, ops = (int(x) for x in case.split("x"))
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "spec.star"), "w") as f:
                f.write(spec_text(a.fixtures, clients, ops))
            rows, wall = run(fbc, d, "test_dpor")
            launch, _ = run(fbc, d, "test_launch_orders")
        n = naive(clients, ops)
        lost = sum(r["result"] == "fail" for r in rows)
        launch_lost = sum(r["result"] == "fail" for r in launch)
        row_ms = statistics.median(r["duration_ms"] for r in rows)
        coverage = rows[-1].get("explore_coverage", {})
        if not coverage.get("complete"):
            raise SystemExit(f"{case}: the exploration is not complete: {coverage}")
        print(f"{case:5} {n:>15,} {len(rows):>6} {coverage['classes']:>7} "
              f"{len(rows) / n:>9.2e} {lost:>5} {wall:>7.1f} {wall / len(rows):>7.3f} "
              f"{row_ms:>7.0f} {len(launch):>6} {launch_lost:>4}")


if __name__ == "__main__":
    main()
