#!/usr/bin/env python3
"""Whole-process speed of `fbc exec` against the Go Starlark implementation.

Runs every program of ../shared/bench (fib, loops, strings, spec, calls) under
both engines in the same run, checks that they print the same checksum, and
prints the median wall time per engine, the Go/fbc ratio per program and the
geometric mean of the ratios.

Usage: bench/starlark/compare.py [--fbc PATH] [--repeats N] [--shared DIR]
The Go peer (`sgo`) is built from ../shared/bench/sgo-main.go into
build/bench/sgo on first use (Debian golang-go + golang-starlark-dev).
"""
import argparse
import math
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROGRAMS = ["fib.star", "loops.star", "strings.star", "spec.star", "calls.star"]
# fib needs recursion; sgo enables set, recursion and global reassignment.
FBC_FLAGS = {"fib.star": ["--allow=recursion"]}


def build_sgo(shared):
    out = os.path.join(ROOT, "build", "bench", "sgo")
    if os.path.exists(out):
        return out
    os.makedirs(os.path.dirname(out), exist_ok=True)
    env = dict(os.environ, GO111MODULE="off", GOPATH="/usr/share/gocode",
               GOCACHE=os.path.join(ROOT, "build", "bench", "gocache"))
    subprocess.run(["go", "build", "-o", out, os.path.join(shared, "bench", "sgo-main.go")],
                   check=True, env=env)
    return out


def timed(cmd):
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    dt = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit("%s failed (exit %d):\n%s" % (" ".join(cmd), p.returncode, p.stderr))
    return dt, p.stdout.strip()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fbc", default=os.path.join(ROOT, "build", "release", "tools", "fbc", "fbc"))
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--shared", default=os.path.join(os.path.dirname(ROOT), "shared"))
    args = ap.parse_args()
    sgo = build_sgo(args.shared)

    print("%-13s %9s %9s %7s  %s" % ("program", "go (s)", "fbc (s)", "go/fbc", "checksum"))
    ratios = []
    slower = []
    for prog in PROGRAMS:
        path = os.path.join(args.shared, "bench", prog)
        engines = {"go": [sgo, path], "fbc": [args.fbc, "exec"] + FBC_FLAGS.get(prog, []) + [path]}
        med, outs = {}, {}
        for name, cmd in engines.items():
            times = []
            for _ in range(args.repeats):
                dt, out = timed(cmd)
                times.append(dt)
            med[name] = statistics.median(times)
            outs[name] = out
        if outs["go"] != outs["fbc"]:
            sys.exit("%s: outputs differ: go=%r fbc=%r" % (prog, outs["go"], outs["fbc"]))
        ratio = med["go"] / med["fbc"]
        ratios.append(ratio)
        if ratio < 1:
            slower.append(prog)
        print("%-13s %9.3f %9.3f %6.2fx  %s" % (prog, med["go"], med["fbc"], ratio, outs["fbc"][:20]))
    geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    print("geomean go/fbc: %.2fx" % geo)
    if slower:
        print("slower than Go: " + ", ".join(slower))


if __name__ == "__main__":
    main()
