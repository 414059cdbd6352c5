#!/usr/bin/env python3
"""A real `bazel test` with shard_count = 2 on a fixed-port spec (issue #32).

Copies tests/bazel/workspace/ (an sh_test in the shape of
examples/ci/bazel/BUILD.bazel) to a fresh folder, with the fixture kv's path
filled in, and runs Debian's Bazel (bazel-bootstrap, scripts/setup.sh) on it
offline: the three repositories Bazel would download are replaced by the
stand-ins in tests/bazel/stubs/. Bazel runs both shards at once
(--local_test_jobs=2). Passes when: bazel test exits 0 with both shards
PASSED; each shard's test.xml is fbc's JUnit for its shard (one testcase,
the two together every test of the spec); each shard's JSON report passed;
and both shards' kv listened on port 17611 at the same time (from the
reports' service_ready / service_stopped timestamps): the collision the
issue saw (`kv_store: cannot listen on 127.0.0.1:17611: Address already in
use`) would have happened here.

  run_bazel_test.py --fbc build/release/tools/fbc/fbc --kv .../fixture_kv_store
"""
import argparse
import glob
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def kv_span(report):
    ready = stopped = None
    for t in report["tests"]:
        for e in t["events"]:
            if e["service"] == "kv" and e["type"] == "service_ready" and ready is None:
                ready = e["timestamp"]
            if e["service"] == "kv" and e["type"] == "service_stopped":
                stopped = e["timestamp"]
    return ready, stopped


def make_writable(path):
    for root, dirs, files in os.walk(path):
        for n in dirs + files:
            p = os.path.join(root, n)
            try:
                if not os.path.islink(p):
                    os.chmod(p, os.stat(p).st_mode | stat.S_IWUSR)
            except OSError:
                pass


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fbc", required=True)
    ap.add_argument("--kv", required=True)
    ap.add_argument("--bazel", default="bazel")
    a = ap.parse_args()
    if not shutil.which(a.bazel):
        fail("no bazel: install Debian's bazel-bootstrap (scripts/setup.sh)")
    tmp = tempfile.mkdtemp(prefix="fbc-bazel-")
    try:
        ws = os.path.join(tmp, "ws")
        shutil.copytree(os.path.join(HERE, "workspace"), ws)
        open(os.path.join(ws, "WORKSPACE"), "w").close()
        spec = os.path.join(ws, "spec.star")
        with open(spec) as f:
            text = f.read().replace("@KV_BIN@", os.path.abspath(a.kv))
        with open(spec, "w") as f:
            f.write(text)
        out = os.path.join(tmp, "out")
        os.mkdir(out)
        stubs = os.path.join(HERE, "stubs")
        cmd = [a.bazel, "--batch", "--output_user_root=" + os.path.join(tmp, "root"), "test",
               "//:fault_tests", "--local_test_jobs=2", "--test_output=errors",
               "--test_env=FBC=" + os.path.abspath(a.fbc), "--test_env=FBC_OUT=" + out]
        for repo in ("rules_cc", "rules_java", "remote_coverage_tools"):
            cmd.append("--override_repository=%s=%s" % (repo, os.path.join(stubs, repo)))
        p = subprocess.run(cmd, cwd=ws, capture_output=True, text=True, timeout=900)
        log = p.stdout + p.stderr
        if p.returncode != 0:
            fail("bazel test exited %d:\n%s" % (p.returncode, log))
        if not re.search(r"//:fault_tests\s+PASSED", log):
            fail("//:fault_tests did not pass:\n" + log)
        testlogs = os.path.join(ws, "bazel-testlogs", "fault_tests")
        names = []
        for k in (1, 2):
            xml = os.path.join(testlogs, "shard_%d_of_2" % k, "test.xml")
            if not os.path.exists(xml):
                fail("no %s" % xml)
            with open(xml) as f:
                body = f.read()
            if '<property name="shard" value="%d/2"/>' % k not in body:
                fail("shard %d's test.xml is not fbc's JUnit for shard %d/2:\n%s" % (k, k, body))
            cases = re.findall(r'<testcase name="([^"]+)"[^>]* status="passed"', body)
            if len(cases) != 1:
                fail("shard %d/2 ran %s, want one passing test:\n%s" % (k, cases, body))
            names += cases
        if sorted(names) != ["test_store_a", "test_store_b"]:
            fail("the shards ran %s, want each test once" % names)
        spans = []
        for k in (0, 1):
            with open(os.path.join(out, "shard-%d.json" % k)) as f:
                report = json.load(f)
            if report["pass"] != 1 or report["fail"] != 0:
                fail("shard %d's report: %s" % (k, json.dumps(report)[:2000]))
            spans.append(kv_span(report))
        (r0, s0), (r1, s1) = spans
        if None in (r0, s0, r1, s1) or not (r0 < s1 and r1 < s0):
            fail("the shards' kv did not listen at the same time (%s - %s, %s - %s): "
                 "this run proved nothing" % (r0, s0, r1, s1))
        print("bazel test: 2 shards at once on 127.0.0.1:17611, both passed "
              "(kv %s - %s and %s - %s)" % (r0, s0, r1, s1))
    finally:
        make_writable(tmp)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
