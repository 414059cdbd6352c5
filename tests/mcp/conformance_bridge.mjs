// The MCP conformance suite (@modelcontextprotocol/conformance) tests servers
// over Streamable HTTP only (`conformance server --url`); fbc mcp speaks
// stdio. This bridge, built from the official SDK's two transports and
// nothing else, serves http://127.0.0.1:PORT/mcp and relays every JSON-RPC
// message unchanged to and from one `fbc mcp` child per MCP session.
// Usage: node conformance_bridge.mjs --fbc FBC --dir BUNDLE_DIR
// (prints the port it listens on, one line on stdout, once it listens).
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { randomUUID } from "node:crypto";
import http from "node:http";

const args = process.argv.slice(2);
const opt = {};
for (let i = 0; i < args.length; i += 2) opt[args[i].replace(/^--/, "")] = args[i + 1];

const sessions = new Map(); // mcp-session-id -> HTTP transport

async function newSession() {
  const child = new StdioClientTransport({
    command: opt.fbc, args: ["mcp", "--bundle-dir", opt.dir], stderr: "inherit",
  });
  const progressOf = new Map(); // progressToken -> the request it reports on
  const http = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (id) => sessions.set(id, http),
  });
  http.onmessage = (msg) => {
    const token = msg.params?._meta?.progressToken;
    if (msg.id !== undefined && token !== undefined) progressOf.set(token, msg.id);
    child.send(msg);
  };
  http.onclose = () => {
    if (http.sessionId) sessions.delete(http.sessionId);
    child.close();
  };
  child.onmessage = (msg) => {
    // A response goes to its request's stream (by id); a progress
    // notification to the stream of the request it reports on.
    const related = msg.method === "notifications/progress"
      ? progressOf.get(msg.params?.progressToken) : undefined;
    http.send(msg, related !== undefined ? { relatedRequestId: related } : undefined);
  };
  await child.start();
  return http;
}

const server = http.createServer(async (req, res) => {
  try {
    const sid = req.headers["mcp-session-id"];
    let transport = sid ? sessions.get(sid) : undefined;
    if (!transport) {
      if (sid || req.method !== "POST") {
        res.writeHead(sid ? 404 : 400).end("unknown or missing session");
        return;
      }
      transport = await newSession();
    }
    await transport.handleRequest(req, res);
  } catch (e) {
    if (!res.headersSent) res.writeHead(500).end(String(e));
  }
});
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`${server.address().port}\n`);
});
