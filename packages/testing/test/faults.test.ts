import { errors, request } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { FAULT_KINDS, type Fault } from "../src/emulator/faults.js";
import { type Emulator, startEmulator } from "../src/emulator/start-emulator.js";

let up: Emulator;
beforeAll(async () => {
  up = await startEmulator();
});
afterEach(() => up.reset());
afterAll(() => up.close());

const BODY = {
  results: [
    { id: 1, name: "semaglutide" },
    { id: 2, name: "tirzepatide" },
  ],
};
const routeSearch = () => up.route("GET", "/search", { json: BODY, headers: { "x-upstream": "yes" } });

/** Rejection reason of a promise, or a failure when it resolves. */
const rejection = async (p: Promise<unknown>): Promise<Error & { code?: string; cause?: unknown }> => {
  try {
    await p;
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error("expected a rejection");
};

describe("delay", () => {
  it("waits before answering normally", async () => {
    routeSearch();
    up.fault("GET", "/search", { kind: "delay", ms: 300 });
    const started = performance.now();
    const res = await request(`${up.url}/search`);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(res.statusCode).toBe(200);
    expect(res.headers["x-upstream"]).toBe("yes");
    expect(await res.body.json()).toEqual(BODY);
  });

  it("trips a client timeout shorter than the delay", async () => {
    routeSearch();
    up.fault("GET", "/search", { kind: "delay", ms: 2_000 });
    const error = await rejection(fetch(`${up.url}/search`, { signal: AbortSignal.timeout(100) }));
    expect(error.name).toBe("TimeoutError");
  });
});

describe("hang", () => {
  it("accepts the request and never sends headers", async () => {
    routeSearch();
    up.fault("GET", "/search", { kind: "hang" });
    const started = performance.now();
    const error = await rejection(request(`${up.url}/search`, { headersTimeout: 300 }));
    expect(error).toBeInstanceOf(errors.HeadersTimeoutError);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(up.requestsTo("GET", "/search")).toHaveLength(1);
  });

  it("is seen by fetch as a timeout", async () => {
    up.fault("POST", "/chat/completions", { kind: "hang" });
    const error = await rejection(
      fetch(`${up.url}/chat/completions`, { method: "POST", body: "{}", signal: AbortSignal.timeout(150) }),
    );
    expect(error.name).toBe("TimeoutError");
  });
});

describe("slowBody", () => {
  it("sends headers at once, then dribbles the normal body", async () => {
    routeSearch();
    const size = JSON.stringify(BODY).length;
    up.fault("GET", "/search", { kind: "slowBody", chunkBytes: 10, intervalMs: 20 });
    const started = performance.now();
    const res = await request(`${up.url}/search`);
    const headersAfter = performance.now() - started;
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-length"]).toBe(String(size));
    const chunks: Buffer[] = [];
    for await (const chunk of res.body) chunks.push(chunk as Buffer);
    const total = performance.now() - started;
    expect(headersAfter).toBeLessThan(200);
    expect(total).toBeGreaterThanOrEqual((Math.ceil(size / 10) - 1) * 20 - 10);
    expect(chunks.length).toBeGreaterThan(1);
    expect(JSON.parse(Buffer.concat(chunks).toString())).toEqual(BODY);
  });

  it("trips a client body timeout", async () => {
    routeSearch();
    // undici's timers are coarse (about 500 ms ticks), so the pause must clearly exceed the timeout.
    up.fault("GET", "/search", { kind: "slowBody", chunkBytes: 4, intervalMs: 2_000 });
    const res = await request(`${up.url}/search`, { bodyTimeout: 500 });
    expect(res.statusCode).toBe(200);
    const error = await rejection(res.body.text());
    expect(error).toBeInstanceOf(errors.BodyTimeoutError);
  });
});

describe("reset", () => {
  it("drops the connection before any response (undici)", async () => {
    routeSearch();
    up.fault("GET", "/search", { kind: "reset" });
    const error = await rejection(request(`${up.url}/search`));
    expect(["ECONNRESET", "UND_ERR_SOCKET"]).toContain(error.code);
  });

  it("drops the connection before any response (fetch)", async () => {
    up.fault("POST", "/chat/completions", { kind: "reset" });
    const error = await rejection(fetch(`${up.url}/chat/completions`, { method: "POST", body: "{}" }));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe("fetch failed");
    expect((error.cause as { code?: string }).code).toMatch(/ECONNRESET|UND_ERR_SOCKET/);
  });

  it("can drop the connection mid-body, after the headers", async () => {
    routeSearch();
    up.fault("GET", "/search", { kind: "reset", phase: "midBody" });
    const res = await request(`${up.url}/search`);
    expect(res.statusCode).toBe(200);
    const error = await rejection(res.body.text());
    expect(error.code ?? (error.cause as { code?: string })?.code).toMatch(/UND_ERR_SOCKET|ECONNRESET/);
  });

  it("leaves the emulator serving later requests", async () => {
    routeSearch();
    up.fault("GET", "/search", { kind: "reset" }, { times: 1 });
    await rejection(request(`${up.url}/search`));
    const res = await request(`${up.url}/search`);
    expect(await res.body.json()).toEqual(BODY);
  });
});

describe("status", () => {
  it("answers 429 with Retry-After in seconds and a default JSON body", async () => {
    routeSearch();
    up.fault("GET", "/search", { kind: "status", status: 429, retryAfter: 1 });
    const res = await request(`${up.url}/search`);
    expect(res.statusCode).toBe(429);
    expect(res.headers["retry-after"]).toBe("1");
    expect(res.headers["content-type"]).toBe("application/json");
    expect(await res.body.json()).toEqual({ error: "Too Many Requests" });
  });

  it("formats a Date Retry-After as an HTTP-date", async () => {
    const when = new Date(Date.now() + 2_000);
    up.fault("GET", "/search", { kind: "status", status: 503, retryAfter: when });
    const res = await fetch(`${up.url}/search`);
    expect(res.status).toBe(503);
    const header = res.headers.get("retry-after");
    expect(header).toBe(when.toUTCString());
    expect(header).toMatch(/^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    expect(Math.abs(Date.parse(header ?? "") - when.getTime())).toBeLessThan(1_000);
  });

  it.each([500, 502, 503])("answers %i", async (status) => {
    up.fault("GET", "/search", { kind: "status", status });
    const res = await fetch(`${up.url}/search`);
    expect(res.status).toBe(status);
    expect(await res.json()).toHaveProperty("error");
  });

  it("sends a custom JSON body, a text body and custom headers", async () => {
    up.fault("GET", "/json", {
      kind: "status",
      status: 429,
      body: { error: "Too many requests", status: 429, retryAfterSeconds: 60 },
      headers: { "X-RateLimit-Remaining": "0" },
    });
    up.fault("GET", "/text", { kind: "status", status: 401, body: "Unauthorized" });
    const json = await fetch(`${up.url}/json`);
    expect(json.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(await json.json()).toEqual({ error: "Too many requests", status: 429, retryAfterSeconds: 60 });
    const text = await fetch(`${up.url}/text`);
    expect(text.status).toBe(401);
    expect(text.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await text.text()).toBe("Unauthorized");
  });
});

describe("invalidJson", () => {
  it("answers 200 application/json with a body that does not parse", async () => {
    routeSearch();
    up.fault("GET", "/search", { kind: "invalidJson" });
    const res = await fetch(`${up.url}/search`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    await expect(res.json()).rejects.toThrow(SyntaxError);
  });

  it("accepts a custom status and body", async () => {
    up.fault("GET", "/search", { kind: "invalidJson", status: 502, body: "{oops" });
    const res = await request(`${up.url}/search`);
    expect(res.statusCode).toBe(502);
    expect(await res.body.text()).toBe("{oops");
  });
});

describe("htmlError", () => {
  it("answers 200 text/html with an error page", async () => {
    routeSearch();
    up.fault("GET", "/search", { kind: "htmlError" });
    const res = await fetch(`${up.url}/search`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const text = await res.text();
    expect(text).toMatch(/^<!DOCTYPE html>/);
    expect(text).toContain("Service Unavailable");
  });

  it("accepts a status and custom HTML", async () => {
    up.fault("GET", "/search", { kind: "htmlError", status: 502, body: "<h1>Bad Gateway</h1>" });
    const res = await fetch(`${up.url}/search`);
    expect(res.status).toBe(502);
    expect(await res.text()).toBe("<h1>Bad Gateway</h1>");
  });
});

describe("oversized", () => {
  it("streams 10 MiB of valid JSON by default, chunked", async () => {
    up.fault("GET", "/search", { kind: "oversized" });
    const res = await request(`${up.url}/search`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/json");
    expect(res.headers["content-length"]).toBeUndefined();
    expect(res.headers["transfer-encoding"]).toBe("chunked");
    const text = await res.body.text();
    expect(Buffer.byteLength(text)).toBe(10 * 1024 * 1024);
    expect((JSON.parse(text) as { data: string }).data).toMatch(/^x+$/);
  });

  it("can declare Content-Length up front and use another size and type", async () => {
    up.fault("GET", "/search", {
      kind: "oversized",
      bytes: 300_000,
      contentLength: true,
      contentType: "text/csv",
    });
    const res = await fetch(`${up.url}/search`);
    expect(res.headers.get("content-length")).toBe("300000");
    expect(res.headers.get("content-type")).toBe("text/csv");
    expect((await res.arrayBuffer()).byteLength).toBe(300_000);
  });

  it("sends exactly the requested bytes even when tiny", async () => {
    up.fault("GET", "/search", { kind: "oversized", bytes: 5 });
    expect(await (await fetch(`${up.url}/search`)).text()).toBe("xxxxx");
  });

  it("stops streaming when a size-limited client gives up", async () => {
    routeSearch();
    up.fault("GET", "/search", { kind: "oversized", bytes: 50 * 1024 * 1024 }, { times: 1 });
    const res = await request(`${up.url}/search`);
    let received = 0;
    const error = await rejection(
      (async () => {
        for await (const chunk of res.body) {
          received += (chunk as Buffer).length;
          if (received > 1024 * 1024) res.body.destroy(new Error("body limit exceeded"));
        }
      })(),
    );
    expect(error.message).toBe("body limit exceeded");
    expect(received).toBeLessThan(50 * 1024 * 1024);
    const next = await request(`${up.url}/search`);
    expect(await next.body.json()).toEqual(BODY);
  });
});

describe("wrongContentType", () => {
  it("sends the normal body as text/plain by default", async () => {
    routeSearch();
    up.fault("GET", "/search", { kind: "wrongContentType" });
    const res = await fetch(`${up.url}/search`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain");
    expect(JSON.parse(await res.text())).toEqual(BODY);
  });

  it("can send application/xml and a replacement body", async () => {
    routeSearch();
    up.fault("GET", "/search", { kind: "wrongContentType", contentType: "application/xml", body: "<ok/>" });
    const res = await request(`${up.url}/search`);
    expect(res.headers["content-type"]).toBe("application/xml");
    expect(await res.body.text()).toBe("<ok/>");
  });
});

describe("fault scheduling", () => {
  it("applies to every matching request until cleared by default", async () => {
    routeSearch();
    const f = up.fault("GET", "/search", { kind: "status", status: 503 });
    for (let i = 0; i < 3; i++) expect((await request(`${up.url}/search`)).statusCode).toBe(503);
    expect(f.hits).toBe(3);
    expect(f.remaining).toBe(Number.POSITIVE_INFINITY);
    up.clearFaults();
    expect(f.remaining).toBe(0);
    expect((await request(`${up.url}/search`)).statusCode).toBe(200);
  });

  it("expires after `times` matching requests", async () => {
    routeSearch();
    const f = up.fault("GET", "/search", { kind: "status", status: 429, retryAfter: 1 }, { times: 2 });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await request(`${up.url}/search`)).statusCode);
    expect(statuses).toEqual([429, 429, 200, 200]);
    expect(f.hits).toBe(2);
    expect(f.remaining).toBe(0);
  });

  it("consumes faults in the order they were added", async () => {
    routeSearch();
    up.fault("GET", "/search", { kind: "status", status: 503 }, { times: 1 });
    up.fault("GET", "/search", { kind: "status", status: 429 }, { times: 1 });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await request(`${up.url}/search`)).statusCode);
    expect(statuses).toEqual([503, 429, 200]);
  });

  it("only applies to matching method and path, with RegExp and '*' supported", async () => {
    up.route("*", /.*/, { json: "ok" });
    up.fault("POST", /^\/v1\//, { kind: "status", status: 500 });
    expect((await fetch(`${up.url}/v1/a`, { method: "POST", body: "" })).status).toBe(500);
    expect((await fetch(`${up.url}/v1/a`)).status).toBe(200);
    expect((await fetch(`${up.url}/v2/a`, { method: "POST", body: "" })).status).toBe(200);
    up.fault("*", "/v2/a", { kind: "status", status: 502 });
    expect((await fetch(`${up.url}/v2/a`, { method: "PUT", body: "" })).status).toBe(502);
  });

  it("applies to paths without a route, wrapping the 404 where the fault keeps the normal answer", async () => {
    up.fault("GET", "/missing", { kind: "delay", ms: 10 });
    const res = await fetch(`${up.url}/missing`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: "no route" });
  });

  it("can be removed individually", async () => {
    routeSearch();
    const f = up.fault("GET", "/search", { kind: "status", status: 503 });
    f.remove();
    expect((await request(`${up.url}/search`)).statusCode).toBe(200);
    expect(f.hits).toBe(0);
  });

  it("rejects a non-positive times", () => {
    expect(() => up.fault("GET", "/x", { kind: "hang" }, { times: 0 })).toThrow(RangeError);
  });

  it("records faulted requests too", async () => {
    up.fault("POST", "/search", { kind: "reset" }, { times: 1 });
    await rejection(request(`${up.url}/search`, { method: "POST", body: '{"q":1}' }));
    expect(up.requestsTo("POST", "/search").map((r) => r.json)).toEqual([{ q: 1 }]);
  });

  it("every fault kind is covered by a test above", () => {
    const covered: Fault["kind"][] = [
      "delay",
      "hang",
      "slowBody",
      "reset",
      "status",
      "invalidJson",
      "htmlError",
      "oversized",
      "wrongContentType",
    ];
    expect([...FAULT_KINDS].sort()).toEqual([...covered].sort());
  });
});
