#!/usr/bin/env python3
"""`fbc report` in a real browser (CTest label `browser`).

Each case runs an e2e spec with `fbc run` on the fixture services (or builds
a bundle by hand where no spec can say it: the reference's legacy layout,
hostile strings), renders it with `fbc report`, opens the page in headless
Chromium over the DevTools protocol (tests/browser/cdp.py), clicks what a
person would click, and checks the DOM against the bundle's own JSON.
A screenshot of each case goes to OUT/<case>.png.

    report_browser_test.py CASE --fbc FBC --specs DIR --kv BIN --api BIN --crash BIN --nondet DIR
                           --out DIR
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bundles  # noqa: E402
from cdp import Browser  # noqa: E402

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
    import io
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


# ---------------------------------------------------------------- cases

def case_leaves(c):
    bundle, wd, trace, plan, manifest = c.run_spec("leaves")
    html = c.report(bundle)
    first = open(html, "rb").read()
    c.report(bundle)
    check(open(html, "rb").read() == first, "two renders of one bundle give the same bytes")
    entries = {}
    for t in trace["tests"]:
        entries[(t["name"], t.get("leaf_id"))] = t
    with Browser() as b:
        c.open(b, html)
        rows = manifest["tests"]
        eq(len(rows), len(trace["tests"]), "manifest rows = trace entries")
        eq(b.eval(ROW_TEXTS), [expected_display(r) for r in rows], "tests table rows")
        check(sum("leaf_id" in r for r in rows) == 42, "42 of the 44 rows are leaves")
        check_summary(b, manifest)
        # Every row opens its own leaf's trace.
        extra = set()
        for i, r in enumerate(rows):
            click_row(b, i)
            p = panel(b)
            t = entries[(r["name"], r.get("leaf_id"))]
            want = expected_display(r)
            eq(p["row"], str(i), "row %d: panel row" % i)
            eq(p["title"], want, "row %d: trace title" % i)
            eq(p["of"], expected_display(t), "row %d: the trace's own leaf" % i)
            eq(p["of"], want, "row %d: trace is the row's leaf" % i)
            eq(p["logRows"], len(t["events"]), "row %d: event log rows" % i)
            eq(p["markers"], len(t["events"]), "row %d: swim-lane markers" % i)
            denies = sum(e["type"] == "syscall" and e["fields"].get("decision", "").startswith("deny")
                         for e in t["events"])
            eq(p["deny"], denies, "row %d: denied-syscall markers" % i)
            if r["name"] == "test_wal":
                # The leaf's vector decides the first two WAL writes; later
                # ones follow the seeded stream, the same in every leaf. So
                # the denials shown minus the leaf's fired bits is one
                # constant over the four leaves.
                extra.add(p["deny"] - sum(r["leaf_probability_outcomes"]["wal"]))
        eq(len(extra), 1, "test_wal leaves: denials follow each leaf's own vector (%s)" % extra)
        # The event log filters: only the lifecycle kind.
        wal2 = next(i for i, r in enumerate(rows) if r["name"] == "test_wal" and r["leaf_id"] == "3")
        click_row(b, wal2)
        total = panel(b)["logRows"]
        b.eval("""for (const cb of document.querySelectorAll('#trace-panel input[data-filter=kind]'))
                    if (cb.dataset.value !== 'lifecycle') { cb.checked = false; cb.dispatchEvent(new Event('change')); }""")
        shown = b.eval("[...document.querySelectorAll('#event-log tbody tr')].filter(r => !r.hidden)"
                       ".map(r => r.dataset.kind)")
        t = entries[("test_wal", "3")]
        eq(len(shown), sum(e["type"].startswith("service_") for e in t["events"]), "lifecycle filter")
        check(set(shown) == {"lifecycle"}, "lifecycle filter shows only lifecycle events")
        eq(b.eval("document.getElementById('event-count').textContent"),
           "showing %d of %d events" % (len(shown), total), "event count line")
        # A deep link opens the same leaf.
        c.open(b, html, "#row=%d" % wal2)
        eq(panel(b)["title"], "test_wal [leaf 3 \u2014 wal[11]]", "#row= deep link")
        c.shot(b, "leaves")
        # The Plan tab: the header, one box per plan test, `fbc plan`'s words.
        b.eval("document.getElementById('tabbtn-plan').click()")
        text = subprocess.run([c.args.fbc, "plan", "spec.star"], cwd=wd, capture_output=True,
                              text=True).stdout
        total_line = next(l for l in text.splitlines() if l.startswith("Total:"))
        eq(b.eval("document.getElementById('plan-total').textContent"), total_line, "plan total")
        check("at least" in total_line, "the leaves plan total is a lower bound")
        eq(b.eval("document.querySelector('#plan-header').textContent"),
           "Specspec.starDeterminismL1 (strict) \u2014 default; spec did not call determinism()"
           "Services1 (kv)", "plan header")
        boxes = b.eval("[...document.querySelectorAll('#plan-tests .plan-test')].map(e => "
                       "({name: e.dataset.test, lines: [...e.querySelectorAll('.comp li')].map(l => l.textContent),"
                       " inst: e.querySelector('.instances').textContent}))")
        eq([x["name"] for x in boxes], [t["name"] for t in plan["tests"]], "plan boxes")
        for x in boxes:
            for line in x["lines"]:
                check(any(l.strip().endswith("\u2500 " + line) for l in text.splitlines()),
                      "plan box line %r is a line of `fbc plan`" % line)
        eq(next(x for x in boxes if x["name"] == "test_computed")["inst"], "at least 1 instance",
           "computed axis instances")
        c.shot(b, "leaves-plan")
        no_errors(b)


def case_matrix(c):
    bundle, wd, trace, plan, manifest = c.run_spec("matrix", seed="3")
    html = c.report(bundle)
    with Browser() as b:
        c.open(b, html)
        eq(b.eval(ROW_TEXTS), [r["name"] for r in manifest["tests"]], "tests table with a matrix")
        check_summary(b, manifest)
        b.eval("document.getElementById('tabbtn-matrix').click()")
        cells = b.eval("[...document.querySelectorAll('#matrix button')].map(e => "
                       "({sc: e.dataset.scenario, f: e.dataset.fault, text: e.textContent}))")
        eq(len(cells), len(trace["matrix"]["cells"]), "matrix cells")
        for k, cell in enumerate(cells):
            b.eval("document.querySelectorAll('#matrix button')[%d].click()" % k)
            want = next(t["name"] for t in trace["tests"]
                        if t.get("scenario") == cell["sc"] and t.get("fault") == cell["f"])
            eq(b.eval("!document.getElementById('tab-tests').hidden"), True, "cell %d opens Tests" % k)
            p = panel(b)
            eq(p["title"], want, "cell %s x %s opens its own test" % (cell["sc"], cell["f"]))
            eq(p["of"], want, "cell %s x %s trace" % (cell["sc"], cell["f"]))
        b.eval("document.getElementById('tabbtn-matrix').click()")
        c.shot(b, "matrix")
        # Coverage: one row per edge, with its mark.
        b.eval("document.getElementById('tabbtn-plan').click()")
        edges = plan["coverage"]["edges"]
        got = b.eval("[...document.querySelectorAll('#coverage tr')].slice(1).map(r => r.cells[0].textContent + ' ' + r.cells[1].textContent)")
        eq(got, [("\u2713 " if e.get("fault_tests") or e.get("body_fault_tests") else "\u26a0 ") + e["from"] + " \u2192 " + e["to"]
                 for e in edges], "coverage rows")
        no_errors(b)


def case_spec_links(c):
    bundle, wd, trace, plan, manifest = c.run_spec("trace")
    html = c.report(bundle)
    spec_lines = open(os.path.join(wd, "spec.star")).read().split("\n")
    failing = [i for i, r in enumerate(manifest["tests"])
               if next(t for t in trace["tests"] if t["name"] == r["name"]).get("traceback")]
    check(failing, "the trace spec has a failure with a traceback")
    with Browser() as b:
        c.open(b, html)
        for i in failing:
            click_row(b, i)
            frames = b.eval("[...document.querySelectorAll('#traceback li')].map(l => "
                            "({text: l.textContent, link: !!l.querySelector('a')}))")
            t = next(t for t in trace["tests"] if t["name"] == manifest["tests"][i]["name"])
            eq([f["text"] for f in frames], t["traceback"], "row %d traceback" % i)
            for k, f in enumerate(frames):
                m = re.match(r"spec\.star:(\d+):\d+: ", f["text"])
                eq(f["link"], bool(m), "frame %r linked iff it names the spec" % f["text"])
                if not m:
                    continue
                b.eval("document.querySelectorAll('#traceback li')[%d].querySelector('a').click()" % k)
                hit = b.eval("(() => { const e = document.querySelector('.line.hit'); return e && "
                             "{id: e.id, src: e.querySelector('.src').textContent, "
                             "visible: !document.getElementById('tab-spec').hidden}; })()")
                line = int(m.group(1))
                eq(hit, {"id": "spec-0-L%d" % line, "src": spec_lines[line - 1], "visible": True},
                   "frame %r opens its spec line" % f["text"])
                b.eval("document.getElementById('tabbtn-tests').click()")
        c.shot(b, "trace")
        b.eval("document.querySelector('#traceback a').click()")
        c.shot(b, "spec-line")
        no_errors(b)


def case_legacy(c):
    wd = os.path.join(c.tmp, "leaves")
    bundles.prepare_spec(os.path.join(c.args.specs, "leaves.star"), wd, c.fixtures)
    trace = bundles.run_json(c.args.fbc, wd, "--seed", "1")
    path = os.path.join(c.tmp, "legacy.fb")
    bundles.legacy_bundle(path, trace, open(os.path.join(wd, "spec.star")).read())
    manifest = json.loads(read_bundle(path)["manifest.json"])
    html = c.report(path)
    with Browser() as b:
        c.open(b, html)
        eq(b.eval(ROW_TEXTS), [expected_display(r) for r in manifest["tests"]],
           "legacy rows carry the leaf label built from the manifest's maps")
        check(b.eval("!!document.getElementById('legacy')"), "legacy banner")
        # A legacy trace has no leaf fields: row k of a test opens the k-th
        # entry of that name.
        seen = {}
        for i, r in enumerate(manifest["tests"]):
            k = seen.get(r["name"], 0)
            seen[r["name"]] = k + 1
            t = [t for t in trace["tests"] if t["name"] == r["name"]][k]
            click_row(b, i)
            p = panel(b)
            eq(p["of"], r["name"], "legacy row %d: trace has no leaf fields" % i)
            eq(p["logRows"], len(t["events"]), "legacy row %d: its own entry's events" % i)
        b.eval("document.getElementById('tabbtn-plan').click()")
        eq(b.eval("document.getElementById('no-plan').textContent"), "no plan data", "legacy plan tab")
        c.shot(b, "legacy")
        no_errors(b)
    # A legacy matrix: its trace entries have no scenario/fault, so a cell
    # opens the test named test_matrix_<scenario>_<fault>.
    wd = os.path.join(c.tmp, "matrix")
    bundles.prepare_spec(os.path.join(c.args.specs, "matrix.star"), wd, c.fixtures)
    trace = bundles.run_json(c.args.fbc, wd, "--seed", "3")
    path = os.path.join(c.tmp, "legacy-matrix.fb")
    bundles.legacy_bundle(path, trace, open(os.path.join(wd, "spec.star")).read())
    html = c.report(path)
    with Browser() as b:
        c.open(b, html)
        b.eval("document.getElementById('tabbtn-matrix').click()")
        cells = b.eval("[...document.querySelectorAll('#matrix button')].map(e => "
                       "({sc: e.dataset.scenario, f: e.dataset.fault}))")
        eq(len(cells), 6, "legacy matrix cells")
        for k, cell in enumerate(cells):
            b.eval("document.querySelectorAll('#matrix button')[%d].click()" % k)
            eq(panel(b)["title"], "test_matrix_%s_%s" % (cell["sc"], cell["f"]),
               "legacy cell %s x %s opens its own test" % (cell["sc"], cell["f"]))
        no_errors(b)


HOSTILE = [
    "<script>window.__pwned = 1</script>",
    "<img src=x onerror=\"window.__pwned = 2\">",
    "</script><script>window.__pwned = 3</script>",
    "<!-- <script> & &amp; \u2028 \u2029 -->",
]


def case_escaping(c):
    events = [{"seq": 1, "timestamp": "2026-12-04T17:00:00.000000001Z", "type": "service_started",
               "event_type": "lifecycle.started", "service": HOSTILE[1],
               "fields": {"binary": HOSTILE[2], "pid": "1"}}]
    tests = [{"name": h, "result": "fail", "reason": "reason " + h, "traceback": [h + ":1:1: in x"],
              "seed": 1, "duration_ms": 1, "faults": [], "syscall_summary": {}, "events": events}
             for h in HOSTILE]
    trace = {"version": 2, "star_file": "spec.star", "seed": 1, "duration_ms": 4, "pass": 0,
             "fail": 4, "tests": tests}
    plan = {"schema_version": 1, "spec_path": HOSTILE[0],
            "determinism": {"level": "L1", "runtime": "default", "strict": True},
            "tests": [{"name": h, "kind": "def", "instances": 1, "expect": HOSTILE[3]} for h in HOSTILE],
            "totals": {"instances": 4}, "topology": {},
            "coverage": {"edges": [{"from": HOSTILE[0], "to": HOSTILE[1], "fault_tests": []}],
                         "uncovered_edges": 1}}
    path = os.path.join(c.tmp, "hostile.fb")
    bundles.hand_bundle(path, trace, plan, "# " + HOSTILE[2] + "\n" + HOSTILE[3] + "\n",
                        services={"svc": (HOSTILE[2], HOSTILE[1])}, env={"host_os": HOSTILE[0]})
    html = c.report(path)
    page = open(html, encoding="utf-8").read()
    eq(page.count("<script"), 2, "the page has exactly its two script elements")
    for h in HOSTILE:
        check(h not in page, "%r does not appear raw in the page" % h)
    with Browser() as b:
        c.open(b, html)
        eq(b.eval("window.__pwned"), None, "no injected script ran")
        eq(b.eval("document.querySelectorAll('img, b[id=x], script').length"), 2,
           "no injected element (only the two scripts)")
        eq(b.eval(ROW_TEXTS), HOSTILE, "hostile test names render as text")
        click_row(b, 1)
        eq(b.eval("document.getElementById('trace-reason').textContent"), "reason " + HOSTILE[1],
           "reason as text")
        eq(panel(b)["lanes"], [HOSTILE[1][:13] + "\u2026"], "lane name as text")
        b.eval("document.getElementById('tabbtn-services').click()")
        eq(b.eval("document.querySelector('#tab-services .logs pre.stdout').textContent"), HOSTILE[2],
           "stdout as text")
        eq(b.eval("document.querySelector('#tab-services .logs pre.stderr').textContent"), HOSTILE[1],
           "stderr as text")
        eq(b.eval("[...document.querySelectorAll('#plan-tests h3')].map(e => e.firstChild.textContent)"),
           [h + " " for h in HOSTILE], "plan names as text")
        eq(b.eval("window.__pwned"), None, "still no injected script ran")
        c.shot(b, "escaping")
        no_errors(b)


def case_codes(c):
    """Each row's diagnostic code (docs/diagnostics.md, issue #33): the test
    list shows the manifest's code beside the outcome, the filter finds a
    row by it, and the trace panel names it with this fbc's suggestion."""
    bundle, wd, trace, plan, manifest = c.run_spec("codes")
    html = c.report(bundle)
    rows = manifest["tests"]
    want = [r.get("code") for r in rows]
    eq(want, ["ASSERTION_FAILED", "BODY_ERROR", "BAD_DURATION", "UNKNOWN_ERRNO", "UNKNOWN_ERRNO",
              "FAULT_NOT_FIRED", None], "the manifest's codes")
    with Browser() as b:
        c.open(b, html)
        got = b.eval("[...document.querySelectorAll('#tests-table .tbody .trow')].map(r => "
                     "{ const e = r.querySelector('.rcode'); return e ? e.textContent : null; })")
        eq(got, want, "the code beside each row's outcome")
        errno = want.index("UNKNOWN_ERRNO")
        click_row(b, errno)
        line = b.eval("document.getElementById('trace-code').textContent")
        eq(line, "code UNKNOWN_ERRNO \u2014 Use an errno name from the supported list (EIO, ENOSPC, "
           "ECONNREFUSED, ...); names are case-insensitive.", "the trace panel's code line")
        check(b.eval("document.getElementById('trace-reason').textContent")
              .startswith('spec.star:18:28: deny(): unknown errno "EIOO"'), "the located reason")
        click_row(b, len(rows) - 1)
        eq(b.eval("document.getElementById('trace-code')"), None, "a passing row has no code line")
        b.eval("const f = document.getElementById('tests-filter'); f.value = 'fault_not_fired';"
               "f.dispatchEvent(new Event('input'))")
        eq(b.eval("[...document.querySelectorAll('#tests-table .tbody .trow')].filter(r => !r.hidden)"
                  ".map(r => r.querySelector('.name').textContent)"),
           ["test_fault_never_fires"], "the filter finds a row by its code")
        c.shot(b, "codes")
        no_errors(b)


def case_cut(c):
    """A bundle past the report's limits (issue #31): 10,050 rows and a
    reason of 100,000 bytes. The page lists 10,000 rows, says in its banner
    what it cut, and the cut reason ends with its notice."""
    n = 10050
    rows = [{"name": "test_%05d" % i, "outcome": "passed", "duration_ms": 1, "seed": 1}
            for i in range(n)]
    rows[0]["outcome"] = "failed"
    rows[0]["reason"] = "r" * 100000
    trace = {"version": 2, "seed": 1, "tests": [
        {"name": "test_00000", "result": "fail", "reason": "r" * 100000, "events": []}]}
    path = os.path.join(c.tmp, "cut.fb")
    bundles.hand_bundle(path, trace, None, "x = 1\n", rows=rows)
    cuts = ["tests-table rows not shown (the page shows the first 10000): 50",
            "strings cut to 65536 bytes: 2"]
    html = c.report(path, cuts)
    with Browser() as b:
        c.open(b, html)
        eq(b.eval("[...document.querySelectorAll('#cut li')].map(e => e.textContent)"), cuts,
           "the banner lists each cut")
        eq(b.eval("document.querySelectorAll('#summary [data-kind=total] b')[0].textContent"),
           str(n), "the summary counts every row")
        eq(b.eval("document.querySelectorAll('#tests-table .tbody .trow').length"), 10000,
           "10,000 rows are listed")
        click_row(b, 0)
        reason = b.eval("document.getElementById('trace-reason').textContent")
        check(reason.endswith("\u2026 [fbc: cut, 100000 bytes in all]"), "the reason says it was cut")
        c.shot(b, "cut")
        no_errors(b)


def case_cause(c):
    """The cause first (issue #32): a row whose service died shows the death
    and the service's last lines above the reason; a bypassed row and a
    failing one list every rule with what it matched while in force and its
    hits; the summary counts fault_bypassed; log boxes open at their end;
    the swim lanes have a time axis and labelled events; #tab= opens a tab."""
    bundle, wd, trace, plan, manifest = c.run_spec("cause")
    html = c.report(bundle)
    rows = [r["name"] for r in manifest["tests"]]
    eq(rows, ["test_never_fires", "test_store_dies", "test_write_denied"], "cause rows")
    eq([r["outcome"] for r in manifest["tests"]], ["fault_bypassed", "failed", "failed"],
       "cause outcomes")
    cause = ("(() => { const c = document.getElementById('cause'); if (!c) return null;"
             " return {deaths: [...c.querySelectorAll('.death')].map(d => ({service: d.dataset.service,"
             " line: d.querySelector('p').textContent, tails: [...d.querySelectorAll('pre')].map(p => p.textContent)})),"
             " rules: [...c.querySelectorAll('#cause-rules tr')].slice(1).map(r => [...r.cells].map(x => x.textContent)),"
             " first: c.previousElementSibling.id}; })()")
    with Browser() as b:
        c.open(b, html)
        check_summary(b, manifest)
        eq(b.eval("document.querySelector('#summary [data-kind=fault_bypassed]').dataset.count"), "1",
           "the summary has a fault_bypassed card")
        # The store's death, its last line, then its rule: above the reason.
        click_row(b, 1)
        got = b.eval(cause)
        died = next(e for e in trace["tests"][1]["events"]
                    if e["type"] == "service_stopped" and e["fields"].get("unexpected") == "true")
        eq(got["deaths"], [{"service": "kv", "line": "kv exited during the test: " + died["fields"]["exit"],
                            "tails": [died["fields"]["stderr"]]}], "the death and its last lines")
        check("kv_store: PANIC: could not fsync the WAL: Input/output error" in died["fields"]["stderr"],
              "the store's last line is its panic")
        eq(got["rules"], [["kv", "fsync=deny(input/output error)", "1", "1"]], "the rule that killed it")
        eq(b.eval("document.getElementById('cause').nextElementSibling.textContent"), "Reason",
           "the cause comes before the reason")
        eq(b.eval("document.querySelector('#trace-panel h4').textContent"), "Cause",
           "the cause is the panel's first section")
        # A bypassed pass: its rule saw nothing, with the run's hint.
        click_row(b, 0)
        eq(b.eval(cause)["rules"], [["kv", "fsync=deny(input/output error)", "0", "0 \u2014 never fired",
                                     "no fsync/fdatasync call of kv reached the rule while it was in force"]],
           "the bypassed rule and why")
        # A failure whose fault fired: the rule and its hits.
        click_row(b, 2)
        got = b.eval(cause)
        eq(got["deaths"], [], "no death in test_write_denied")
        eq(len(got["rules"]), 1, "one rule in test_write_denied")
        eq(got["rules"][0][:2], ["kv", "write=deny(no space left on device)"], "the write rule")
        check(int(got["rules"][0][3]) >= 1 and got["rules"][0][2] == got["rules"][0][3],
              "the write rule fired on what it matched: %r" % got["rules"][0])
        eq(b.eval("document.querySelector('#trace-syscalls').previousElementSibling.textContent"),
           "Syscalls per service (the whole test, in and out of any rule's time in force)",
           "the syscall table says what it counts")
        # The time axis: ticks from +0ms; labels on the story's events.
        ticks = b.eval("[...document.querySelectorAll('#swimlanes .tick-label')].map(e => e.textContent)")
        check(len(ticks) >= 2 and ticks[0] == "+0ms" and all(re.match(r"^\+\d+ms$", t) for t in ticks),
              "time axis ticks: %r" % ticks)
        labels = b.eval("[...document.querySelectorAll('#swimlanes .mlabel')].map(e => e.textContent)")
        for want in ("started", "ready", "fault applied", "deny write", "put /kv/item", "stopped"):
            check(any(l.startswith(want) for l in labels), "a swim-lane label %r in %r" % (want, labels))
        c.shot(b, "cause")
        # The service output opens at its end.
        click_row(b, 1)
        b.eval("document.getElementById('tabbtn-services').click()")
        ends = b.eval("[...document.querySelectorAll('#tab-services .logs pre')].filter(p => "
                      "p.scrollHeight > p.clientHeight).map(p => p.scrollTop + p.clientHeight >= p.scrollHeight - 1)")
        check(all(ends), "long log boxes open scrolled to their end: %r" % ends)
        # A tab by URL.
        c.open(b, html, "#tab=plan")
        eq(b.eval("!document.getElementById('tab-plan').hidden"), True, "#tab=plan opens the Plan tab")
        no_errors(b)


SCHEDULE = """(() => { const p = document.getElementById('trace-panel');
  const svg = p.querySelector('#schedule');
  const cov = p.querySelector('#schedule-coverage'), not = p.querySelector('#schedule-not-covered');
  return svg && {lanes: [...svg.querySelectorAll('.lane-name')].map(e => e.textContent),
    numbers: [...svg.querySelectorAll('.rel')].map(g => g.querySelector('.rel-n').textContent),
    calls: [...svg.querySelectorAll('.rel')].map(g => g.dataset.call),
    onLane: [...svg.querySelectorAll('.rel')].map(g => g.dataset.lane),
    labels: [...svg.querySelectorAll('.rel-call')].map(e => e.textContent),
    list: [...p.querySelectorAll('#schedule-list li')].map(e => e.value + ' ' + e.textContent),
    releaseMarkers: p.querySelectorAll('#swimlanes .m.release').length,
    coverage: cov && cov.textContent, notCovered: not && not.textContent}; })()"""

# Leaf 0 of test_two_increments: DPOR's first order runs each request whole
# (the thread released last goes on while it is waiting), t0's first.
LEAF0 = ["counter/t0#0 recvfrom", "counter/t0#1 pread64", "counter/t0#2 pwrite64",
         "counter/t0#3 sendto", "counter/t1#0 recvfrom", "counter/t1#1 pread64",
         "counter/t1#2 pwrite64", "counter/t1#3 sendto"]


def case_schedule(c):
    """An explored leaf's schedule (issue #30): run_specs/explore_dpor.star's
    two concurrent INCRs under interleavings="dpor" run 6 leaves; each
    leaf's trace shows a lane per thread of the counter whose held calls
    were released, the 8 releases numbered 1..8 in release order on their
    own thread's lane with the very calls the row's leaf_released records,
    and the last leaf the coverage statement. A test that was not
    explored (launch orders) has no schedule."""
    bundle, wd, trace, plan, manifest = c.run_spec(
        "explore_dpor", "1", "--test", "~^test_(two_increments|launch_orders)$")
    html = c.report(bundle)
    rows = manifest["tests"]
    eq([(r["name"], r.get("leaf_id")) for r in rows],
       [("test_launch_orders", "0"), ("test_launch_orders", "1")] +
       [("test_two_increments", str(k)) for k in range(6)], "explore_dpor rows")
    eq(rows[2]["leaf_released"], LEAF0, "leaf 0's recorded schedule")
    with Browser() as b:
        c.open(b, html)
        orders = set()
        for i, r in enumerate(rows[2:], 2):
            click_row(b, i)
            got = b.eval(SCHEDULE)
            released = r["leaf_released"]
            orders.add(tuple(released))
            eq(got["lanes"], ["counter/t0", "counter/t1"], "row %d: one lane per thread" % i)
            eq(got["numbers"], [str(k) for k in range(1, 9)], "row %d: releases numbered in order" % i)
            eq(got["calls"], released, "row %d: the released calls, in release order" % i)
            eq(got["onLane"], [x.split("#")[0] for x in released], "row %d: each on its thread's lane" % i)
            eq(got["labels"], [x.split(" ")[1] for x in released], "row %d: the syscall under each" % i)
            eq(got["list"], ["%d %s" % (k + 1, x) for k, x in enumerate(released)],
               "row %d: the numbered list" % i)
            eq(got["releaseMarkers"], 8, "row %d: the release events on the swim lanes" % i)
            if i < 7:
                eq((got["coverage"], got["notCovered"]), (None, None), "row %d: no coverage" % i)
        eq(len(orders), 6, "six leaves, six release orders")
        # The last leaf: its coverage statement, as the JSON report has it.
        cov = trace["tests"][7]["explore_coverage"]
        eq(b.eval(SCHEDULE)["coverage"],
           "coverage: explored 6 classes of the orderings of 8 mediated events; complete at the "
           "mediated boundary under conservative independence", "the last leaf's coverage statement")
        eq(b.eval(SCHEDULE)["notCovered"], "not covered: " + cov["not_covered"], "what it does not cover")
        c.shot(b, "schedule")
        click_row(b, 2)
        # A release opens its event in the log.
        b.eval("document.querySelectorAll('#schedule .rel')[2].dispatchEvent(new MouseEvent('click'))")
        eq(b.eval("(() => { const r = document.querySelector('#event-log tr.sel'); return r && "
                  "[r.cells[2].textContent, r.cells[3].textContent, r.cells[4].textContent]; })()"),
           ["counter", "release", "call=counter/t0#2 pwrite64  step=2  waiting=2  quiet=true"],
           "a release selects its event")
        for i in (0, 1):
            click_row(b, i)
            eq(b.eval(SCHEDULE), None, "row %d (launch orders, not explored): no schedule" % i)
        no_errors(b)


CASES = {"codes": case_codes, "schedule": case_schedule, "cut": case_cut, "leaves": case_leaves, "matrix": case_matrix, "spec_links": case_spec_links,
         "legacy": case_legacy, "escaping": case_escaping, "cause": case_cause}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("case", choices=sorted(CASES))
    for flag in ("--fbc", "--specs", "--kv", "--api", "--crash", "--nondet", "--out"):
        ap.add_argument(flag, required=True)
    args = ap.parse_args()
    CASES[args.case](Case(args))
    if FAILURES:
        print("%d checks failed" % len(FAILURES))
        return 1
    print("ok: " + args.case)
    return 0


if __name__ == "__main__":
    sys.exit(main())
