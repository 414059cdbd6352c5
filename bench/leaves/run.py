#!/usr/bin/env python3
"""Memory and time of a run with many leaves, each allocating.

Generates a spec whose one test fans out over LEAVES choose() options and
allocates about MB megabytes per leaf (a list and formatted strings), runs
`fbc run` on it ROUNDS times and prints the median wall time and the peak
RSS. With per-test body heaps the peak is one leaf's worth, not the sum
over leaves; --baseline runs a second fbc binary the same way for a
comparison measured in the same run. --bundle-cost measures the cost of the
run bundle instead: the same binary with its default bundle against
--no-bundle, rounds interleaved, and prints the overhead.

  bench/leaves/run.py --fbc build/release/tools/fbc/fbc [--baseline OTHER]
                      [--leaves 100] [--mb 12] [--rounds 3] [--bundle-cost]
"""
import argparse
import os
import resource
import statistics
import subprocess
import tempfile
import time


def spec_text(leaves, mb):
    # [n] * k: 8 bytes per element; the strings add about a tenth more.
    elems = mb * 1024 * 1024 // 8
    return (
        "def test_alloc():\n"
        f"    n = choose(\"n\", list(range({leaves})))\n"
        f"    x = [n] * {elems}\n"
        f"    y = [\"s%d\" % i for i in range({elems // 10})]\n"
        f"    assert_eq(len(x), {elems})\n"
    )


def measure(fbc, spec_dir, rounds, extra=(), cpu=None):
    times, peaks = [], []
    for _ in range(rounds):
        t0 = time.monotonic()
        pid = os.fork()
        if pid == 0:
            os.chdir(spec_dir)
            fd = os.open(os.devnull, os.O_WRONLY)
            os.dup2(fd, 1)
            os.dup2(fd, 2)
            os.execv(fbc, [fbc, "run", "spec.star", "--seed", "1", *extra])
        _, status, usage = os.wait4(pid, 0)
        times.append(time.monotonic() - t0)
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"{fbc} run failed (status {status})")
        peaks.append(usage.ru_maxrss)
        if cpu is not None:
            cpu.append(usage.ru_utime + usage.ru_stime)
    return statistics.median(times), max(peaks)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fbc", required=True)
    ap.add_argument("--baseline")
    ap.add_argument("--leaves", type=int, default=100)
    ap.add_argument("--mb", type=int, default=12)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--bundle-cost", action="store_true")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "spec.star"), "w") as f:
            f.write(spec_text(a.leaves, a.mb))
        print(f"{a.leaves} leaves, ~{a.mb} MB allocated per leaf, median of {a.rounds}")
        if a.bundle_cost:
            fbc = os.path.abspath(a.fbc)
            with_b, without, cpu_b, cpu_n = [], [], [], []
            for _ in range(a.rounds):  # interleaved: load drifts hit both alike
                without.append(measure(fbc, d, 1, ["--no-bundle"], cpu_n)[0])
                with_b.append(measure(fbc, d, 1, (), cpu_b)[0])
            tw, tn = statistics.median(with_b), statistics.median(without)
            cw, cn = statistics.median(cpu_b), statistics.median(cpu_n)
            fbs = [os.path.join(d, f) for f in os.listdir(d) if f.endswith(".fb")]
            size = os.path.getsize(max(fbs, key=os.path.getmtime))
            # CPU time (user + sys of fbc and its services) too: on a busy
            # machine wall time mostly measures waiting for a core.
            print(f"{'run':<40} {'wall (s)':>9} {'cpu (s)':>9}")
            print(f"{'--no-bundle':<40} {tn:9.3f} {cn:9.3f}")
            print(f"{'bundle (default)':<40} {tw:9.3f} {cw:9.3f}")
            print(f"bundle cost: {100 * (tw - tn) / tn:+.1f}% wall, {100 * (cw - cn) / cn:+.1f}% cpu, "
                  f"{size / 1024:.1f} KB per bundle")
            return
        print(f"{'binary':<40} {'time (s)':>9} {'peak RSS (MB)':>14}")
        for label, path in (("fbc", a.fbc), ("baseline", a.baseline)):
            if not path:
                continue
            t, peak = measure(os.path.abspath(path), d, a.rounds)
            print(f"{label + ': ' + path:<40} {t:9.2f} {peak / 1024:14.1f}")


if __name__ == "__main__":
    main()
