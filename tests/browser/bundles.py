"""Bundles for the browser test and bench/report: run an e2e spec with the
fixture services and return its bundle, or build a bundle by hand (a
hostile one, or one in the reference tool's legacy tar.gz layout).

e2e specs name fixtures as @KV_BIN@, @API_BIN@, @CRASH_BIN@, @NONDET_DIR@ (the
folder of the small fixtures: fixture_counter, ...), @KV_PORT@, @API_PORT@ (see
tests/e2e/fbc_run.cpp); prepare_spec() fills them in.
"""
import io
import json
import os
import socket
import subprocess
import tarfile


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def prepare_spec(src, workdir, fixtures):
    """Copies an e2e spec (run_specs/ or run_cases/) to workdir/spec.star with fixtures and free ports."""
    text = open(src).read()
    kv, api = free_port(), free_port()
    while api == kv:
        api = free_port()
    for k, v in (("@KV_BIN@", fixtures["kv"]), ("@API_BIN@", fixtures["api"]),
                 ("@CRASH_BIN@", fixtures["crash"]), ("@NONDET_DIR@", fixtures["nondet"]),
                 ("@KV_PORT@", str(kv)),
                 ("@API_PORT@", str(api))):
        text = text.replace(k, v)
    os.makedirs(workdir, exist_ok=True)
    path = os.path.join(workdir, "spec.star")
    with open(path, "w") as f:
        f.write(text)
    return path


def run_json(fbc, workdir, *args):
    """`fbc run spec.star --format=json ARGS` in workdir -> the parsed report."""
    p = subprocess.run([fbc, "run", "spec.star", "--format=json", *args], cwd=workdir,
                       capture_output=True, text=True, timeout=600)
    if p.returncode not in (0, 2, 3):
        raise RuntimeError("fbc run exited %d: %s" % (p.returncode, p.stderr))
    return json.loads(p.stdout)


OUTCOME = {"pass": "passed", "fail": "failed", "error": "errored",
           "inconclusive": "inconclusive", "halted": "halted"}


def manifest_rows(trace, with_leaves=True):
    rows = []
    for t in trace["tests"]:
        row = {"name": t["name"], "outcome": t.get("outcome") or OUTCOME[t["result"]],
               "duration_ms": t["duration_ms"], "seed": t["seed"]}
        if t.get("expectation"):
            row["expectation"] = t["expectation"]
        if with_leaves and "leaf_id" in t:
            for k in ("leaf_id", "leaf_choices", "leaf_choice_values", "leaf_probability_outcomes",
                      "leaf_interleavings"):
                if k in t:
                    row[k] = t[k]
        rows.append(row)
    return rows


def write_tar(path, entries, gzip):
    """entries: [(name, bytes, mode)] in order; fixed metadata."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for name, data, mode in entries:
            info = tarfile.TarInfo(name)
            info.size, info.mode, info.mtime = len(data), mode, 0
            tar.addfile(info, io.BytesIO(data))
    raw = buf.getvalue()
    if gzip:
        import gzip as gz
        raw = gz.compress(raw, mtime=0)
    else:
        raw = subprocess.run(["zstd", "-q", "-c"], input=raw, capture_output=True,
                             check=True).stdout
    with open(path, "wb") as f:
        f.write(raw)


def legacy_bundle(path, trace, spec_text, spec_name="spec.star"):
    """The reference tool's layout (faultbox-bundle-report.md §1): gzip(tar),
    manifest with faultbox_version and leaf rows, trace.json WITHOUT leaf
    fields (nor fbc's scenario/fault on matrix cells), no plan.json,
    spec/<basename>."""
    manifest = {"schema_version": 1, "faultbox_version": "0.18.1",
                "run_id": "0123456789abcdef0123456789abcdef",
                "created_at": "2026-04-22T15:03:11Z", "seed": trace.get("seed", 0),
                "spec_root": spec_name, "tests": manifest_rows(trace)}
    manifest["summary"] = {"total": len(manifest["tests"]),
                           "passed": sum(r["outcome"] == "passed" for r in manifest["tests"]),
                           "failed": sum(r["outcome"] == "failed" for r in manifest["tests"]),
                           "errored": sum(r["outcome"] == "errored" for r in manifest["tests"])}
    legacy_trace = dict(trace)
    legacy_trace["tests"] = [{k: v for k, v in t.items()
                              if not k.startswith("leaf_") and k not in ("scenario", "fault")}
                             for t in trace["tests"]]
    entries = [("manifest.json", json.dumps(manifest, indent=2).encode(), 0o644),
               ("env.json", json.dumps({"faultbox_version": "0.18.1", "host_os": "linux",
                                        "host_arch": "amd64"}, indent=2).encode(), 0o644),
               ("trace.json", json.dumps(legacy_trace, indent=2).encode() + b"\n", 0o644),
               ("replay.sh", b"#!/usr/bin/env sh\nexec faultbox replay \"$0\"\n", 0o755),
               ("spec/" + spec_name, spec_text.encode(), 0o644)]
    write_tar(path, entries, gzip=True)


def hand_bundle(path, trace, plan, spec_text, services=None, rows=None, env=None):
    """An fbc-layout bundle (tar+zstd) put together from its parts: for
    pages whose strings the test controls (escaping), which no spec can
    produce (test names are identifiers)."""
    manifest = {"schema_version": 1, "fbc_version": "0.1.0",
                "run_id": "feedfacefeedfacefeedfacefeedface",
                "created_at": "2026-12-04T17:00:00Z", "seed": trace.get("seed", 0),
                "spec_root": "spec.star", "spec_entry": "spec/spec.star", "interrupted": False,
                "tests": rows if rows is not None else manifest_rows(trace),
                "summary": {"not_run": 0}}
    entries = [("manifest.json", json.dumps(manifest, indent=2).encode(), 0o644),
               ("env.json", json.dumps(env or {"host_os": "linux"}, indent=2).encode(), 0o644),
               ("trace.json", json.dumps(trace, indent=2).encode(), 0o644)]
    if plan is not None:
        entries.append(("plan.json", json.dumps(plan, indent=2).encode(), 0o644))
    entries.append(("replay.sh", b"#!/usr/bin/env sh\n", 0o755))
    for name, (out, err) in sorted((services or {}).items()):
        entries.append(("services/%s.stdout" % name, out.encode(), 0o644))
        entries.append(("services/%s.stderr" % name, err.encode(), 0o644))
    entries.append(("spec/spec.star", spec_text.encode(), 0o644))
    write_tar(path, entries, gzip=False)


def run_bundle(fbc, workdir, path, *args):
    """The bundle `fbc run spec.star --bundle PATH ARGS` writes in workdir: the
    real artifact (manifest, env, trace, plan, service output, spec snapshot)."""
    p = subprocess.run([fbc, "run", "spec.star", "--bundle", os.path.abspath(path), *args],
                       cwd=workdir, capture_output=True, text=True, timeout=600)
    if p.returncode not in (0, 2, 3):
        raise RuntimeError("fbc run exited %d: %s" % (p.returncode, p.stderr))
    if not os.path.isfile(path):
        raise RuntimeError("fbc run wrote no bundle at %s: %s" % (path, p.stderr))
