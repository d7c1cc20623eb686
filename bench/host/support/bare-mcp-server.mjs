// A bare MCP SDK server with the benchmark's trivial tool, served over Streamable HTTP the way the SDK
// documents it: McpServer + registerTool, one WebStandardStreamableHTTPServerTransport per session,
// on node:http. Prints "listening <url>" on stdout. Run: node bench/host/support/bare-mcp-server.mjs [port]
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { Readable } from "node:stream";
import {
  isInitializeRequest,
  McpServer,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import { z } from "zod";

const sessions = new Map();

const newServer = () => {
  const server = new McpServer({ name: "bare", version: "1.0.0" });
  server.registerTool(
    "noop",
    {
      description: "Does nothing; measures the serving overhead.",
      inputSchema: z.object({
        q: z.string().describe("Any text"),
        n: z.number().int().optional().describe("A number"),
      }),
    },
    async () => ({
      content: [{ type: "text", text: JSON.stringify({ ok: true }) }],
      structuredContent: { ok: true },
    }),
  );
  return server;
};

const toRequest = (req, res) => {
  const controller = new AbortController();
  res.once("close", () => controller.abort());
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers))
    if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(", ") : v);
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(new URL(req.url ?? "/", `http://${req.headers.host}`), {
    method: req.method,
    headers,
    signal: controller.signal,
    ...(hasBody ? { body: Readable.toWeb(req), duplex: "half" } : {}),
  });
};

const send = async (response, res) => {
  const headers = {};
  response.headers.forEach((v, k) => {
    headers[k] = v;
  });
  res.writeHead(response.status, headers);
  if (!response.body) return res.end();
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    res.write(value);
  }
  res.end();
};

const http = createServer(async (req, res) => {
  const request = toRequest(req, res);
  const id = req.headers["mcp-session-id"];
  let transport = typeof id === "string" ? sessions.get(id) : undefined;
  let parsedBody;
  if (req.method === "POST") {
    parsedBody = await request.json();
  }
  if (!transport) {
    if (!(req.method === "POST" && isInitializeRequest(parsedBody))) {
      res.writeHead(400).end("initialize first");
      return;
    }
    transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => sessions.set(sid, transport),
    });
    await newServer().connect(transport);
  }
  await send(await transport.handleRequest(request, { parsedBody }), res);
});

http.listen(Number(process.argv[2] ?? 0), "127.0.0.1", () => {
  process.stdout.write(`listening http://127.0.0.1:${http.address().port}\n`);
});
for (const s of ["SIGTERM", "SIGINT"]) process.on(s, () => process.exit(0));
