#!/usr/bin/env python3
"""`fbc report` in a real browser (CTest label `browser`): the pages of real runs.

Each case runs an e2e spec with `fbc run` on the fixture services, renders
it with `fbc report`, opens the page in headless Chromium over the DevTools
protocol (tests/browser/cdp.py), clicks what a person would click, and
checks the DOM against the bundle's own JSON: every leaf's row and trace,
the matrix and coverage, traceback links to the spec, diagnostic codes, the
cause of a failure, an explored leaf's schedule. The bundles no spec can
make (the reference's legacy layout, hostile strings, a page past its
limits) are built by hand in report_handmade_browser_test.py; the harness
is report_page.py. A screenshot of each case goes to OUT/<case>.png.

    report_browser_test.py CASE --fbc FBC --specs DIR --kv BIN --api BIN --crash BIN --nondet DIR
                           --out DIR
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import Browser  # noqa: E402
from report_page import (ROW_TEXTS, check, check_summary, click_row, eq,  # noqa: E402
                         expected_display, main, no_errors, panel)


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


CASES = {"leaves": case_leaves, "matrix": case_matrix, "spec_links": case_spec_links,
         "codes": case_codes, "cause": case_cause, "schedule": case_schedule}


if __name__ == "__main__":
    sys.exit(main(CASES))
