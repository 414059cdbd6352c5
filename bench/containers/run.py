#!/usr/bin/env python3
"""Per-leaf cost of a one-container leaf under `fbc run`, against the floor
of the same engine doing the same without fbc, in one run (issue #27).

fbc: a spec with one redis:7-alpine service (tests/fixtures/containers/
build_images.py builds it) behind ready(), and one test fanned out over
LEAVES choose() options, each leaf one SET through the Redis step: every
leaf creates, starts, health-checks, stops and removes its container.

Floor: the same LEAVES rounds straight through the Docker Engine API (the
socket fbc would use; a `podman system service` this script starts when
none answers, as fbc does): create with the same port binding, start,
poll the published port until redis answers PING, one SET, stop (t=2),
remove. The engine's service is started once for each side, outside the
timed part of the floor and inside fbc's (fbc pays for it once per run).

  cmake --build --preset release --target fbc
  python3 tests/fixtures/containers/build_images.py redis
  bench/containers/run.py --fbc build/release/tools/fbc/fbc [--leaves 20] [--rounds 3]
Prints the median per-leaf times and the ratio (target: at most 1.2x).

  bench/containers/run.py --fbc ... --suite [--tests 20]
The reuse suite instead: TESTS tests on one postgres:16-alpine service
(trust auth, ready(); a seed= that creates a table; each test inserts a row
and counts them), run once with reuse=True (one container for the run,
seed= once, reset= truncating the table before each later test) and once
with fresh containers (the seed= runs after every start); prints both run
times and the ratio fresh / reused (the reference claims 5-10x).
"""
import argparse
import http.client
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tests", "fixtures",
                                "containers"))
import build_images  # noqa: E402  (the fixture's engine discovery and client)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


SPEC = '''cache = service("cache", interface("main", "redis", 6379),
    image = "redis:7-alpine",
    ports = {{6379: {port}}},
    healthcheck = ready(),
)

def test_leaf():
    n = choose("n", list(range({leaves})))
    cache.main.command("SET", "k%d" % n, "v")
'''


SUITE = """def seed():
    db.main.exec("CREATE TABLE orders (id int)")

def reset():
    db.main.exec("TRUNCATE orders")

db = service("db", interface("main", "postgres", 5432),
    image = "postgres:16-alpine",
    env = {{"POSTGRES_HOST_AUTH_METHOD": "trust"}},
    ports = {{5432: {port}}},
    healthcheck = ready(),
    reuse = {reuse},
    seed = seed,
    reset = reset,
)
"""

SUITE_TEST = """
def test_{n}():
    db.main.exec("INSERT INTO orders VALUES ({n})")
    assert_eq(db.main.query("SELECT count(*) AS n FROM orders").rows, [{{"n": 1}}])
"""


def suite_run(fbc, tests, reuse):
    d = tempfile.mkdtemp(prefix="fbc-bench-suite-")
    try:
        with open(os.path.join(d, "spec.star"), "w") as f:
            f.write(SUITE.format(port=free_port(), reuse=reuse))
            for n in range(tests):
                f.write(SUITE_TEST.format(n=n))
        t0 = time.monotonic()
        r = subprocess.run([fbc, "run", "spec.star", "--seed", "1", "--no-bundle"], cwd=d,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        took = time.monotonic() - t0
        if r.returncode != 0:
            raise SystemExit(f"fbc run failed ({r.returncode}):\n{r.stdout}\n{r.stderr}")
        return took
    finally:
        shutil.rmtree(d, ignore_errors=True)


def suite(fbc, tests):
    reused = suite_run(fbc, tests, True)
    fresh = suite_run(fbc, tests, False)
    print(f"suite: {tests} tests on one postgres:16-alpine service")
    print(f"reuse=True: {reused:.1f} s (one container, seed= once, reset= before each later test)")
    print(f"fresh:      {fresh:.1f} s (a container per test, seed= after each start)")
    print(f"ratio: {fresh / reused:.1f}x (the reference claims 5-10x)")


def redis_ping(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def redis_set(port, n):
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        key = f"k{n}".encode()
        s.sendall(b"*3\r\n$3\r\nSET\r\n$%d\r\n%s\r\n$1\r\nv\r\n" % (len(key), key))
        assert s.recv(16).startswith(b"+OK")


def call(engine, method, url, body=None):
    conn = build_images.UnixConnection(engine.path)
    data = json.dumps(body).encode() if body is not None else None
    conn.request(method, "/v1.41" + url, body=data,
                 headers={"Content-Type": "application/json"} if data else {})
    resp = conn.getresponse()
    out = resp.read()
    conn.close()
    if resp.status >= 300:
        raise SystemExit(f"floor: {method} {url}: {resp.status} {out[:200]!r}")
    return json.loads(out) if out else None


def floor_leaf(engine, port, n):
    c = call(engine, "POST", "/containers/create", {
        "Image": "redis:7-alpine",
        "ExposedPorts": {"6379/tcp": {}},
        "HostConfig": {"PortBindings": {"6379/tcp": [{"HostIp": "127.0.0.1",
                                                        "HostPort": str(port)}]}},
    })
    call(engine, "POST", f"/containers/{c['Id']}/start")
    while not redis_ping(port):
        time.sleep(0.001)
    redis_set(port, n)
    call(engine, "POST", f"/containers/{c['Id']}/stop?t=2")
    call(engine, "DELETE", f"/containers/{c['Id']}?force=1&v=1")


def floor_round(engine, leaves):
    port = free_port()
    t0 = time.monotonic()
    for n in range(leaves):
        floor_leaf(engine, port, n)
    return (time.monotonic() - t0) / leaves


def fbc_round(fbc, leaves):
    d = tempfile.mkdtemp(prefix="fbc-bench-containers-")
    try:
        with open(os.path.join(d, "spec.star"), "w") as f:
            f.write(SPEC.format(port=free_port(), leaves=leaves))
        t0 = time.monotonic()
        r = subprocess.run([fbc, "run", "spec.star", "--seed", "1", "--no-bundle"], cwd=d,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        took = time.monotonic() - t0
        if r.returncode != 0:
            raise SystemExit(f"fbc run failed ({r.returncode}):\n{r.stdout}\n{r.stderr}")
        return took / leaves
    finally:
        shutil.rmtree(d, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fbc", required=True)
    ap.add_argument("--leaves", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--suite", action="store_true", help="the reuse=True suite instead")
    ap.add_argument("--tests", type=int, default=20)
    a = ap.parse_args()
    if a.suite:
        suite(a.fbc, a.tests)
        return
    fbc_times, floor_times = [], []
    for _ in range(a.rounds):
        fbc_times.append(fbc_round(a.fbc, a.leaves))
        floor_times.append(build_images.with_engine(None, lambda e: floor_round(e, a.leaves)))
    f, fl = statistics.median(fbc_times), statistics.median(floor_times)
    print(f"leaves per run: {a.leaves}, rounds: {a.rounds}")
    print(f"fbc:   {f * 1000:.1f} ms per leaf (one redis container: create, start, ready(), "
          f"SET, stop, remove; the engine service started once per run)")
    print(f"floor: {fl * 1000:.1f} ms per leaf (the same through the engine API, no fbc)")
    print(f"ratio: {f / fl:.2f}x (target: at most 1.2x)")


if __name__ == "__main__":
    main()
