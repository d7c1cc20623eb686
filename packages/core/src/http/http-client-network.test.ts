import { setTimeout as sleep } from "node:timers/promises";
import { Agent } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolFailure } from "../errors.js";
import { createHttpClient } from "./http-client.js";
import { closedPort, type LocalServer, sendJson, startServer } from "./local-server.test-helpers.js";
import type { HttpClient } from "./types.js";

const failureOf = async (promise: Promise<unknown>): Promise<ToolFailure> => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!ToolFailure.isInstance(error)) throw new Error(`expected a ToolFailure, got ${String(error)}`);
  return error;
};

const rejectionOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (e: unknown) => e,
  );

const TIMEOUT_MS = 200;
/** undici's timers are checked about every few ms below 1 s; this margin keeps CI happy. */
const MARGIN_MS = 400;

const faults = (): Promise<LocalServer> =>
  startServer((req, res) => {
    switch (req.url) {
      case "/hang":
        return; // never answers
      case "/slow-body":
        res.writeHead(200, { "content-type": "application/json" });
        res.write('{"items": [');
        return; // never ends the body
      case "/reset":
        req.socket.destroy();
        return;
      case "/big":
        res.writeHead(200, { "content-type": "application/json", "content-length": "2000" });
        return res.end(`"${"x".repeat(1998)}"`);
      case "/big-chunked":
        res.writeHead(200, { "content-type": "application/json" });
        for (let i = 0; i < 30; i++) res.write("x".repeat(100));
        return res.end();
      default:
        return sendJson(res, 200, { ok: true });
    }
  });

let server: LocalServer;
let http: HttpClient;

beforeAll(async () => {
  server = await faults();
  http = createHttpClient({
    headersTimeoutMs: TIMEOUT_MS,
    bodyTimeoutMs: TIMEOUT_MS,
    connectTimeoutMs: 500,
    maxBodyBytes: 1000,
  });
});

afterAll(async () => {
  await http.close();
  await server.close();
});

describe("createHttpClient: network failures", () => {
  it("a server that never answers → timeout within headersTimeout + margin", async () => {
    const started = Date.now();
    const failure = await failureOf(http.request({ url: `${server.origin}/hang` }));
    const elapsed = Date.now() - started;
    expect(failure).toMatchObject({ kind: "timeout", retryable: true });
    expect(failure.message).toContain(`did not answer within ${TIMEOUT_MS} ms`);
    expect(failure.status).toBeUndefined();
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
    expect(elapsed).toBeLessThan(TIMEOUT_MS + MARGIN_MS);
  });

  it("a body that stalls → timeout carrying the status", async () => {
    const started = Date.now();
    const failure = await failureOf(http.json({ url: `${server.origin}/slow-body` }));
    expect(failure).toMatchObject({ kind: "timeout", status: 200, retryable: true });
    expect(failure.message).toContain("stopped sending the response body");
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + MARGIN_MS);
  });

  it("timeoutMs is a deadline for the whole request → timeout failure", async () => {
    const slow = createHttpClient({ headersTimeoutMs: 5000 });
    try {
      const started = Date.now();
      const failure = await failureOf(slow.request({ url: `${server.origin}/hang`, timeoutMs: 100 }));
      expect(failure).toMatchObject({ kind: "timeout", retryable: true });
      expect(failure.message).toContain("within 100 ms");
      expect(Date.now() - started).toBeLessThan(100 + MARGIN_MS);
    } finally {
      await slow.close();
    }
  });

  it("connection refused → unavailable naming the host", async () => {
    const port = await closedPort();
    const failure = await failureOf(http.request({ url: `http://127.0.0.1:${port}/x` }));
    expect(failure).toMatchObject({ kind: "unavailable", retryable: true });
    expect(failure.message).toContain(`127.0.0.1:${port} refused the connection`);
    expect(failure.status).toBeUndefined();
  });

  it("a reset socket → unavailable", async () => {
    const failure = await failureOf(http.request({ url: `${server.origin}/reset` }));
    expect(failure).toMatchObject({ kind: "unavailable", retryable: true });
    expect(failure.message).toContain("closed the connection unexpectedly");
  });

  it("an unresolvable host → unavailable (or timeout where DNS hangs), naming the host", async () => {
    const failure = await failureOf(http.request({ url: "http://quiver-test-host.invalid/x" }));
    expect(["unavailable", "timeout"]).toContain(failure.kind);
    expect(failure.message).toContain("quiver-test-host.invalid");
  });

  it("a body over maxBodyBytes (declared by content-length) → upstream, not retryable", async () => {
    const failure = await failureOf(http.request({ url: `${server.origin}/big` }));
    expect(failure).toMatchObject({ kind: "upstream", status: 200, retryable: false });
    expect(failure.message).toContain("larger than 1000 bytes");
  });

  it("a body over maxBodyBytes (chunked, no length) → upstream, not retryable", async () => {
    const failure = await failureOf(http.request({ url: `${server.origin}/big-chunked` }));
    expect(failure).toMatchObject({ kind: "upstream", status: 200, retryable: false });
    expect(failure.message).toContain("larger than 1000 bytes");
  });

  it("maxBodyBytes can be raised per request", async () => {
    const res = await http.request({ url: `${server.origin}/big`, maxBodyBytes: 4096 });
    expect(res.body).toHaveLength(2000);
  });
});

describe("createHttpClient: aborts", () => {
  it("aborting mid-request rejects promptly with the signal's AbortError and closes the connection", async () => {
    const own = await faults();
    try {
      const controller = new AbortController();
      const started = Date.now();
      const pending = rejectionOf(http.request({ url: `${own.origin}/hang`, signal: controller.signal }));
      await sleep(50); // let the request reach the hanging server before aborting it
      controller.abort();
      const error = await pending;
      expect(Date.now() - started).toBeLessThan(150);
      expect(error).toBeInstanceOf(DOMException);
      expect((error as DOMException).name).toBe("AbortError");
      expect(ToolFailure.isInstance(error)).toBe(false);
      await own.socketClosed; // the server sees the connection closed
      expect(own.seen).toHaveLength(1);
    } finally {
      await own.close();
    }
  });

  it("rejects with the caller's own abort reason", async () => {
    const controller = new AbortController();
    const reason = new Error("interrupted by the runtime");
    const pending = rejectionOf(http.request({ url: `${server.origin}/hang`, signal: controller.signal }));
    setTimeout(() => controller.abort(reason), 20);
    expect(await pending).toBe(reason);
  });

  it("aborting while the body streams rejects with the abort reason", async () => {
    const controller = new AbortController();
    const pending = rejectionOf(
      http.request({ url: `${server.origin}/slow-body`, signal: controller.signal }),
    );
    setTimeout(() => controller.abort(), 50);
    expect((await pending) as DOMException).toMatchObject({ name: "AbortError" });
  });

  it("an already aborted signal sends nothing", async () => {
    const own = await faults();
    try {
      const error = await rejectionOf(http.request({ url: `${own.origin}/ok`, signal: AbortSignal.abort() }));
      expect((error as DOMException).name).toBe("AbortError");
      expect(own.seen).toHaveLength(0);
    } finally {
      await own.close();
    }
  });
});

describe("createHttpClient: lifecycle", () => {
  it("close() closes its own agent; later requests fail as internal", async () => {
    const client = createHttpClient();
    await client.request({ url: `${server.origin}/ok` });
    await client.close();
    await client.close(); // idempotent
    const failure = await failureOf(client.request({ url: `${server.origin}/ok` }));
    expect(failure).toMatchObject({ kind: "internal", retryable: false });
  });

  it("uses an injected dispatcher and leaves it open on close()", async () => {
    const agent = new Agent();
    try {
      const client = createHttpClient({ dispatcher: agent });
      await client.request({ url: `${server.origin}/ok` });
      await client.close();
      expect(agent.closed).toBe(false);
      expect(Object.keys(agent.stats)).toContain(server.origin);
    } finally {
      await agent.close();
    }
  });
});
