#!/usr/bin/env python3
"""fbc run -j N against -j 1, in one run: leaves per second of the same plan.

Two plans, each one test fanned out over LEAVES choose() options with the kv
and http_api fixtures started per leaf:
  io   each body PUTs through the API while kv's fsync is delayed by
       DELAY (fault(kv, fsync = delay(...))): the leaf waits on its
       services, as real tests do;
  cpu  each body computes in Starlark (a loop of ITERS steps) and PUTs
       once: bounded by the cores, and by the one interpreter lock the
       bodies share (docs/run.md, "Leaves in parallel").
Each plan runs with -j 1 and with -j N, interleaved, ROUNDS times; prints
the median wall time and the throughput ratio. Needs root (-j N uses a
network namespace per leaf; without it fbc falls back to -j 1, which this
script detects and reports as a failure).

  bench/parallel/run.py --fbc build/release/tools/fbc/fbc \\
      [--fixtures build/release/tests/fixtures] [--leaves 40] [--jobs 4] \\
      [--delay 500ms] [--iters 300000] [--rounds 3]
"""
import argparse
import os
import statistics
import subprocess
import tempfile
import time


def spec_text(fixtures, leaves, body):
    kv = os.path.abspath(os.path.join(fixtures, "fixture_kv_store"))
    api = os.path.abspath(os.path.join(fixtures, "fixture_http_api"))
    options = ", ".join(str(i) for i in range(leaves))
    # Fixed ports: every leaf binds the same ones, in its own namespace.
    return f'''kv = service("kv", "{kv}",
    interface("main", "tcp", 7301),
    args = ["--port", "7301", "--wal", "$FBC_SCRATCH/kv.wal"],
    healthcheck = tcp("localhost:7301"),
)
api = service("api", "{api}",
    interface("main", "http", 7302),
    args = ["--port", "7302", "--kv", "127.0.0.1:7301"],
    depends_on = [kv],
    healthcheck = http("localhost:7302/health"),
)

def test_leaf():
    n = choose("n", [{options}])
{body}
'''


IO_BODY = '''    r = fault(kv, fsync = delay("{delay}"),
              run = lambda: api.main.put(path = "/kv/k%d" % n, body = "v"))
    assert_eq(r.status, 200)'''

CPU_BODY = '''    s = 0
    for i in range({iters}):
        s += i % 7
    assert_eq(api.main.put(path = "/kv/k%d" % n, body = "v").status, 200)'''


def run_once(fbc, spec_dir, jobs):
    t0 = time.monotonic()
    r = subprocess.run([fbc, "run", "spec.star", "--seed", "1", "--no-bundle", "-j", str(jobs)],
                       cwd=spec_dir, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    took = time.monotonic() - t0
    if r.returncode != 0 or "warning: -j" in r.stderr:
        raise SystemExit(f"fbc run -j {jobs} failed ({r.returncode}): {r.stderr[-400:]}")
    return took


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fbc", required=True)
    ap.add_argument("--fixtures", default="build/release/tests/fixtures")
    ap.add_argument("--leaves", type=int, default=40)
    ap.add_argument("--jobs", type=int, default=4)
    ap.add_argument("--delay", default="500ms")
    ap.add_argument("--iters", type=int, default=300000)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    fbc = os.path.abspath(a.fbc)
    plans = [("io", IO_BODY.format(delay=a.delay)), ("cpu", CPU_BODY.format(iters=a.iters))]
    print(f"{a.leaves} leaves of kv + http_api, -j 1 vs -j {a.jobs}, median of {a.rounds}, "
          f"{os.cpu_count()} CPUs")
    print(f"{'plan':<6} {'-j 1 (s)':>9} {'-j ' + str(a.jobs) + ' (s)':>9} "
          f"{'leaves/s -j 1':>14} {'leaves/s -j ' + str(a.jobs):>14} {'gain':>6}")
    for name, body in plans:
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "spec.star"), "w") as f:
                f.write(spec_text(a.fixtures, a.leaves, body))
            one, many = [], []
            for _ in range(a.rounds):
                one.append(run_once(fbc, d, 1))
                many.append(run_once(fbc, d, a.jobs))
            m1, mn = statistics.median(one), statistics.median(many)
            print(f"{name:<6} {m1:9.2f} {mn:9.2f} {a.leaves / m1:14.1f} {a.leaves / mn:14.1f} "
                  f"{m1 / mn:5.2f}x")


if __name__ == "__main__":
    main()
