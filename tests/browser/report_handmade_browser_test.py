#!/usr/bin/env python3
"""`fbc report` in a real browser (CTest label `browser`): bundles built by hand.

Each case builds a bundle no spec can make (tests/browser/bundles.py): one
in the reference tool's legacy tar.gz layout (of a real run's trace), one
full of hostile strings, one past the report's limits; renders it with
`fbc report`, opens the page in headless Chromium over the DevTools
protocol (tests/browser/cdp.py) and checks the DOM: legacy rows and matrix
cells open their own traces, no injected script runs and every string is
text, and the banner says what the page cut. The pages of real runs are in
report_browser_test.py; the harness is report_page.py. A screenshot of each
case goes to OUT/<case>.png.

    report_handmade_browser_test.py CASE --fbc FBC --specs DIR --kv BIN --api BIN --crash BIN
                                    --nondet DIR --out DIR
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bundles  # noqa: E402
from cdp import Browser  # noqa: E402
from report_page import (ROW_TEXTS, check, click_row, eq, expected_display, main,  # noqa: E402
                         no_errors, panel, read_bundle)


# ---------------------------------------------------------------- cases

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


CASES = {"legacy": case_legacy, "escaping": case_escaping, "cut": case_cut}


if __name__ == "__main__":
    sys.exit(main(CASES))
