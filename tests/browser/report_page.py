"""The harness of the `fbc report` browser tests (report_browser_test.py,
report_handmade_browser_test.py; CTest label `browser`): a Case runs an e2e
spec with `fbc run` on the fixture services (tests/browser/bundles.py),
renders its bundle with `fbc report` and opens the page in headless Chromium
over the DevTools protocol (tests/browser/cdp.py); the checks collect their
failures; the helpers read the page's tests table and trace panel; main()
runs the case named on the command line.
"""
import argparse
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bundles  # noqa: E402

FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL: " + what)


def eq(got, want, what):
    check(got == want, "%s: got %r, want %r" % (what, got, want))


class Case:
    def __init__(self, args):
        self.args = args
        self.tmp = tempfile.mkdtemp(prefix="fbc-report-browser-")
        self.fixtures = {"kv": args.kv, "api": args.api, "crash": args.crash, "nondet": args.nondet}

    def run_spec(self, name, seed="1", *extra):
        """e2e spec -> (bundle path, workdir, trace.json, plan.json, manifest)."""
        wd = os.path.join(self.tmp, name)
        src = os.path.join(self.args.specs, name + ".star")
        if not os.path.exists(src):  # a file test of tests/e2e/run_cases/ (its RUN lines are comments)
            src = os.path.join(os.path.dirname(self.args.specs), "run_cases", name + ".star")
        bundles.prepare_spec(src, wd, self.fixtures)
        path = os.path.join(wd, name + ".fb")
        bundles.run_bundle(self.args.fbc, wd, path, "--seed", seed, *extra)
        members = read_bundle(path)
        return (path, wd, json.loads(members["trace.json"]), json.loads(members["plan.json"]),
                json.loads(members["manifest.json"]))

    def report(self, bundle, cuts=()):
        out = bundle[:-3] + ".html" if bundle.endswith(".fb") else bundle + ".html"
        p = subprocess.run([self.args.fbc, "report", bundle], capture_output=True, text=True)
        eq(p.returncode, 0, "fbc report exit code (stderr: %s)" % p.stderr.strip())
        eq(p.stderr, "".join("fbc report: the page is cut: %s\n" % c for c in cuts) +
           "Report: %s\n" % out, "fbc report stderr")
        return out

    def open(self, browser, html, fragment=""):
        if fragment:  # a fresh load, not a same-document fragment change
            browser.open("about:blank")
        browser.open("file://" + html + fragment)
        browser.wait_for("document.documentElement.dataset.fbcRendered")

    def shot(self, browser, name):
        os.makedirs(self.args.out, exist_ok=True)
        path = os.path.join(self.args.out, name + ".png")
        browser.screenshot(path)
        print("screenshot: " + path)


def read_bundle(path):
    """{name: text} of a .fb (zstd) or legacy tar.gz, read with tar(1)/tarfile."""
    raw = open(path, "rb").read()
    if raw[:2] != b"\x1f\x8b":
        raw = subprocess.run(["zstd", "-d", "-q", "-c"], input=raw, capture_output=True,
                             check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(raw)) as tar:
        return {m.name: tar.extractfile(m).read().decode() for m in tar.getmembers() if m.isfile()}


def expected_display(row):
    """The seed's display name, built here from the JSON leaf fields by the
    rule docs/leaves.md states (independently of the C++ formatter)."""
    if "leaf_id" not in row:
        return row["name"]
    values = row.get("leaf_choice_values", {})
    parts = ["%s=%s" % (k, values.get(k, v)) for k, v in sorted(row.get("leaf_choices", {}).items())]
    parts += ["%s[%s]" % (k, "".join("1" if b else "0" for b in v))
              for k, v in sorted(row.get("leaf_probability_outcomes", {}).items())]
    parts += ["%s#%d" % (k.rsplit("/", 1)[-1], v)
              for k, v in sorted(row.get("leaf_interleavings", {}).items())]
    return "%s [leaf %s%s]" % (row["name"], row["leaf_id"], " \u2014 " + ", ".join(parts) if parts else "")


ROW_TEXTS = "[...document.querySelectorAll('#tests-table .tbody .trow .name')].map(e => e.textContent)"


def click_row(b, i):
    b.eval("document.querySelectorAll('#tests-table .tbody .trow')[%d].click()" % i)


def panel(b):
    return b.eval("""(() => { const p = document.getElementById('trace-panel');
      const q = (s) => { const e = p.querySelector(s); return e ? e.textContent : null; };
      return {row: p.dataset.row, traceDisplay: p.dataset.traceDisplay, title: q('#trace-title'),
        of: q('#trace-of code'), logRows: p.querySelectorAll('#event-log tbody tr').length,
        markers: p.querySelectorAll('#swimlanes .m').length,
        deny: p.querySelectorAll('#swimlanes .m.deny').length,
        lanes: [...p.querySelectorAll('#swimlanes .lane-name')].map(e => e.textContent)}; })()""")


def check_summary(b, manifest):
    counts = b.eval("Object.fromEntries([...document.querySelectorAll('#summary .count')]"
                    ".map(e => [e.dataset.kind, Number(e.dataset.count)]))")
    want = {k: 0 for k in ("passed", "failed", "errored", "inconclusive", "halted")}
    for r in manifest["tests"]:
        o = r["outcome"]
        k = {"expectation_violated": "failed", "fault_bypassed": "passed",
             "strict_determinism_violation": "failed"}.get(o, o)
        want[k] += 1
    want["total"] = len(manifest["tests"])
    for k, v in want.items():
        eq(counts.get(k), v, "summary count " + k)


def no_errors(b):
    eq(b.console_errors(), [], "page errors")


def main(cases):
    """Runs the case named on the command line, one of `cases` ({name: function})."""
    ap = argparse.ArgumentParser()
    ap.add_argument("case", choices=sorted(cases))
    for flag in ("--fbc", "--specs", "--kv", "--api", "--crash", "--nondet", "--out"):
        ap.add_argument(flag, required=True)
    args = ap.parse_args()
    cases[args.case](Case(args))
    if FAILURES:
        print("%d checks failed" % len(FAILURES))
        return 1
    print("ok: " + args.case)
    return 0
