// core's HTTP client against the emulator's faults: it decodes as fetch does (content codings, charset,
// BOM), refuses a decompression bomb at the body limit, never follows a redirect off the origin, and
// every failure is a ToolFailure with a suggestion.
import {
  createCatalog,
  createHttpClient,
  definePlugin,
  defineToolWith,
  type HttpClient,
  ToolFailure,
} from "@quiver/core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type Emulator, startEmulator } from "../../src/emulator/start-emulator.js";

const BODY = { results: [{ id: 1, name: "Müller – ß" }] };

let up: Emulator;
let http: HttpClient;
beforeAll(async () => {
  up = await startEmulator();
  http = createHttpClient({ service: "Emu", bodyTimeoutMs: 600, headersTimeoutMs: 600 });
});
afterEach(() => up.reset());
afterAll(async () => {
  await http.close();
  await up.close();
});

const route = () => up.route("GET", "/search", { json: BODY });
const url = () => `${up.url}/search`;

const failureOf = async (promise: Promise<unknown>): Promise<ToolFailure> => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!ToolFailure.isInstance(error)) throw new Error(`expected a ToolFailure, got ${String(error)}`);
  return error;
};

describe("decoding like fetch", () => {
  it.each(["gzip", "deflate", "br"] as const)("decodes a %s body", async (encoding) => {
    route();
    up.fault("GET", "/search", { kind: "encoded", encoding });
    expect(await http.json({ url: url() })).toEqual(BODY);
    expect(up.requests[0]?.headers["accept-encoding"]).toBe("gzip, deflate, br");
  });

  it("decodes a gzip error page to find the upstream's message", async () => {
    up.route("GET", "/search", { status: 500, json: { error: { message: "index offline" } } });
    up.fault("GET", "/search", { kind: "encoded", encoding: "gzip" });
    const failure = await failureOf(http.json({ url: url() }));
    expect(failure.message).toContain("index offline");
  });

  it("tolerates a UTF-8 byte-order mark before JSON", async () => {
    route();
    up.fault("GET", "/search", { kind: "bom" });
    expect(await http.json({ url: url() })).toEqual(BODY);
  });

  it("reads the charset of the content type", async () => {
    up.route("GET", "/latin1", {
      body: Buffer.from('{"name":"Müller"}', "latin1"),
      headers: { "content-type": "application/json; charset=ISO-8859-1" },
    });
    expect(await http.json({ url: `${up.url}/latin1` })).toEqual({ name: "Müller" });
  });

  it("refuses a decompression bomb at the body limit, on the decoded size", async () => {
    up.fault("GET", "/search", { kind: "bomb" });
    const failure = await failureOf(http.json({ url: url() }));
    expect(failure).toMatchObject({ kind: "upstream", retryable: false });
    expect(failure.message).toMatch(/gzip-compressed response that decodes to more than 5242880 bytes/);
    expect(failure.suggestion).toBeTruthy();
  });

  it("a small per-request limit applies to the decoded bytes too", async () => {
    up.route("GET", "/search", { json: { data: "x".repeat(50_000) } });
    up.fault("GET", "/search", { kind: "encoded", encoding: "gzip" });
    const failure = await failureOf(http.json({ url: url(), maxBodyBytes: 10_000 }));
    expect(failure.message).toMatch(/decodes to more than 10000 bytes/);
  });

  it("a corrupt gzip body is a retryable upstream failure with a suggestion, not garbage JSON", async () => {
    up.route("GET", "/search", {
      body: "this is not gzip",
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
    });
    const failure = await failureOf(http.json({ url: url() }));
    expect(failure).toMatchObject({ kind: "upstream", retryable: true });
    expect(failure.message).toMatch(/gzip-compressed body that does not decode/);
    expect(failure.suggestion).toBeTruthy();
  });

  it("a coding it cannot decode is named, not parsed", async () => {
    up.route("GET", "/search", {
      body: "whatever",
      headers: { "content-type": "application/json", "content-encoding": "compress" },
    });
    const failure = await failureOf(http.json({ url: url() }));
    expect(failure).toMatchObject({ kind: "upstream", retryable: false });
    expect(failure.message).toMatch(/content-encoding "compress"/);
    expect(failure.suggestion).toBeTruthy();
  });
});

describe("redirects", () => {
  it.each([
    ["link-local", "http://169.254.169.254/latest/meta-data/"],
    ["another host", "http://localhost:9/steal"],
  ])("refuses a redirect to %s, with a suggestion", async (_name, location) => {
    up.fault("GET", "/search", { kind: "redirect", location, status: 307 });
    const failure = await failureOf(http.json({ url: url() }));
    expect(failure).toMatchObject({ kind: "upstream", retryable: false, status: 307 });
    expect(failure.message).toMatch(/to another origin .*not followed/);
    expect(failure.suggestion).toMatch(/only within the service's own origin/);
    expect(up.requests).toHaveLength(1);
  });

  it("follows a redirect on the same origin", async () => {
    route();
    up.fault("GET", "/old", { kind: "redirect", location: "/search", status: 308 });
    expect(await http.json({ url: `${up.url}/old` })).toEqual(BODY);
  });
});

describe("every upstream failure carries a suggestion", () => {
  it("oversized headers: a clear non-retryable upstream error, not a raw code", async () => {
    route();
    up.fault("GET", "/search", { kind: "oversizedHeaders" });
    const failure = await failureOf(http.json({ url: url() }));
    expect(failure).toMatchObject({ kind: "upstream", retryable: false });
    expect(failure.message).toMatch(/response headers larger than the client accepts/);
    expect(failure.message).not.toContain("UND_ERR");
    expect(failure.suggestion).toMatch(/retry will fail the same way/);
  });

  it.each([
    ["an empty body", { kind: "emptyBody" }, "upstream", /empty body/],
    ["invalid JSON", { kind: "invalidJson" }, "upstream", /invalid JSON/],
    ["a reset before the headers", { kind: "reset" }, "unavailable", /closed the connection/],
    [
      "a reset after the headers",
      { kind: "reset", when: "afterHeaders" },
      "unavailable",
      /before the whole response/,
    ],
    ["a body cut half-way", { kind: "reset", when: "midBody" }, "unavailable", /before the whole response/],
    ["a stalled body", { kind: "stall" }, "timeout", /stopped sending the response body/],
    ["headers that never come", { kind: "headersNever" }, "timeout", /did not answer within/],
    ["a 503", { kind: "status", status: 503 }, "unavailable", /temporarily unavailable \(HTTP 503\)/],
    ["an HTML page", { kind: "htmlError" }, "upstream", /HTML page/],
  ] as const)("%s", async (_name, fault, kind, message) => {
    route();
    up.fault("GET", "/search", fault);
    const failure = await failureOf(http.json({ url: url() }));
    expect(failure.kind).toBe(kind);
    expect(failure.message).toMatch(message);
    expect(failure.suggestion, failure.message).toBeTruthy();
  });

  it("reads Retry-After as an HTTP date on a 503", async () => {
    up.fault("GET", "/search", { kind: "status", status: 503, retryAfter: new Date(Date.now() + 30_000) });
    const failure = await failureOf(http.json({ url: url() }));
    expect(failure).toMatchObject({ kind: "unavailable", retryable: true });
    expect(failure.retryAfterMs).toBeGreaterThan(20_000);
  });
});

describe("through the catalog's retry policy", () => {
  const tool = defineToolWith<{ baseUrl: string }>();
  const search = tool({
    name: "emu_search",
    description: "Searches the emulated upstream. Use in tests.",
    category: "scientific_database",
    input: z.object({}),
    output: z.object({}).passthrough(),
    annotations: { readOnly: true, openWorld: true },
    policy: { timeout: "5s", retry: { times: 2, base: "10ms" } },
    run: (_input, ctx) => ctx.http.json({ url: `${ctx.config.baseUrl}/search`, signal: ctx.signal }),
  });
  const plugin = definePlugin({
    specificationVersion: "v1",
    id: "emu",
    version: "1.0.0",
    config: z.object({ baseUrl: z.string() }),
    tools: [search],
  });
  const catalogAt = () => {
    const catalog = createCatalog({ env: {} });
    catalog.register(plugin, { baseUrl: up.url });
    return catalog;
  };

  it("oversized headers are never retried", async () => {
    route();
    const fault = up.fault("GET", "/search", { kind: "oversizedHeaders" });
    const catalog = catalogAt();
    const r = await catalog.call("emu_search", {});
    await catalog.close();
    expect(r.status).toBe("error");
    expect(r.error).toMatchObject({ kind: "upstream", retryable: false });
    expect(r.suggestion).toBeTruthy();
    expect(fault.hits).toBe(1);
  });

  it("a 503 twice, then a recovery, succeeds within the declared attempts", async () => {
    route();
    up.fault("GET", "/search", { kind: "status", status: 503 }, { times: 2 });
    const catalog = catalogAt();
    const r = await catalog.call("emu_search", {});
    await catalog.close();
    expect(r.status, r.message).toBe("success");
    expect(r.metadata.attempts).toBe(3);
  });
});
