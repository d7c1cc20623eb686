// The HTTP side of the benchmarks' bare MCP SDK servers, served the way the SDK documents it: one
// WebStandardStreamableHTTPServerTransport per session on node:http, sessions forgotten when closed.
// Shared by the host bench's trivial-tool server and the load bench's three-tool server.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { Readable } from "node:stream";
import { isInitializeRequest, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";

/** A web Request for a node:http request, aborted when the response closes. */
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

/** Writes a web Response to a node:http response, streaming its body. */
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

/**
 * Serves `newServer()` (an McpServer per session) over Streamable HTTP on 127.0.0.1:`port`, prints
 * "listening <url>" on stdout, and exits on SIGTERM or SIGINT.
 */
export const serveBareMcp = (newServer, port = 0) => {
  const sessions = new Map();
  const http = createServer(async (req, res) => {
    try {
      const request = toRequest(req, res);
      const id = req.headers["mcp-session-id"];
      let transport = typeof id === "string" ? sessions.get(id) : undefined;
      const parsedBody = req.method === "POST" ? await request.json() : undefined;
      if (!transport) {
        if (!(req.method === "POST" && isInitializeRequest(parsedBody))) {
          res.writeHead(typeof id === "string" ? 404 : 400).end("initialize first");
          return;
        }
        const server = newServer();
        const created = new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (sid) => sessions.set(sid, created),
          onsessionclosed: (sid) => {
            sessions.delete(sid);
            void server.close();
          },
        });
        transport = created;
        await server.connect(transport);
      }
      await send(await transport.handleRequest(request, { parsedBody }), res);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500).end(String(error));
      else res.end();
    }
  });
  http.listen(Number(port), "127.0.0.1", () => {
    process.stdout.write(`listening http://127.0.0.1:${http.address().port}\n`);
  });
  for (const s of ["SIGTERM", "SIGINT"]) process.on(s, () => process.exit(0));
};
