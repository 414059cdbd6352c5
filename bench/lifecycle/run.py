#!/usr/bin/env python3
"""Per-leaf lifecycle cost of `fbc run`: start the services, wait for their
healthchecks, run a one-step body, stop them.

Generates a spec with the kv and http_api fixture services (built in the
given build directory) and one test fanned out over LEAVES choose()
options, each leaf sending one request through the API to the store. Runs
it ROUNDS times, interleaved with --baseline (another fbc binary) when
given, and prints the median wall time per run and per leaf.

With --floor (the lifecycle_floor target: bench/lifecycle/floor.c) the
same rounds also time the floor: the same leaves without fbc (fork/exec
both fixtures, poll their ports, one PUT, SIGTERM, reap), and the ratio
of fbc's per-leaf cost to it.

  cmake --build --preset release --target fbc lifecycle_floor
  bench/lifecycle/run.py --fbc build/release/tools/fbc/fbc \
      [--fixtures build/release/tests/fixtures] [--baseline OTHER] \
      [--floor build/release/bench/lifecycle_floor] [--leaves 50] [--rounds 5]
"""
import argparse
import os
import socket
import statistics
import subprocess
import tempfile
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def spec_text(fixtures, leaves, kv_port, api_port):
    kv = os.path.abspath(os.path.join(fixtures, "fixture_kv_store"))
    api = os.path.abspath(os.path.join(fixtures, "fixture_http_api"))
    return f'''kv = service("kv", "{kv}",
    interface("main", "tcp", {kv_port}),
    args = ["--port", "{kv_port}", "--wal", "kv.wal"],
    healthcheck = tcp("localhost:{kv_port}"),
)
api = service("api", "{api}",
    interface("main", "http", {api_port}),
    args = ["--port", "{api_port}", "--kv", "127.0.0.1:{kv_port}"],
    depends_on = [kv],
    healthcheck = http("localhost:{api_port}/health"),
)

def test_leaf():
    n = choose("n", list(range({leaves})))
    assert_eq(api.main.put(path = "/kv/k%d" % n, body = "v").status, 200)
'''


def run_once(fbc, spec_dir):
    t0 = time.monotonic()
    r = subprocess.run([fbc, "run", "spec.star", "--seed", "1"], cwd=spec_dir,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if r.returncode != 0:
        raise SystemExit(f"{fbc} run failed ({r.returncode}): {r.stderr.decode()[-400:]}")
    return time.monotonic() - t0


def run_floor(a, spec_dir, kv_port, api_port):
    kv = os.path.abspath(os.path.join(a.fixtures, "fixture_kv_store"))
    api = os.path.abspath(os.path.join(a.fixtures, "fixture_http_api"))
    r = subprocess.run([os.path.abspath(a.floor), kv, api, str(kv_port), str(api_port),
                        "kv.wal", str(a.leaves)], cwd=spec_dir, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"{a.floor} failed ({r.returncode}): {r.stderr[-400:]}")
    return float(r.stdout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fbc", required=True)
    ap.add_argument("--fixtures", default="build/release/tests/fixtures")
    ap.add_argument("--baseline")
    ap.add_argument("--floor")
    ap.add_argument("--leaves", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    binaries = [("fbc", os.path.abspath(a.fbc))]
    if a.baseline:
        binaries.append(("baseline", os.path.abspath(a.baseline)))
    with tempfile.TemporaryDirectory() as d:
        kv_port, api_port = free_port(), free_port()
        with open(os.path.join(d, "spec.star"), "w") as f:
            f.write(spec_text(a.fixtures, a.leaves, kv_port, api_port))
        times = {label: [] for label, _ in binaries}
        floor = []
        for _ in range(a.rounds):
            for label, path in binaries:
                times[label].append(run_once(path, d))
            if a.floor:
                floor.append(run_floor(a, d, kv_port, api_port))
        print(f"{a.leaves} leaves (kv + http_api started per leaf), median of {a.rounds}")
        print(f"{'binary':<44} {'run (s)':>8} {'per leaf (ms)':>14}")
        for label, path in binaries:
            m = statistics.median(times[label])
            print(f"{label + ': ' + path:<44} {m:8.2f} {m / a.leaves * 1000:14.1f}")
        if a.floor:
            f = statistics.median(floor)
            m = statistics.median(times["fbc"])
            print(f"{'floor: ' + os.path.basename(a.floor) + ' (no fbc)':<44} {f:8.2f} "
                  f"{f / a.leaves * 1000:14.1f}")
            print(f"fbc per leaf / floor per leaf: {m / f:.2f}x")

if __name__ == "__main__":
    main()
