#!/usr/bin/env python3
"""`fbc plan` on a large generated spec against the Go Starlark implementation
merely executing the same file with stand-in builtins, in one run; plus the
linearity check (the spec 10x larger).

  1. gen_spec.py writes, for each shape, the spec at --scale 1 (1,000
     services, 5,000 tests, 10,000 matrix cells) and at --scale 10:
     build/bench/plan/spec1.star and spec10.star (shape "bench", 1.43 MB at
     1x), hidden1.star and hidden10.star (shape "hidden", 1.00 MB at 1x, the
     size of the hidden-size check in issue #16).
  2. sgo_plan.go (our stand-in builtins over go.starlark.net, Debian
     golang-starlark-dev) is built into build/bench/sgo_plan, as
     bench/starlark/compare.py builds sgo.
  3. Each round runs, interleaved, per shape: fbc plan on the 1x spec,
     sgo_plan on the 1x spec, fbc plan on the 10x spec. Medians over the
     rounds of wall time and of CPU time (user+sys of the child, which
     includes Go's GC threads), and the peak RSS of each child (ru_maxrss
     from wait4: that process alone, not its parent; this script stays
     small, as a child's figure cannot go below its parent's peak).

Targets (issue #16), on each shape: fbc plan <= 0.4x the Go time and a peak
RSS no larger than Go's; the 10x spec <= 11x the 1x time. Exit status 1 if a
target is missed (on the minimum wall time over the rounds, the acceptance
measure, and the largest peak RSS over the rounds; medians are printed too).

Usage: bench/plan/run.py [--fbc PATH] [--rounds N] [--shapes bench,hidden]
"""
import argparse
import filecmp
import os
import resource
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
    """Wall and CPU (user+sys) seconds, peak RSS (MB) and user seconds of one
    child process."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    err = p.stderr.read().decode()
    p.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit("%s failed (exit %d):\n%s" % (" ".join(cmd), code, err))
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024.0, ru.ru_utime


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fbc", default=os.path.join(ROOT, "build", "release", "tools", "fbc", "fbc"))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--shapes", default=",".join(gen_spec.SHAPES),
                    help="comma-separated gen_spec.py shapes (default: all)")
    args = ap.parse_args()
    shapes = args.shapes.split(",")
    for shape in shapes:
        if shape not in gen_spec.SHAPES:
            sys.exit("unknown shape %s (valid: %s)" % (shape, ", ".join(gen_spec.SHAPES)))

    out_dir = os.path.join(ROOT, "build", "bench")
    os.makedirs(os.path.join(out_dir, "plan"), exist_ok=True)
    # The specs are written by a child process: a child's ru_maxrss starts
    # at its parent's peak RSS (Linux carries the pre-exec memory's high-water
    # mark over exec), so this process must never grow as large as the
    # children it measures (generating the 10x spec in here took it to 60 MB).
    specs = {}
    for shape in shapes:
        for scale in (1, 10):
            name = "%s%d" % ("spec" if shape == "bench" else shape, scale)
            path = os.path.join(out_dir, "plan", name + ".star")
            subprocess.run([sys.executable, os.path.join(HERE, "gen_spec.py"), "--scale",
                            str(scale), "--shape", shape, path + ".new"], check=True)
            if os.path.exists(path) and filecmp.cmp(path, path + ".new", shallow=False):
                os.remove(path + ".new")
            else:
                os.replace(path + ".new", path)
            specs[shape, scale] = path
            print("%-7s %-9s %s (%.2f MB)" % (shape, "--scale %d" % scale, path,
                                            os.path.getsize(path) / 1e6))
    sgo = build_sgo_plan(out_dir)

    # Per shape: fbc plan on the 1x spec, Go executing it, fbc plan on the
    # 10x spec; every job once per round, interleaved.
    jobs = {}
    for shape in shapes:
        jobs[shape, "fbc plan 1x"] = [args.fbc, "plan", specs[shape, 1]]
        jobs[shape, "go exec 1x"] = [sgo, specs[shape, 1]]
        jobs[shape, "fbc plan 10x"] = [args.fbc, "plan", specs[shape, 10]]
    samples = {k: [] for k in jobs}
    for shape in shapes:  # warm the page cache
        run(jobs[shape, "fbc plan 1x"])
        run(jobs[shape, "go exec 1x"])
    for _ in range(args.rounds):
        for key, cmd in jobs.items():
            samples[key].append(run(cmd))

    # The minimum over rounds estimates the intrinsic time (load from other
    # processes only ever adds to it); the median is shown alongside.
    best = {k: (min(s[0] for s in v), min(s[1] for s in v)) for k, v in samples.items()}
    med = {k: (statistics.median(s[0] for s in v), statistics.median(s[1] for s in v))
           for k, v in samples.items()}
    rss = {k: max(s[2] for s in v) for k, v in samples.items()}
    # The floor under every child's peak RSS (see above).
    floor = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    print("\nthis process's peak RSS (a floor under each child's): %.1f MB" % floor)
    ok = True
    for shape in shapes:
        print()
        print("%-20s %9s %9s %11s %11s %12s" % ("shape " + shape, "wall min", "cpu min",
                                                "wall median", "cpu median", "peak RSS MB"))
        for job in ("fbc plan 1x", "go exec 1x", "fbc plan 10x"):
            k = shape, job
            print("%-20s %9.3f %9.3f %11.3f %11.3f %12.1f" % (job, best[k][0], best[k][1], med[k][0],
                                                             med[k][1], rss[k]))

        def ratios(t):
            fbc1, go1, fbc10 = (t[shape, j] for j in ("fbc plan 1x", "go exec 1x", "fbc plan 10x"))
            return fbc1[0] / go1[0], fbc1[1] / go1[1], fbc10[0] / fbc1[0], fbc10[1] / fbc1[1]

        for label, t in (("min", best), ("median", med)):
            sw, sc, lw, lc = ratios(t)
            print("%-6s fbc plan / go exec: %.2fx wall, %.2fx cpu   (target <= 0.40x)" % (label, sw, sc))
            print("%-6s 10x / 1x (fbc):     %.2fx wall, %.2fx cpu   (target <= 11x)" % (label, lw, lc))
        # Where a 10x/1x ratio above 10 comes from: user time scales with the
        # spec; the kernel's time goes to clearing the fresh pages the larger
        # heap touches (on a virtual machine, more per page the more it touches).
        user = {j: min(s[3] for s in samples[shape, j]) for j in ("fbc plan 1x", "fbc plan 10x")}
        print("min    10x / 1x (fbc) user time only: %.2fx (%.3f s / %.3f s)"
              % (user["fbc plan 10x"] / user["fbc plan 1x"], user["fbc plan 10x"],
                 user["fbc plan 1x"]))
        fbc_rss, go_rss = rss[shape, "fbc plan 1x"], rss[shape, "go exec 1x"]
        print("peak RSS fbc plan / go exec: %.1f MB / %.1f MB = %.2fx   (target <= 1.00x)"
              % (fbc_rss, go_rss, fbc_rss / go_rss))
        sw, _, lw, _ = ratios(best)
        if min(fbc_rss, go_rss) <= floor + 1:
            print("peak RSS not measurable: at the floor")
            fbc_rss = float("inf")
        shape_ok = sw <= 0.4 and lw <= 11 and fbc_rss <= go_rss
        print("%s: %s" % (shape, "PASS" if shape_ok else "FAIL"))
        ok = ok and shape_ok
    print()
    print("PASS" if ok else "FAIL")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
