#!/usr/bin/env python3
"""`fbc plan` on a large generated spec against the Go Starlark implementation
merely executing the same file with stand-in builtins, in one run; plus the
linearity check (the spec 10x larger).

  1. gen_spec.py writes build/bench/plan/spec1.star (--scale 1: 1,000 services,
     5,000 tests, 10,000 matrix cells, ~1.4 MB) and spec10.star (--scale 10).
  2. sgo_plan.go (our stand-in builtins over go.starlark.net, Debian
     golang-starlark-dev) is built into build/bench/sgo_plan, as
     bench/starlark/compare.py builds sgo.
  3. Each round runs, interleaved: fbc plan spec1, sgo_plan spec1, fbc plan
     spec10. Medians over the rounds of wall time and of CPU time (user+sys
     of the child, which includes Go's GC threads), and the peak RSS of each
     child (ru_maxrss from wait4: that process alone, not its parent).

Targets (issue #16): fbc plan <= 0.4x the Go time and a peak RSS no larger
than Go's; spec10 <= 11x the spec1 time. Exit status 1 if a target is missed
(on the minimum wall time over the rounds, the acceptance measure, and the
largest peak RSS over the rounds; medians are printed too).

Usage: bench/plan/run.py [--fbc PATH] [--rounds N]
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import gen_spec  # noqa: E402


def build_sgo_plan(out_dir):
    out = os.path.join(out_dir, "sgo_plan")
    src = os.path.join(HERE, "sgo_plan.go")
    if os.path.exists(out) and os.path.getmtime(out) >= os.path.getmtime(src):
        return out
    env = dict(os.environ, GO111MODULE="off", GOPATH="/usr/share/gocode",
               GOCACHE=os.path.join(out_dir, "gocache"))
    subprocess.run(["go", "build", "-o", out, src], check=True, env=env)
    return out


def run(cmd):
    """Wall and CPU (user+sys) seconds and peak RSS (MB) of one child process."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    err = p.stderr.read().decode()
    p.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit("%s failed (exit %d):\n%s" % (" ".join(cmd), code, err))
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fbc", default=os.path.join(ROOT, "build", "release", "tools", "fbc", "fbc"))
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()

    out_dir = os.path.join(ROOT, "build", "bench")
    os.makedirs(os.path.join(out_dir, "plan"), exist_ok=True)
    specs = {}
    for scale in (1, 10):
        path = os.path.join(out_dir, "plan", "spec%d.star" % scale)
        text = gen_spec.generate(scale)
        if not os.path.exists(path) or open(path).read() != text:
            with open(path, "w") as f:
                f.write(text)
        specs[scale] = path
    sgo = build_sgo_plan(out_dir)
    print("spec1:  %s (%.2f MB)" % (specs[1], os.path.getsize(specs[1]) / 1e6))
    print("spec10: %s (%.2f MB)" % (specs[10], os.path.getsize(specs[10]) / 1e6))

    jobs = {
        "fbc plan spec1": [args.fbc, "plan", specs[1]],
        "go exec spec1": [sgo, specs[1]],
        "fbc plan spec10": [args.fbc, "plan", specs[10]],
    }
    samples = {k: [] for k in jobs}
    run(jobs["fbc plan spec1"])  # warm the page cache
    run(jobs["go exec spec1"])
    for _ in range(args.rounds):
        for name, cmd in jobs.items():
            samples[name].append(run(cmd))

    # The minimum over rounds estimates the intrinsic time (load from other
    # processes only ever adds to it); the median is shown alongside.
    best = {k: (min(s[0] for s in v), min(s[1] for s in v)) for k, v in samples.items()}
    med = {k: (statistics.median(s[0] for s in v), statistics.median(s[1] for s in v))
           for k, v in samples.items()}
    rss = {k: max(s[2] for s in v) for k, v in samples.items()}
    print("%-16s %9s %9s %11s %11s %12s" % ("", "wall min", "cpu min", "wall median", "cpu median",
                                            "peak RSS MB"))
    for k in jobs:
        print("%-16s %9.3f %9.3f %11.3f %11.3f %12.1f" % (k, best[k][0], best[k][1], med[k][0],
                                                         med[k][1], rss[k]))

    def ratios(t):
        return (t["fbc plan spec1"][0] / t["go exec spec1"][0],
                t["fbc plan spec1"][1] / t["go exec spec1"][1],
                t["fbc plan spec10"][0] / t["fbc plan spec1"][0],
                t["fbc plan spec10"][1] / t["fbc plan spec1"][1])

    for label, t in (("min", best), ("median", med)):
        sw, sc, lw, lc = ratios(t)
        print("%-6s fbc plan / go exec:   %.2fx wall, %.2fx cpu   (target <= 0.40x)" % (label, sw, sc))
        print("%-6s spec10 / spec1 (fbc): %.2fx wall, %.2fx cpu   (target <= 11x)" % (label, lw, lc))
    rss_ratio = rss["fbc plan spec1"] / rss["go exec spec1"]
    print("peak RSS fbc plan / go exec: %.1f MB / %.1f MB = %.2fx   (target <= 1.00x)"
          % (rss["fbc plan spec1"], rss["go exec spec1"], rss_ratio))
    sw, _, lw, _ = ratios(best)
    ok = sw <= 0.4 and lw <= 11 and rss_ratio <= 1.0
    print("PASS" if ok else "FAIL")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
