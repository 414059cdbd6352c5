// The page script of `fbc report` (bundle/report_html.cpp embeds it). It
// reads the data element and builds the page with createElement and text
// nodes only: no string from the bundle is ever parsed as HTML. The data's
// shape is written by bundle/report_data.cpp; docs/report.md describes it.
(function () {
  "use strict";
  const tStart = performance.now();
  const D = JSON.parse(document.getElementById("fbc-data").textContent);
  const tParsed = performance.now();
  const app = document.getElementById("app");

  // h("div", {class: "x", onclick: f}, "text", child, [more]) -> element.
  function h(tag, props, ...kids) {
    const e = document.createElement(tag);
    setProps(e, props);
    append(e, kids);
    return e;
  }
  const SVG = "http://www.w3.org/2000/svg";
  function s(tag, props, ...kids) {
    const e = document.createElementNS(SVG, tag);
    setProps(e, props);
    append(e, kids);
    return e;
  }
  function setProps(e, props) {
    for (const [k, v] of Object.entries(props || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") e.setAttribute("class", v);
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else if (k === "data") for (const [dk, dv] of Object.entries(v)) e.dataset[dk] = String(dv);
      else e.setAttribute(k, v === true ? "" : String(v));
    }
  }
  function append(e, kids) {
    for (const kid of kids.flat(Infinity)) {
      if (kid === null || kid === undefined || kid === false) continue;
      e.append(kid instanceof Node ? kid : String(kid));
    }
  }

  const OUTCOME_ICON = {
    passed: "\u2713", failed: "\u2717", expectation_violated: "\u2260", errored: "!",
    inconclusive: "?", halted: "\u2298", fault_bypassed: "\u2205",
    strict_determinism_violation: "\u2717",
  };
  function pill(outcome) {
    return h("span", {class: "pill o-" + outcome}, outcome);
  }
  function ms(n) {
    return n < 1000 ? n + " ms" : (n / 1000).toFixed(n < 10000 ? 2 : 1) + " s";
  }

  // ------------------------------------------------------------ header

  const run = D.run;
  document.title = "fbc report \u2014 " + (run.run_id || run.bundle);
  const meta = h("dl", {class: "meta"});
  for (const [k, v] of [["Spec", run.spec_root], ["Seed", run.seed], ["Created", run.created_at],
      [run.producer === "faultbox" ? "faultbox" : "fbc", run.version], ["Bundle", run.bundle]]) {
    if (v) meta.append(h("div", null, h("dt", null, k), h("dd", null, v)));
  }
  const counts = h("div", {class: "counts", id: "summary"});
  // fault_bypassed rows are counted among the passed too (a pass whose
  // fault never fired), as the text report's "9 passed (1 fault_bypassed)".
  const summaryKinds = ["passed", "fault_bypassed", "failed", "errored", "inconclusive", "halted"];
  if (run.interrupted || D.summary.not_run) summaryKinds.push("not_run");
  for (const k of summaryKinds) {
    counts.append(h("div", {class: "count " + k, data: {kind: k, count: D.summary[k]}},
      h("b", null, D.summary[k]), h("span", null, k.replace("_", " "))));
  }
  counts.append(h("div", {class: "count total", data: {kind: "total", count: D.summary.total}},
    h("b", null, D.summary.total), h("span", null, "total")));
  app.append(h("header", {class: "top"},
    h("div", {class: "title-line"}, h("h1", null, "fbc report"),
      h("span", {class: "runid mono"}, run.run_id ? "run " + run.run_id : "")),
    meta, counts,
    run.interrupted ? h("div", {class: "banner", id: "interrupted"},
      "This run was interrupted: the tests that had not finished are not in it.") : null,
    D.cuts.length ? h("div", {class: "banner", id: "cut"},
      "This report is cut to stay bounded; the bundle itself is whole (fbc inspect reads it):",
      h("ul", null, D.cuts.map((c) => h("li", null, c)))) : null,
    run.legacy ? h("div", {class: "banner", id: "legacy"},
      "A legacy (reference-format) bundle: it has no plan data, and its trace has no leaf fields.") : null));

  // ------------------------------------------------------------ tabs

  const tabs = [["tests", "Tests"]];
  if (D.matrix) tabs.push(["matrix", "Matrix"]);
  tabs.push(["plan", "Plan"], ["spec", "Spec"]);
  if (D.services.length) tabs.push(["services", "Services"]);
  tabs.push(["env", "Environment"]);
  const nav = h("nav", {class: "tabs", role: "tablist"});
  const main = h("main");
  const sections = {};
  for (const [id, label] of tabs) {
    nav.append(h("button", {role: "tab", id: "tabbtn-" + id, "aria-selected": "false",
      onclick: () => showTab(id)}, label));
    sections[id] = h("section", {class: "tab", id: "tab-" + id, hidden: true});
    main.append(sections[id]);
  }
  app.append(nav, main);
  function showTab(id) {
    for (const [t] of tabs) {
      sections[t].hidden = t !== id;
      document.getElementById("tabbtn-" + t).setAttribute("aria-selected", String(t === id));
    }
    if (id === "services") scrollToEnds(sections.services);
  }

  // ------------------------------------------------------------ tests

  // The list is rows of a grid in chunks of 100: the browser skips layout
  // and paint of chunks out of view (content-visibility), which keeps a
  // 1,000-leaf run's page quick to open.
  const list = h("div", {class: "tbody"});
  const rowEls = [];
  let chunk = null;
  D.rows.forEach((r, i) => {
    if (i % 100 === 0) list.append(chunk = h("div", {class: "chunk"}));
    const row = h("div", {class: "trow", role: "row", tabindex: "0", data: {row: i, outcome: r.outcome},
      onclick: () => openTrace(i), onkeydown: (ev) => { if (ev.key === "Enter") openTrace(i); }},
      h("span", {class: "name", role: "cell"}, r.display),
      h("span", {role: "cell"}, pill(r.outcome), r.code ? h("code", {class: "rcode"}, r.code) : null),
      h("span", {class: "dur", role: "cell"}, ms(r.duration_ms)));
    rowEls.push(row);
    chunk.append(row);
  });
  const filterBox = h("input", {type: "search", id: "tests-filter",
    placeholder: "filter tests (name, leaf, outcome, code)", oninput: () => {
      const q = filterBox.value.toLowerCase();
      D.rows.forEach((r, i) => {
        rowEls[i].hidden = q !== "" &&
          !(r.display + " " + r.outcome + " " + (r.code || "")).toLowerCase().includes(q);
      });
    }});
  const tracePanel = h("div", {class: "panel", id: "trace-panel"},
    h("p", {class: "muted"}, "Select a test to open its trace."));
  sections.tests.append(h("div", {class: "tests-layout"},
    h("div", {class: "tests-list"}, filterBox,
      h("div", {id: "tests-table", role: "table"},
        h("div", {class: "thead trow", role: "row"}, h("span", null, "Test"), h("span", null, "Outcome"),
          h("span", null, "Duration")), list)),
    tracePanel));
  if (!D.rows.length) tracePanel.replaceChildren(h("p", {class: "muted"}, "No tests ran."));

  function eventDetails(e) {
    const f = e.fields || {};
    return Object.keys(f).map((k) => k + "=" + f[k]).join("  ");
  }
  const KIND_LABEL = {lifecycle: "lifecycle", fault: "fault rule", deny: "denied syscall",
    delay: "delayed syscall", syscall: "traced syscall", step: "step", release: "release",
    other: "other"};

  let selected = -1;
  function openTrace(i) {
    if (selected >= 0) rowEls[selected].classList.remove("selected");
    selected = i;
    rowEls[i].classList.add("selected");
    rowEls[i].scrollIntoView({block: "nearest"});
    const r = D.rows[i];
    const t = r.trace >= 0 ? D.traces[r.trace] : null;
    tracePanel.dataset.row = i;
    tracePanel.dataset.traceDisplay = t ? t.display : "";
    history.replaceState(null, "", "#row=" + i);
    const kids = [h("h2", {id: "trace-title"}, r.display)];
    kids.push(h("div", {class: "kv"}, pill(r.outcome), h("span", null, ms(r.duration_ms)),
      r.expectation ? h("span", null, "expect: ", h("code", null, r.expectation)) : null));
    // The row's diagnostic code (docs/diagnostics.md) and what to do about it.
    if (r.code)
      kids.push(h("p", {class: "trace-code", id: "trace-code"}, "code ", h("code", null, r.code),
        r.suggestion ? " \u2014 " + r.suggestion : ""));
    if (!t) {
      kids.push(h("p", {class: "muted", id: "no-trace"}, r.trace >= 0
        ? "This row's trace is not in the page: the page reached its size limit (see the note at the top)."
        : "trace.json has no entry for this row."));
      tracePanel.replaceChildren(...kids);
      return;
    }
    const x = t.entry;
    kids.push(h("p", {class: "trace-of", id: "trace-of"}, "trace: ", h("code", null, t.display),
      " \u00b7 result ", h("code", null, x.result || ""), x.seed !== undefined ? " \u00b7 seed " + x.seed : ""));
    if (r.outcome !== "passed") kids.push(causeBlock(t.cause));
    if (x.reason) kids.push(h("h4", null, "Reason"), h("pre", {id: "trace-reason"}, x.reason));
    if (t.frames.length) {
      kids.push(h("h4", null, "Traceback (most recent call last)"),
        h("ol", {class: "frames", id: "traceback"}, t.frames.map((f) => h("li", null,
          f.spec >= 0 ? h("a", {href: "#spec-" + f.spec + "-L" + f.line,
            onclick: (ev) => { ev.preventDefault(); showSpecLine(f.spec, f.line); }}, f.text)
            : f.text))));
    }
    if (x.return_value !== undefined)
      kids.push(h("h4", null, "Return value"), h("pre", null, String(x.return_value)));
    if (x.replay_command)
      kids.push(h("h4", null, "Replay"), h("pre", null,
        "fbc replay " + run.bundle + " --test " + r.name +
        (r.leaf_id !== undefined ? " --leaf " + r.leaf_id : "") + "\n" + x.replay_command));
    if (x.faults && x.faults.length) {
      kids.push(h("h4", null, "Fault rules"), h("table", {id: "trace-faults"},
        h("tr", null, ["service", "syscall", "action", "errno / delay", "path", "label", "hits"]
          .map((c) => h("th", null, c))),
        x.faults.map((f) => h("tr", null, h("td", null, f.service), h("td", null, f.syscall),
          h("td", null, f.action), h("td", null, f.errno || f.delay || ""),
          h("td", null, f.path || ""), h("td", null, f.label || ""), h("td", null, f.hits)))));
    }
    const sum = x.syscall_summary || {};
    if (Object.keys(sum).length) {
      kids.push(h("h4", null, "Syscalls per service (the whole test, in and out of any rule's time in force)"),
        h("table", {id: "trace-syscalls"},
        h("tr", null, h("th", null, "service"), h("th", null, "trapped"), h("th", null, "faulted"),
          h("th", null, "by syscall")),
        Object.keys(sum).map((svc) => h("tr", null, h("td", null, svc),
          h("td", null, sum[svc].total), h("td", null, sum[svc].faulted),
          h("td", {class: "mono"}, Object.entries(sum[svc].breakdown || {})
            .map(([k, v]) => k + ":" + v).join(" "))))));
    }
    const outputs = D.services.filter((svc) =>
      svc.stdout.some(([test]) => test === r.display) || svc.stderr.some(([test]) => test === r.display));
    if (outputs.length) {
      kids.push(h("h4", null, "Service output"), h("div", {class: "logs", id: "trace-output"},
        outputs.map((svc) => [h("h5", {class: "mono"}, svc.name),
          svc.stdout.some(([test]) => test === r.display) ? logSections(svc.stdout, "stdout", r.display) : null,
          svc.stderr.some(([test]) => test === r.display) ? logSections(svc.stderr, "stderr", r.display) : null])));
    }
    const events = x.events || [];
    kids.push(h("h4", null, "Swim lanes"));
    if (!events.length) {
      kids.push(h("p", {class: "muted"}, "No events were recorded for this test."));
    } else {
      const log = eventLog(events, t.kinds);
      kids.push(lanes(events, t.kinds, new Set(t.failed), log.select), legend(),
        t.schedule ? h("div", {class: "schedule-view"}, scheduleView(t.schedule, log.select)) : null,
        h("h4", null, "Event log"), log.root);
    }
    tracePanel.replaceChildren(...kids);
    scrollToEnds(tracePanel);
  }

  // A log box opens at its end: a service's fatal line is its last.
  function scrollToEnds(root) {
    for (const pre of root.querySelectorAll(".logs pre")) pre.scrollTop = pre.scrollHeight;
  }

  // The cause first, on a row that did not plainly pass: the services that
  // died during the test with their last lines, then every fault rule with
  // what it saw while in force (the report data reads both from the events).
  function causeBlock(cause) {
    if (!cause.deaths.length && !cause.rules.length) return null;
    return h("div", {class: "cause", id: "cause"}, h("h4", null, "Cause"),
      cause.deaths.map((d) => h("div", {class: "death", data: {service: d.service}},
        h("p", null, h("b", {class: "mono"}, d.service), " exited during the test: ", d.exit),
        [d.stderr, d.stdout].filter((x) => x).map((x) => h("pre", {class: "tail"}, x)))),
      cause.rules.length ? h("table", {id: "cause-rules"},
        h("tr", null, ["service", "rule", "matched while in force", "hits"].map((c) => h("th", null, c))),
        cause.rules.map((f) => h("tr", {class: f.hits ? "fired" : "never-fired"},
          h("td", {class: "mono"}, f.service), h("td", {class: "mono"}, f.rule),
          h("td", null, f.matches), h("td", null, f.hits ? f.hits : "0 \u2014 never fired"),
          f.hint ? h("td", {class: "hint"}, f.hint) : null))) : null);
  }

  function legend() {
    const colors = {lifecycle: "#5b8bd6", fault: "#8a3ffc", deny: "#d93025", delay: "#e8a100",
      syscall: "#8c959d", step: "#1f9d55", release: "#0b7285"};
    return h("div", {class: "legend"}, Object.keys(colors).map((k) =>
      h("span", null, h("i", {class: "dot-" + k}), KIND_LABEL[k])));
  }

  // One lane per service (the test's own steps on "test"), a marker per
  // event at its rank in seq order. kinds[i]: how event i is shown (the
  // report data classifies, the page only lays out); failed: the indices of
  // failed step replies.
  function lanes(events, kinds, failed, select) {
    const names = [];
    for (const e of events) if (!names.includes(e.service || "test")) names.push(e.service || "test");
    const W = 1000, left = 110, right = 16, laneH = 30, top = 10, axisH = 28;
    const H = top * 2 + names.length * laneH + axisH;
    const svg = s("svg", {class: "lanes", id: "swimlanes", viewBox: "0 0 " + W + " " + H,
      role: "img", "aria-label": "swim lanes: " + names.join(", ")});
    names.forEach((n, k) => {
      const y = top + k * laneH + laneH / 2;
      svg.append(s("line", {class: "lane", x1: left, x2: W - right, y1: y, y2: y}),
        s("text", {x: 6, y: y + 4, class: "lane-name"}, n.length > 14 ? n.slice(0, 13) + "\u2026" : n));
    });
    const span = Math.max(1, events.length - 1);
    const xOf = (i) => events.length === 1 ? (left + W - right) / 2 : left + (i / span) * (W - left - right);
    // The time axis: events sit in seq order at even steps (a burst of
    // syscalls would otherwise hide in one pixel); ticks say when.
    const axisY = top + names.length * laneH + 6;
    const t0 = Date.parse(events[0].timestamp);
    svg.append(s("line", {class: "axis", x1: left, x2: W - right, y1: axisY, y2: axisY}),
      s("text", {x: 6, y: axisY + 16, class: "axis-name"}, "time"));
    const ticks = [...new Set([0, 1, 2, 3, 4].map((k) => Math.round(k * span / 4)))]
      .filter((i) => i < events.length);
    for (const i of ticks) {
      const rel = Date.parse(events[i].timestamp) - t0;
      svg.append(s("line", {class: "tick", x1: xOf(i), x2: xOf(i), y1: axisY, y2: axisY + 4}),
        s("text", {x: xOf(i), y: axisY + 16, class: "tick-label", "text-anchor": "middle"},
          isNaN(rel) ? "#" + events[i].seq : "+" + rel + "ms"));
    }
    // Labels on the events that tell the story (not every syscall), while
    // there are few enough to read.
    // (A release is numbered in the schedule below instead.)
    const labelled = events.map((e, i) => !["syscall", "other", "release"].includes(kinds[i]));
    const showLabels = labelled.filter((x) => x).length <= 30;
    const markers = [];
    events.forEach((e, i) => {
      const lane = names.indexOf(e.service || "test");
      const x = xOf(i);
      const y = top + lane * laneH + laneH / 2;
      const kind = kinds[i];
      const cls = "m " + kind + (failed.has(i) ? " failed" : "");
      let m;
      if (kind === "lifecycle") m = s("rect", {x: x - 5, y: y - 5, width: 10, height: 10, class: cls});
      else if (kind === "fault")
        m = s("polygon", {points: [x, y - 7, x + 7, y, x, y + 7, x - 7, y].join(" "), class: cls});
      else if (kind === "step")
        m = s("polygon", {points: e.type === "step_recv" ? [x + 6, y - 6, x + 6, y + 6, x - 6, y].join(" ")
          : [x - 6, y - 6, x - 6, y + 6, x + 6, y].join(" "), class: cls});
      else m = s("circle", {cx: x, cy: y, r: kind === "syscall" ? 4 : 5.5, class: cls});
      m.dataset.seq = e.seq;
      m.append(s("title", null, "#" + e.seq + " " + (e.service || "test") + " " + e.type +
        (eventDetails(e) ? "\n" + eventDetails(e) : "")));
      m.addEventListener("click", () => select(i));
      markers.push(m);
      svg.append(m);
      if (showLabels && labelled[i])
        svg.append(s("text", {x: x, y: y - 9, class: "mlabel", "text-anchor": "middle"},
          eventLabel(e, kind)));
    });
    svg.markers = markers;
    return svg;
  }

  // An explored leaf's schedule (the report data reads it from its release
  // events): a lane per thread or proxied connection whose held call was
  // released, each release numbered in release order at a step of its own
  // with its call's syscall (or request) under it, then the calls in a
  // numbered list; the last leaf of a dpor test adds its coverage statement.
  function scheduleView(sc, select) {
    const kids = [h("h4", null, "Schedule (release order)")];
    const n = sc.releases.length;
    if (n) {
      const left = 130, right = 24, laneH = 44, top = 8, step = 34;
      const W = Math.max(1000, left + right + n * step);
      const H = top * 2 + sc.lanes.length * laneH;
      const svg = s("svg", {class: "lanes schedule", id: "schedule", viewBox: "0 0 " + W + " " + H,
        width: W > 1000 ? W : null, role: "img", "aria-label": "schedule: " + sc.lanes.join(", ")});
      sc.lanes.forEach((name, k) => {
        const y = top + k * laneH + laneH / 2 - 6;
        svg.append(s("line", {class: "lane", x1: left, x2: W - right, y1: y, y2: y}),
          s("text", {x: 6, y: y + 4, class: "lane-name"}, name.length > 14 ? name.slice(0, 13) + "\u2026" : name));
      });
      const xOf = (k) => n === 1 ? (left + W - right) / 2 : left + 14 + (k / (n - 1)) * (W - left - right - 28);
      sc.releases.forEach((r, k) => {
        const x = xOf(k), y = top + r.lane * laneH + laneH / 2 - 6;
        const call = r.call.slice(r.call.indexOf(" ") + 1);
        const g = s("g", {class: "rel" + (r.quiet ? "" : " unquiet"),
          data: {n: r.n, call: r.call, lane: sc.lanes[r.lane]}},
          s("circle", {cx: x, cy: y, r: 10}),
          s("text", {x: x, y: y + 4, class: "rel-n", "text-anchor": "middle"}, r.n),
          s("text", {x: x, y: y + 23, class: "rel-call", "text-anchor": "middle"},
            call.length > 9 ? call.slice(0, 8) + "\u2026" : call),
          s("title", null, r.n + ". " + r.call + "\n" + r.waiting + " waiting" +
            (r.quiet ? "" : "; released without quiescence (quiet=false)")));
        g.addEventListener("click", () => select(r.event));
        svg.append(g);
      });
      kids.push(h("div", {class: "schedule-scroll"}, svg),
        h("ol", {class: "schedule-list mono", id: "schedule-list"}, sc.releases.map((r) =>
          h("li", {value: r.n, data: {lane: sc.lanes[r.lane]}}, r.call,
            r.quiet ? null : h("span", {class: "muted"}, " (quiet=false)")))));
    }
    if (sc.coverage)
      kids.push(h("p", {class: "coverage", id: "schedule-coverage"}, "coverage: " + sc.coverage),
        h("p", {class: "muted", id: "schedule-not-covered"}, "not covered: " + sc.not_covered));
    return kids;
  }

  // A marker's short label: "started", "deny write", "get /kv/a".
  function eventLabel(e, kind) {
    const f = e.fields || {};
    let text;
    if (kind === "lifecycle") text = e.type.replace(/^service_/, "");
    else if (kind === "deny" || kind === "delay") text = kind + " " + (f.syscall || "");
    else if (kind === "fault")
      text = e.type.replace(/^proxy_/, "").replace(/_/g, " ") + " " + (f.syscall || f.interface || "");
    else if (kind === "step") text = e.type === "step_recv"
      ? (f.status_code || f.error || (f.success === "false" ? "failed" : "reply"))
      : (f.method || f.command || "") + (f.path ? " " + f.path : "");
    else text = e.type;
    text = text.trim();
    return text.length > 16 ? text.slice(0, 15) + "\u2026" : text;
  }

  // The event log with its filters; select(i) marks event i in both views.
  function eventLog(events, kindOf) {
    const t0 = Date.parse(events[0].timestamp);
    const kinds = ["lifecycle", "fault", "deny", "delay", "syscall", "step", "release", "other"]
      .filter((k) => kindOf.includes(k));
    const services = [];
    for (const e of events) if (!services.includes(e.service || "test")) services.push(e.service || "test");
    const on = {kind: new Set(kinds), service: new Set(services)};
    const search = h("input", {type: "search", id: "event-search", placeholder: "search events",
      oninput: apply});
    const shown = h("span", {class: "muted", id: "event-count"});
    const checks = (what, values, labels) => values.map((v) => h("label", null,
      h("input", {type: "checkbox", checked: true, data: {filter: what, value: v},
        onchange: (ev) => { ev.target.checked ? on[what].add(v) : on[what].delete(v); apply(); }}),
      " ", labels ? labels[v] : v));
    const tb = h("tbody");
    const trs = events.map((e, i) => {
      const rel = Date.parse(e.timestamp) - t0;
      const tr = h("tr", {data: {seq: e.seq, kind: kindOf[i], service: e.service || "test"},
        onclick: () => select(i)},
        h("td", null, e.seq), h("td", null, isNaN(rel) ? "" : "+" + rel + "ms"),
        h("td", null, e.service || "test"), h("td", null, e.type),
        h("td", {class: "details"}, eventDetails(e)));
      tb.append(tr);
      return tr;
    });
    function apply() {
      const q = search.value.toLowerCase();
      let n = 0;
      events.forEach((e, i) => {
        const ok = on.kind.has(kindOf[i]) && on.service.has(e.service || "test") &&
          (q === "" || (e.type + " " + (e.service || "") + " " + eventDetails(e)).toLowerCase().includes(q));
        trs[i].hidden = !ok;
        if (ok) n++;
      });
      shown.textContent = "showing " + n + " of " + events.length + " events";
    }
    let sel = -1;
    function select(i) {
      const svg = document.getElementById("swimlanes");
      if (sel >= 0) {
        trs[sel].classList.remove("sel");
        if (svg) svg.markers[sel].classList.remove("sel");
      }
      sel = i;
      trs[i].classList.add("sel");
      if (svg) svg.markers[i].classList.add("sel");
      trs[i].hidden = false;
      trs[i].scrollIntoView({block: "nearest"});
    }
    const root = h("div", {class: "event-log"},
      h("div", {class: "filters"}, h("b", null, "kind"), checks("kind", kinds, KIND_LABEL)),
      h("div", {class: "filters"}, h("b", null, "service"), checks("service", services, null)),
      h("div", {class: "filters"}, search, shown),
      h("table", {id: "event-log"}, h("thead", null, h("tr", null, ["seq", "time", "service", "type",
        "fields"].map((c) => h("th", null, c)))), tb));
    apply();
    return {root, select};
  }

  // ------------------------------------------------------------ matrix

  if (D.matrix) {
    const m = D.matrix;
    const cellAt = {};
    for (const c of m.cells) cellAt[c.scenario + "\u0000" + c.fault] = c;
    const table = h("table", {class: "matrix", id: "matrix"},
      h("tr", null, h("th", null, "scenario \u2572 fault"), m.faults.map((f) => h("th", null, f))),
      m.scenarios.map((sc) => h("tr", null, h("th", null, sc), m.faults.map((f) => {
        const c = cellAt[sc + "\u0000" + f];
        if (!c) return h("td", {class: "skip", title: "not run"}, "\u00b7");
        return h("td", null, h("button", {class: "o-" + c.outcome,
          data: {row: c.row, scenario: sc, fault: f}, title: c.expectation || "",
          onclick: () => { if (c.row >= 0) { showTab("tests"); openTrace(c.row); } }},
        h("span", {class: "icon"}, OUTCOME_ICON[c.outcome] || "?"), c.outcome,
        h("span", {class: "muted"}, " " + ms(c.duration_ms))));
      }))));
    sections.matrix.append(h("h2", null, "Fault matrix: " + m.scenarios.length + " scenarios \u00d7 " +
      m.faults.length + " faults"), table,
      h("p", {class: "muted"}, "A cell opens the trace of its own test."));
  }

  // ------------------------------------------------------------ plan

  const P = D.plan;
  if (!P) {
    sections.plan.append(h("p", {class: "no-plan", id: "no-plan"}, "no plan data"),
      h("p", {class: "muted"}, "This bundle has no plan.json (a legacy bundle, or a run with --no-plan)."));
  } else {
    const hdr = h("dl", {class: "meta", id: "plan-header"});
    for (const [k, v] of [["Spec", P.spec_path], ["Determinism", P.determinism],
        ["Services", P.services.length ? P.services.length + " (" + P.services.join(", ") + ")" : ""]]) {
      if (v) hdr.append(h("div", null, h("dt", null, k), h("dd", null, v)));
    }
    sections.plan.append(h("h2", null, "Plan"), hdr,
      h("p", {id: "plan-total"}, h("b", null, P.total)));
    if (!P.tests.length) sections.plan.append(h("p", {class: "muted"}, "Plan tree: (no tests discovered)"));
    const boxes = h("div", {class: "plan-tests", id: "plan-tests"});
    for (const t of P.tests) {
      const items = [];
      for (const c of t.compositions)
        items.push(h("div", {class: "comp"}, h("b", null, c.kind), h("ul", null, c.lines.map((l) => h("li", null, l)))));
      const inline = [];
      if (t.faults.length) inline.push("faults: [" + t.faults.join(", ") + "]");
      if (t.expect) inline.push("expect: " + t.expect);
      if (t.timeout) inline.push("timeout: " + t.timeout);
      boxes.append(h("div", {class: "plan-test plan-" + t.kind, data: {test: t.name}},
        h("h3", null, t.name + " ", h("span", {class: "kind"}, "[" + t.kind + "]")),
        h("div", {class: "muted instances"}, t.instances),
        items, inline.length ? h("ul", {class: "inline"}, inline.map((l) => h("li", null, l))) : null,
        t.matrix_cells.length ? h("details", null, h("summary", null, t.matrix_cells.length + " cells"),
          h("ul", null, t.matrix_cells.map((c) => h("li", null, c)))) : null));
    }
    sections.plan.append(boxes);
    sections.plan.append(h("h2", null, "Coverage"));
    if (!P.coverage) {
      sections.plan.append(h("p", {class: "muted"}, "no coverage data in this plan"));
    } else {
      const C = P.coverage;
      sections.plan.append(h("p", {id: "coverage-line"}, C.edges.length + " dependency edge" +
        (C.edges.length === 1 ? "" : "s") + "; " + (C.uncovered ? C.uncovered + " without a fault test"
          : "every edge has a fault test")));
      if (C.edges.length) {
        sections.plan.append(h("table", {class: "cov", id: "coverage"},
          h("tr", null, ["", "edge", "protocol", "via", "fault tests"].map((c) => h("th", null, c))),
          C.edges.map((e) => h("tr", {class: e.covered ? "covered" : "gap"},
            h("td", {class: "mark"}, e.covered ? "\u2713" : "\u26a0"),
            h("td", {class: "mono"}, e.from + " \u2192 " + e.to), h("td", null, e.protocol),
            h("td", null, e.via), h("td", {class: "mono"}, e.covered ? e.fault_tests.concat(
              e.body_fault_tests.map((t) => t + " (test body)")).join(", ") : "no fault test")))));
      }
    }
    if (P.diagnostics.length) {
      sections.plan.append(h("h2", null, "Diagnostics"), h("ul", null, P.diagnostics.map((d) =>
        h("li", null, h("code", null, d.location), " " + d.severity + ": " + d.message + " [" + d.code + "]"))));
    }
  }

  // ------------------------------------------------------------ spec

  if (!D.specs.length) sections.spec.append(h("p", {class: "muted"}, "This bundle has no spec files."));
  D.specs.forEach((f, i) => {
    const lines = f.text.split("\n");
    if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
    const code = h("div", {class: "code"});
    lines.forEach((l, k) => code.append(h("div", {class: "line", id: "spec-" + i + "-L" + (k + 1)},
      h("span", {class: "ln"}, k + 1), h("span", {class: "src"}, l))));
    sections.spec.append(h("section", {class: "spec-file", id: "spec-" + i},
      h("h3", {class: "mono"}, f.path, h("span", {class: "muted"}, " \u00b7 " + lines.length + " lines")), code));
  });
  let hitLine = null;
  function showSpecLine(i, line) {
    showTab("spec");
    if (hitLine) hitLine.classList.remove("hit");
    hitLine = document.getElementById("spec-" + i + "-L" + line);
    if (hitLine) {
      hitLine.classList.add("hit");
      hitLine.scrollIntoView({block: "center"});
    }
  }

  // ------------------------------------------------------------ services, env

  // Service output comes in sections, one per test that wrote any (the
  // trace panel shows the opened row's).
  function logSections(sections, cls, only) {
    const shown = sections.filter(([test]) => only === undefined || test === only);
    if (!shown.length) return h("p", {class: "muted"}, "(empty)");
    return shown.map(([test, text]) => [only === undefined && test ? h("h5", {class: "mono"}, test) : null,
      h("pre", {class: cls, data: {test}}, text)]);
  }
  for (const svc of D.services) {
    sections.services.append(h("div", {class: "logs", data: {service: svc.name}},
      h("h3", {class: "mono"}, svc.name),
      h("h4", null, "stdout"), logSections(svc.stdout, "stdout"),
      h("h4", null, "stderr"), logSections(svc.stderr, "stderr")));
  }
  const envRows = [["bundle", run.bundle], ["run_id", run.run_id], ["created_at", run.created_at],
    ["seed", run.seed], ["spec_root", run.spec_root]].concat(D.env);
  sections.env.append(h("table", {id: "env"}, envRows.map(([k, v]) =>
    h("tr", null, h("th", null, k), h("td", {class: "mono"}, v)))));

  // ------------------------------------------------------------ start

  const hash = location.hash.slice(1);
  const rowMatch = /^row=(\d+)$/.exec(hash);
  const tabMatch = /^tab=(\w+)$/.exec(hash);
  if (tabMatch && sections[tabMatch[1]]) showTab(tabMatch[1]);
  else showTab("tests");
  if (rowMatch && Number(rowMatch[1]) < D.rows.length) openTrace(Number(rowMatch[1]));
  // Milestones for bench/report: script start, data parsed, DOM built, and
  // the first frame drawn with the page on it.
  const html = document.documentElement;
  html.dataset.fbcScriptStart = tStart.toFixed(1);
  html.dataset.fbcParsed = tParsed.toFixed(1);
  html.dataset.fbcBuilt = performance.now().toFixed(1);
  requestAnimationFrame(() => setTimeout(() => {
    document.documentElement.dataset.fbcRendered = performance.now().toFixed(1);
  }, 0));
})();
