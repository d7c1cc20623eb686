import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { ToolFailure } from "../errors.js";
import { createHttpClient } from "./http-client.js";
import { type LocalServer, sendJson, startServer } from "./local-server.test-helpers.js";
import type { HttpClient } from "./types.js";

/** Awaits a promise that must reject with a ToolFailure, and returns it. */
const failureOf = async (promise: Promise<unknown>): Promise<ToolFailure> => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!ToolFailure.isInstance(error)) throw new Error(`expected a ToolFailure, got ${String(error)}`);
  return error;
};

let server: LocalServer;
let other: LocalServer;
let http: HttpClient;

beforeAll(async () => {
  other = await startServer((_req, res) => sendJson(res, 200, { other: true }));
  server = await startServer((req, res, body) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const status = Number(url.searchParams.get("status") ?? "200");
    switch (url.pathname) {
      case "/echo":
        return sendJson(res, 200, { method: req.method, url: req.url, headers: req.headers, body });
      case "/status": {
        const headers: Record<string, string> = {};
        const retryAfter = url.searchParams.get("retry_after");
        if (retryAfter !== null) headers["retry-after"] = retryAfter;
        return sendJson(res, status, JSON.parse(url.searchParams.get("body") ?? "{}"), headers);
      }
      case "/html":
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        return res.end("<!DOCTYPE html><html><head><title>Down for maintenance</title></head></html>");
      case "/invalid-json":
        res.writeHead(200, { "content-type": "application/json" });
        return res.end('{"items": [1, 2,');
      case "/items":
        return sendJson(res, 200, { items: [{ id: 1, name: "one" }, { id: "two" }] });
      case "/redirect": {
        const hops = Number(url.searchParams.get("hops") ?? "1");
        const location = hops <= 1 ? "/echo?redirected=1" : `/redirect?hops=${hops - 1}`;
        res.writeHead(Number(url.searchParams.get("code") ?? "302"), { location });
        return res.end("moved");
      }
      case "/loop-a":
      case "/loop-b":
        res.writeHead(302, { location: url.pathname === "/loop-a" ? "/loop-b" : "/loop-a" });
        return res.end();
      case "/try-again": {
        // Redirects to itself until it has been asked `times` times (a server's "try again").
        const seen = server.seen.filter((s) => s.url === req.url).length;
        if (seen <= Number(url.searchParams.get("times"))) {
          res.writeHead(307, { location: req.url ?? "/" });
          return res.end();
        }
        return sendJson(res, 200, { method: req.method, body });
      }
      case "/redirect-away":
        res.writeHead(302, { location: `${other.origin}/echo` });
        return res.end();
      default:
        return sendJson(res, 404, { error: { message: `no route ${url.pathname}` } });
    }
  });
  http = createHttpClient({ headersTimeoutMs: 1000, bodyTimeoutMs: 1000 });
});

afterEach(() => {
  server.seen.length = 0;
});

afterAll(async () => {
  await http.close();
  await server.close();
  await other.close();
});

describe("createHttpClient: requests", () => {
  it("sends the query, headers, user agent and request id, and reads the body", async () => {
    const res = await http.request({
      url: `${server.origin}/echo?fixed=1`,
      query: { q: "a b", limit: 5, exact: true, skip: undefined, tag: ["x", "y"] },
      headers: { "X-Custom": "yes", ignored: undefined },
      requestId: "req-123",
    });
    expect(res.status).toBe(200);
    expect(res.header("Content-Type")).toBe("application/json");
    const echoed = res.json<{ url: string; headers: Record<string, string> }>();
    expect(echoed.url).toBe("/echo?fixed=1&q=a+b&limit=5&exact=true&tag=x&tag=y");
    expect(echoed.headers["x-custom"]).toBe("yes");
    expect(echoed.headers["x-request-id"]).toBe("req-123");
    expect(echoed.headers["user-agent"]).toMatch(/^quiver\/\d+\.\d+\.\d+/);
    expect(res.url).toBe(`${server.origin}/echo?fixed=1&q=a+b&limit=5&exact=true&tag=x&tag=y`);
  });

  it("sends `json` as a JSON body and parses a JSON response", async () => {
    const echoed = await http.json<{ method: string; headers: Record<string, string>; body: string }>({
      method: "POST",
      url: `${server.origin}/echo`,
      json: { query: "aspirin", top: 3 },
    });
    expect(echoed.method).toBe("POST");
    expect(echoed.headers["content-type"]).toBe("application/json");
    expect(echoed.headers.accept).toBe("application/json");
    expect(JSON.parse(echoed.body)).toEqual({ query: "aspirin", top: 3 });
  });

  it("reuses the socket across requests (keep-alive)", async () => {
    await http.request({ url: `${server.origin}/echo` });
    await http.request({ url: `${server.origin}/echo` });
    await http.json({ url: `${server.origin}/echo` });
    const ports = server.seen.map((s) => s.remotePort);
    expect(ports[0]).toBeGreaterThan(0);
    expect(new Set(ports).size).toBe(1);
  });

  it("keeps one pool per origin: concurrent requests open several sockets, then reuse them", async () => {
    await Promise.all([1, 2, 3].map(() => http.request({ url: `${server.origin}/echo` })));
    const first = new Set(server.seen.map((s) => s.remotePort));
    server.seen.length = 0;
    await Promise.all([1, 2, 3].map(() => http.request({ url: `${server.origin}/echo` })));
    for (const seen of server.seen) expect(first.has(seen.remotePort)).toBe(true);
  });

  it("reuses the socket after an error status (the error body is read)", async () => {
    await failureOf(http.request({ url: `${server.origin}/status?status=500` }));
    await http.request({ url: `${server.origin}/echo` });
    expect(server.seen[1]?.remotePort).toBe(server.seen[0]?.remotePort);
  });

  it("returns statuses listed in acceptStatus instead of throwing", async () => {
    const res = await http.request({ url: `${server.origin}/nowhere`, acceptStatus: [404] });
    expect(res.status).toBe(404);
    expect(res.json()).toEqual({ error: { message: "no route /nowhere" } });
  });

  it("validates with a zod schema", async () => {
    const Items = z.object({ items: z.array(z.object({ id: z.union([z.number(), z.string()]) })) });
    const data = await http.json({ url: `${server.origin}/items`, schema: Items });
    expect(data.items).toHaveLength(2);
  });
});

describe("createHttpClient: status → failure kind", () => {
  const statusUrl = (status: number, body: unknown = {}, extra = "") =>
    `${server.origin}/status?status=${status}&body=${encodeURIComponent(JSON.stringify(body))}${extra}`;

  it.each([
    [
      400,
      { error: { message: "search: unknown field 'lmit'" } },
      "invalid_input",
      false,
      "unknown field 'lmit'",
    ],
    [
      422,
      { detail: [{ loc: ["body", "top_k"], msg: "must be ≤ 100" }] },
      "invalid_input",
      false,
      "top_k: must be",
    ],
    [401, { message: "Invalid API key" }, "access_denied", false, "Invalid API key"],
    [403, {}, "access_denied", false, "denied access"],
    [404, { detail: "Not Found" }, "upstream", false, "found nothing"],
    [408, {}, "timeout", true, "timed out"],
    [409, { message: "conflict" }, "upstream", false, "conflict"],
    [500, { error: "boom" }, "upstream", true, "boom"],
    [502, {}, "upstream", true, "HTTP 502"],
    [504, {}, "timeout", true, "HTTP 504"],
  ])("%i → %s", async (status, body, kind, retryable, text) => {
    const failure = await failureOf(http.request({ url: statusUrl(status, body) }));
    expect(failure).toMatchObject({ kind, status, retryable });
    expect(failure.message).toContain(text);
  });

  it("suggests checking the API key variable on 401 when a key was sent", async () => {
    const failure = await failureOf(
      http.request({
        url: statusUrl(401),
        headers: { "x-api-key": "k-123456789" },
        secrets: ["k-123456789"],
        apiKeyVar: "EXAMPLE_API_KEY",
      }),
    );
    expect(failure.suggestion).toContain("EXAMPLE_API_KEY");
  });

  it("429 with Retry-After in seconds → rate_limited with retryAfterMs", async () => {
    const failure = await failureOf(http.request({ url: statusUrl(429, {}, "&retry_after=2") }));
    expect(failure).toMatchObject({ kind: "rate_limited", status: 429, retryable: true, retryAfterMs: 2000 });
  });

  it("429 with Retry-After as an HTTP-date → rate_limited with retryAfterMs", async () => {
    const at = new Date(Date.now() + 30_000).toUTCString();
    const failure = await failureOf(
      http.request({ url: statusUrl(429, {}, `&retry_after=${encodeURIComponent(at)}`) }),
    );
    expect(failure.kind).toBe("rate_limited");
    expect(failure.retryAfterMs).toBeGreaterThan(27_000);
    expect(failure.retryAfterMs).toBeLessThanOrEqual(30_000);
  });

  it("503 with Retry-After → retryable unavailable with retryAfterMs and a suggestion", async () => {
    const failure = await failureOf(http.request({ url: statusUrl(503, {}, "&retry_after=5") }));
    expect(failure).toMatchObject({ kind: "unavailable", status: 503, retryable: true, retryAfterMs: 5000 });
    expect(failure.suggestion).toMatch(/try again later/);
  });

  it("names the configured service in messages", async () => {
    const named = createHttpClient({ service: "Example API" });
    try {
      const failure = await failureOf(named.request({ url: statusUrl(500) }));
      expect(failure.message).toMatch(/^Example API failed \(HTTP 500\)/);
    } finally {
      await named.close();
    }
  });
});

describe("createHttpClient: JSON bodies", () => {
  it("an HTML page with status 200 → upstream failure saying so", async () => {
    const failure = await failureOf(http.json({ url: `${server.origin}/html` }));
    expect(failure).toMatchObject({ kind: "upstream", status: 200, retryable: false });
    expect(failure.message).toContain("returned an HTML page instead of JSON");
    expect(failure.message).toContain("Down for maintenance");
  });

  it("invalid JSON → retryable upstream failure", async () => {
    const failure = await failureOf(http.json({ url: `${server.origin}/invalid-json` }));
    expect(failure).toMatchObject({ kind: "upstream", status: 200, retryable: true });
    expect(failure.message).toContain("invalid JSON");
  });

  it("a schema mismatch → upstream failure naming the first issues, not retryable", async () => {
    const Items = z.object({ items: z.array(z.object({ id: z.number(), name: z.string() })) });
    const failure = await failureOf(http.json({ url: `${server.origin}/items`, schema: Items }));
    expect(failure).toMatchObject({ kind: "upstream", status: 200, retryable: false });
    expect(failure.message).toContain("unexpected shape");
    expect(failure.message).toContain("items.1.id");
    expect(failure.message).toContain("items.1.name");
  });
});

describe("createHttpClient: redirects", () => {
  it("follows up to 3 same-origin redirects", async () => {
    const res = await http.request({ url: `${server.origin}/redirect?hops=3` });
    expect(res.status).toBe(200);
    expect(res.url).toBe(`${server.origin}/echo?redirected=1`);
  });

  it("refuses a 4th redirect", async () => {
    const failure = await failureOf(http.request({ url: `${server.origin}/redirect?hops=4` }));
    expect(failure).toMatchObject({ kind: "upstream", status: 302, retryable: false });
    expect(failure.message).toContain("more than 3 times");
  });

  it("refuses a redirect to another origin, and sends nothing there", async () => {
    const failure = await failureOf(http.request({ url: `${server.origin}/redirect-away` }));
    expect(failure).toMatchObject({ kind: "upstream", status: 302 });
    expect(failure.message).toContain("another origin");
    expect(other.seen).toHaveLength(0);
  });

  it("refuses a redirect back to a URL it came from, as a loop", async () => {
    const failure = await failureOf(http.request({ url: `${server.origin}/loop-a` }));
    expect(failure).toMatchObject({ kind: "upstream", status: 302, retryable: false });
    expect(failure.message).toContain(`GET ${server.origin}/loop-b in a loop; not followed`);
    expect(server.seen.map((s) => s.url)).toEqual(["/loop-a", "/loop-b"]);
  });

  it("sends a redirect to the same URL again, with its method and body, at most 3 times", async () => {
    const again = await http.json({
      method: "POST",
      url: `${server.origin}/try-again?times=1`,
      json: { a: 1 },
    });
    expect(again).toEqual({ method: "POST", body: '{"a":1}' });
    server.seen.length = 0;
    const failure = await failureOf(http.request({ url: `${server.origin}/try-again?times=9` }));
    expect(failure.message).toContain("more than 3 times");
    expect(server.seen).toHaveLength(4);
  });

  it("turns a POST into a GET on 303, and keeps it on 307", async () => {
    const after303 = await http.json<{ method: string; body: string }>({
      method: "POST",
      url: `${server.origin}/redirect?code=303`,
      json: { a: 1 },
    });
    expect(after303).toMatchObject({ method: "GET", body: "" });
    const after307 = await http.json<{ method: string; body: string }>({
      method: "POST",
      url: `${server.origin}/redirect?code=307`,
      json: { a: 1 },
    });
    expect(after307).toMatchObject({ method: "POST", body: '{"a":1}' });
  });

  it("returns a redirect listed in acceptStatus without following it", async () => {
    const res = await http.request({ url: `${server.origin}/redirect`, acceptStatus: [302] });
    expect(res.status).toBe(302);
    expect(res.header("location")).toBe("/echo?redirected=1");
  });
});
