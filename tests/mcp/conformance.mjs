// The public MCP conformance suite against fbc mcp (tests/mcp/README.md):
// starts conformance_bridge.mjs (Streamable HTTP <-> fbc mcp on stdio) and
// runs `conformance server` for each scenario that applies to fbc; each must
// make all of its checks and pass them (exit 0, no failure, no warning).
// Usage: node conformance.mjs --fbc FBC --dir SCRATCH_DIR
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = {};
for (let i = 0; i < args.length; i += 2) opt[args[i].replace(/^--/, "")] = args[i + 1];

// The scenarios of @modelcontextprotocol/conformance 0.1.9 that test what
// fbc serves, each with the number of checks it makes. The others call the
// suite's own fixture tools, resources and prompts (test_simple_text,
// test://static-text, ...) or capabilities fbc does not declare (logging,
// completions, prompts, subscriptions): see docs/mcp.md "Conformance".
// The CLI exits 0 on a scenario without failures, so a scenario that made
// fewer checks (none at all) or warned would pass: the summary line must be
// exactly all of its checks passed, none failed, no warning.
const APPLICABLE = {
  "server-initialize": 1,
  "ping": 1,
  "tools-list": 1,
  "resources-list": 1,
  "server-sse-multiple-streams": 2,
};

fs.mkdirSync(opt.dir, { recursive: true });
const bridge = spawn(process.execPath, [path.join(here, "conformance_bridge.mjs"), "--fbc",
  opt.fbc, "--dir", opt.dir], { stdio: ["ignore", "pipe", "inherit"] });
let failed = 0;
try {
  // The bridge's first line on stdout: its port, once it listens.
  const port = await new Promise((resolve, reject) => {
    let text = "";
    bridge.stdout.on("data", (d) => {
      text += d;
      if (text.includes("\n")) resolve(text.trim());
    });
    bridge.on("exit", (code) => reject(new Error(`the bridge exited (${code})`)));
  });
  const url = `http://127.0.0.1:${port}/mcp`;
  const cli = path.join(here, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
  for (const [scenario, checks] of Object.entries(APPLICABLE)) {
    const r = spawnSync(process.execPath, [cli, "server", "--url", url, "--scenario", scenario],
      { cwd: opt.dir, encoding: "utf8", timeout: 60000 });
    const summary = (r.stdout.match(/Passed: .*/) || ["(no summary)"])[0];
    const expected = `Passed: ${checks}/${checks}, 0 failed, 0 warnings`;
    console.log(`${scenario}: exit ${r.status}, ${summary}`);
    if (r.status !== 0 || summary !== expected) {
      console.log(`${scenario}: expected exit 0 and "${expected}"`);
      failed++;
      console.log(r.stdout, r.stderr);
    }
  }
} finally {
  bridge.kill();
}
console.log(failed ? `conformance: ${failed} scenario(s) failed` : "conformance: ok");
process.exit(failed ? 1 : 0);
