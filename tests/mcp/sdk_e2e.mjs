// fbc mcp end to end with the official MCP TypeScript SDK as the client
// (tests/mcp/README.md). Usage:
//   node sdk_e2e.mjs CASE --fbc FBC --kv KV_BINARY --specs RUN_SPECS_DIR
// CASE: tools (initialize, tools/list, check_spec, plan, list_tests,
// suggest), run (run_test with progress, the bundle as a resource,
// inspect_bundle, diff_bundles), errors (MCP errors for bad calls, raw
// malformed lines answered without a crash).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const [, , which, ...rest] = process.argv;
const opt = {};
for (let i = 0; i < rest.length; i += 2) opt[rest[i].replace(/^--/, "")] = rest[i + 1];

async function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

// A scratch folder with run_specs/NAME.star as NAME.star, the kv fixture
// and a free port filled in.
async function scratch(...names) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fbc-mcp-"));
  const port = await freePort();
  for (const name of names) {
    const text = fs
      .readFileSync(path.join(opt.specs, `${name}.star`), "utf8")
      .replaceAll("@KV_BIN@", opt.kv)
      .replaceAll("@KV_PORT@", String(port));
    fs.writeFileSync(path.join(dir, `${name}.star`), text);
  }
  return dir;
}

async function connect(dir) {
  const transport = new StdioClientTransport({
    command: opt.fbc,
    args: ["mcp", "--bundle-dir", dir],
    cwd: dir,
    stderr: "inherit",
  });
  const client = new Client({ name: "fbc-sdk-e2e", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

const TOOLS = ["check_spec", "diff_bundles", "inspect_bundle", "list_tests", "plan", "run_test",
  "suggest"];

async function toolsCase() {
  const dir = await scratch("diff_base");
  const client = await connect(dir);
  assert.equal(client.getServerVersion().name, "fbc");
  assert.ok(client.getServerCapabilities().tools);
  assert.ok(client.getServerCapabilities().resources);
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), TOOLS);
  for (const t of tools) {
    assert.equal(t.inputSchema.type, "object", t.name);
    assert.equal(t.outputSchema.type, "object", t.name);
    assert.ok(t.description.length > 20, t.name);
  }
  const runTest = tools.find((t) => t.name === "run_test");
  assert.deepEqual(runTest.inputSchema.required, ["spec"]);
  assert.deepEqual(Object.keys(runTest.inputSchema.properties),
    ["spec", "test", "leaf", "seed", "timeout"]);
  assert.equal(runTest.inputSchema.properties.leaf.type, "integer");
  await client.ping();

  const tests = await client.callTool({ name: "list_tests", arguments: { spec: "diff_base.star" } });
  assert.equal(tests.isError, false);
  assert.deepEqual(tests.structuredContent, {
    spec: "diff_base.star", total_leaves: 2, total_exact: true,
    tests: [
      { name: "test_missing_key", kind: "def", leaves: 1, leaves_exact: true },
      { name: "test_store", kind: "def", leaves: 1, leaves_exact: true },
    ],
  });
  assert.deepEqual(JSON.parse(tests.content[0].text), tests.structuredContent);

  const plan = await client.callTool({ name: "plan",
    arguments: { spec: "diff_base.star", coverage: true } });
  assert.equal(plan.isError, false);
  assert.equal(plan.structuredContent.exit_code, 0);
  assert.equal(plan.structuredContent.plan.schema_version, 1);
  assert.equal(plan.structuredContent.plan.totals.instances, 2);
  assert.deepEqual(plan.structuredContent.plan.tests.map((t) => t.name),
    ["test_missing_key", "test_store"]);
  assert.ok(plan.structuredContent.plan.coverage);

  const check = await client.callTool({ name: "check_spec",
    arguments: { spec: "diff_base.star", strict: true } });
  assert.equal(check.isError, false);
  assert.equal(check.structuredContent.check.ok, true);
  assert.equal(check.structuredContent.check.tests, 2);

  // A spec with the body mistake: findings with codes, not a crash.
  fs.writeFileSync(path.join(dir, "bad.star"), fs.readFileSync(path.join(dir, "diff_base.star"),
    "utf8").replace('send(data = "GET nope")', 'send(data = "GET nope", timeot = 1)')
    + '\ndef test_typo():\n    fault(kv, write = deny("EIOO"), run = lambda: kv.main.send(data = "x"))\n');
  const bad = await client.callTool({ name: "check_spec", arguments: { spec: "bad.star" } });
  assert.equal(bad.structuredContent.exit_code, 1);
  assert.ok(bad.structuredContent.check.findings.some((f) => f.code === "UNKNOWN_ERRNO"
    && f.file === "bad.star" && f.line > 0), JSON.stringify(bad.structuredContent));

  const suggest = await client.callTool({ name: "suggest", arguments: { spec: "diff_base.star" } });
  assert.equal(suggest.isError, false);
  assert.equal(suggest.structuredContent.coverage.uncovered_edges, 0);

  const missing = await client.callTool({ name: "plan", arguments: { spec: "nope.star" } });
  assert.equal(missing.isError, true);
  assert.match(missing.content[0].text, /nope\.star/);
  await client.close();
}

async function runCase() {
  const dir = await scratch("diff_base", "diff_fault");
  const client = await connect(dir);
  const progress = [];
  const run = await client.callTool(
    { name: "run_test", arguments: { spec: "diff_base.star", seed: 1 } },
    undefined, { onprogress: (p) => progress.push(p) });
  assert.equal(run.isError, false, run.content[0].text);
  const out = run.structuredContent;
  assert.equal(out.exit_code, 0);
  assert.equal(out.passed, true);
  assert.equal(out.report.version, 2);
  assert.equal(out.report.seed, 1);
  assert.equal(out.report.pass, 2);
  assert.deepEqual(progress.map((p) => [p.progress, p.total]), [[1, 2], [2, 2]]);
  assert.match(progress[1].message, /^2\/2 passed=2 failed=0 test_/);

  // One leaf of one test, with the fault: a failing row, exit 2.
  const one = await client.callTool({ name: "run_test",
    arguments: { spec: "diff_fault.star", test: "store", leaf: 0, seed: 1 } });
  assert.equal(one.structuredContent.exit_code, 2);
  assert.equal(one.structuredContent.passed, false);
  assert.deepEqual(one.structuredContent.report.tests.map((t) => [t.name, t.result]),
    [["test_store", "fail"]]);

  // Both bundles are resources; read the first one's summary and trace.
  const { resources } = await client.listResources();
  const uris = resources.map((r) => r.uri);
  assert.ok(uris.includes(out.bundle_uri), JSON.stringify(uris));
  assert.ok(uris.includes(one.structuredContent.bundle_uri), JSON.stringify(uris));
  const summary = await client.readResource({ uri: out.bundle_uri });
  assert.equal(summary.contents[0].mimeType, "application/json");
  const s = JSON.parse(summary.contents[0].text);
  assert.equal(s.seed, 1);
  assert.deepEqual(s.tests.map((t) => [t.name, t.outcome]),
    [["test_missing_key", "passed"], ["test_store", "passed"]]);
  const trace = await client.readResource({ uri: `${out.bundle_uri}?entry=trace.json` });
  assert.equal(JSON.parse(trace.contents[0].text).version, 2);
  const { resourceTemplates } = await client.listResourceTemplates();
  assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate),
    ["fbc-bundle://{+path}", "fbc-bundle://{+path}?entry={entry}"]);
  await assert.rejects(client.readResource({ uri: "fbc-bundle:///nowhere/x.fb" }),
    (e) => e instanceof McpError && e.code === -32002);

  const inspect = await client.callTool({ name: "inspect_bundle",
    arguments: { bundle: out.bundle, file: "manifest.json" } });
  assert.equal(JSON.parse(inspect.structuredContent.text).seed, 1);

  // The faulted run against the plain one: test_store changed at the fault.
  const diff = await client.callTool({ name: "diff_bundles",
    arguments: { a: out.bundle, b: one.structuredContent.bundle } });
  assert.equal(diff.structuredContent.exit_code, 1);
  const changed = diff.structuredContent.diff.changed;
  assert.deepEqual(changed.map((c) => [c.row, c.outcome_a, c.outcome_b]),
    [["test_missing_key", "passed", null], ["test_store", "passed", "failed"]]);
  assert.match(changed[1].divergence.b, /^kv fault_applied /);
  await client.close();
}

// Raw lines, as a broken client would send them: every one gets its
// JSON-RPC error and the server goes on.
async function rawExchange(dir, lines) {
  const child = spawn(opt.fbc, ["mcp", "--bundle-dir", dir], { cwd: dir });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stdin.end(lines.join("\n") + "\n");
  const code = await new Promise((resolve) => child.on("exit", resolve));
  return { code, replies: out.trim().split("\n").map((l) => JSON.parse(l)) };
}

async function errorsCase() {
  const dir = await scratch("diff_base");
  const client = await connect(dir);
  const expectError = (p, code, re) => assert.rejects(p, (e) => {
    assert.ok(e instanceof McpError, String(e));
    assert.equal(e.code, code);
    assert.match(e.message, re);
    return true;
  });
  await expectError(client.callTool({ name: "no_such_tool", arguments: {} }),
    ErrorCode.InvalidParams, /unknown tool "no_such_tool"/);
  await expectError(client.callTool({ name: "plan", arguments: {} }),
    ErrorCode.InvalidParams, /requires argument "spec"/);
  await expectError(client.callTool({ name: "run_test", arguments: { spec: "x", leaf: "two" } }),
    ErrorCode.InvalidParams, /"leaf" must be an integer/);
  await expectError(client.callTool({ name: "plan", arguments: { spec: "x", sepc: 1 } }),
    ErrorCode.InvalidParams, /has no argument "sepc"/);
  await expectError(client.request({ method: "prompts/list" }, (await import(
    "@modelcontextprotocol/sdk/types.js")).ListPromptsResultSchema),
    ErrorCode.MethodNotFound, /prompts\/list/);
  await client.ping(); // still serving
  await client.close();

  const { code, replies } = await rawExchange(dir, [
    "{not json",
    "[]",
    '"text"',
    '{"jsonrpc":"1.0","id":1,"method":"ping"}',
    '{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}',
    '{"jsonrpc":"2.0","id":2}',
    '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":[1]}',
    '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"plan","arguments":7}}',
    '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}',
    '{"jsonrpc":"2.0","id":5,"result":{}}',
    '{"jsonrpc":"2.0","id":6,"method":"ping"}',
  ]);
  assert.equal(code, 0);
  assert.deepEqual(replies.map((r) => [r.id, r.error ? r.error.code : "ok"]), [
    [null, -32700], [null, -32600], [null, -32600], [1, -32600], [null, -32600], [2, -32600],
    [3, -32602], [4, -32602], [6, "ok"],
  ]);
}

const cases = { tools: toolsCase, run: runCase, errors: errorsCase };
if (!cases[which]) {
  console.error(`usage: node sdk_e2e.mjs ${Object.keys(cases).join("|")} --fbc FBC --kv KV --specs DIR`);
  process.exit(2);
}
await cases[which]();
console.log(`sdk_e2e ${which}: ok`);
