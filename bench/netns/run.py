#!/usr/bin/env python3
"""What a network namespace per leaf costs: the same plan run with fbc's
default (each leaf on a thread of its own that enters a fresh network
namespace and brings loopback up) and with --host-network (every leaf in
fbc's own namespace), interleaved, ROUNDS times.

The plan: one test fanned out over LEAVES choose() options; each leaf starts
the kv and http_api fixtures, PUTs once through the API and stops them.
Prints, per mode, the median over the rounds of the run's wall time per leaf
(fbc's start and the plan included, divided by the leaves) and of the median
row duration_ms (a leaf's services, body and stop; the namespace is made
before it), and the ratio. Needs root (without it fbc runs every leaf in the
host's network and says so: this script reports that as a failure).

  bench/netns/run.py --fbc build/release/tools/fbc/fbc \\
      [--fixtures build/release/tests/fixtures] [--leaves 40] [--rounds 5]
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time


def spec_text(fixtures, leaves):
    kv = os.path.abspath(os.path.join(fixtures, "fixture_kv_store"))
    api = os.path.abspath(os.path.join(fixtures, "fixture_http_api"))
    options = ", ".join(str(i) for i in range(leaves))
    return f'''kv = service("kv", "{kv}",
    interface("main", "tcp", 7311),
    args = ["--port", "7311", "--wal", "$FBC_SCRATCH/kv.wal"],
    healthcheck = tcp("localhost:7311"),
)
api = service("api", "{api}",
    interface("main", "http", 7312),
    args = ["--port", "7312", "--kv", "127.0.0.1:7311"],
    depends_on = [kv],
    healthcheck = http("localhost:7312/health"),
)

def test_leaf():
    n = choose("n", [{options}])
    assert_eq(api.main.put(path = "/kv/k%d" % n, body = "v").status, 200)
'''


def run(fbc, spec, cwd, host):
    args = [fbc, "run", spec, "--seed", "1", "--format=json", "--no-bundle"]
    if host:
        args.append("--host-network")
    t0 = time.monotonic()
    p = subprocess.run(args, cwd=cwd, capture_output=True, text=True)
    wall = time.monotonic() - t0
    if p.returncode != 0:
        raise SystemExit(f"fbc exited {p.returncode}:\n{p.stderr}")
    if not host and "network namespace" in p.stderr:
        raise SystemExit(f"no namespace per leaf here:\n{p.stderr}")
    rows = [t["duration_ms"] for t in json.loads(p.stdout)["tests"]]
    return wall, statistics.median(rows)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fbc", required=True)
    ap.add_argument("--fixtures", default="build/release/tests/fixtures")
    ap.add_argument("--leaves", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    fbc = os.path.abspath(a.fbc)
    with tempfile.TemporaryDirectory(prefix="fbc-bench-netns-") as d:
        spec = os.path.join(d, "spec.star")
        with open(spec, "w") as f:
            f.write(spec_text(a.fixtures, a.leaves))
        walls = {False: [], True: []}
        rows = {False: [], True: []}
        for _ in range(a.rounds):
            for host in (False, True):
                w, r = run(fbc, spec, d, host)
                walls[host].append(w * 1000 / a.leaves)
                rows[host].append(r)
    ns, host = statistics.median(walls[False]), statistics.median(walls[True])
    print(f"{a.leaves} leaves of kv + http_api, median of {a.rounds} rounds")
    print(f"  namespace per leaf: {ns:.1f} ms per leaf (row duration_ms median "
          f"{statistics.median(rows[False]):.0f} ms)")
    print(f"  --host-network:     {host:.1f} ms per leaf (row duration_ms median "
          f"{statistics.median(rows[True]):.0f} ms)")
    print(f"  namespace cost: {ns - host:+.1f} ms per leaf ({ns / host:.2f}x)")


if __name__ == "__main__":
    main()
