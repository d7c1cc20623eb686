// The core runtime's policies against a real upstream: the emulator on 127.0.0.1, the shared undici
// client, and the catalog. These are the acceptance checks of the foundation issue.
import { createCatalog, definePlugin, defineToolWith } from "@quiver/core";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { closedUrl } from "../../src/emulator/closed-url.js";
import { type Emulator, startEmulator } from "../../src/emulator/start-emulator.js";
import { makeTestClock } from "../../src/test-clock.js";

/** When each attempt of `lookup` started, by the catalog's clock. */
const attemptsAt: number[] = [];
let now = () => Date.now();

const tool = defineToolWith<{ baseUrl: string }>();
const lookup = tool({
  name: "lookup",
  description: "Looks an item up in the emulated upstream. Use in tests.",
  category: "scientific_database",
  input: z.object({ id: z.string().describe("Item id") }),
  output: z.object({ id: z.string(), name: z.string() }),
  annotations: { readOnly: true, openWorld: true },
  policy: { timeout: "800ms", retry: { times: 2, base: "50ms", maxElapsed: "5s" }, cache: { ttl: "1m" } },
  run: ({ id }, ctx) => {
    attemptsAt.push(now());
    return ctx.http.json({
      url: `${ctx.config.baseUrl}/items/${id}`,
      signal: ctx.signal,
      schema: z.object({ id: z.string(), name: z.string() }),
    });
  },
});
const plugin = definePlugin({
  specificationVersion: "v1",
  id: "emu",
  version: "1.0.0",
  config: z.object({ baseUrl: z.string().url() }),
  tools: [lookup],
});

let up: Emulator;
beforeAll(async () => {
  up = await startEmulator();
});
afterEach(() => {
  up.reset();
  attemptsAt.length = 0;
  now = () => Date.now();
});
afterAll(() => up.close());

const route = () =>
  up.route("GET", /^\/items\/(\w+)$/, (req) => ({ json: { id: req.match?.[1] ?? "", name: "item" } }));

describe("runtime against the emulator", () => {
  it("a 429 with Retry-After: 1 is retried after at least 1 s (by the catalog's clock) and then succeeds", async () => {
    route();
    up.fault("GET", /^\/items\//, { kind: "status", status: 429, retryAfter: 1 }, { times: 1 });
    const time = await makeTestClock();
    now = time.now;
    const catalog = createCatalog({ policies: { lookup: { timeout: "5s" } }, clock: time.clock });
    catalog.register(plugin, { baseUrl: up.url });
    const result = await time.advanceUntil(catalog.call("lookup", { id: "a1" }), 10);
    expect(result.status).toBe("success");
    expect(result.metadata.attempts).toBe(2);
    expect(up.requestsTo("GET", /^\/items\//)).toHaveLength(2);
    const [first, second] = attemptsAt;
    expect(second! - first!).toBeGreaterThanOrEqual(1_000);
    await catalog.close();
  });

  it("1,000 concurrent identical calls reach the emulator once", async () => {
    route();
    up.fault("GET", /^\/items\//, { kind: "delay", ms: 100 }, { times: 1 });
    const catalog = createCatalog();
    catalog.register(plugin, { baseUrl: up.url });
    const results = await Promise.all(
      Array.from({ length: 1_000 }, () => catalog.call("lookup", { id: "same" })),
    );
    expect(results.every((r) => r.status === "success")).toBe(true);
    expect(up.requestsTo("GET", "/items/same")).toHaveLength(1);
    await catalog.close();
  });

  it("two principals never share a cache entry", async () => {
    route();
    const catalog = createCatalog();
    catalog.register(plugin, { baseUrl: up.url });
    await catalog.call("lookup", { id: "p" }, { session: { principal: "alice" } });
    await catalog.call("lookup", { id: "p" }, { session: { principal: "alice" } });
    const bob = await catalog.call("lookup", { id: "p" }, { session: { principal: "bob" } });
    expect(bob.metadata.cached).toBe(false);
    expect(up.requestsTo("GET", "/items/p")).toHaveLength(2);
    await catalog.close();
  });

  it("a hanging upstream yields timeout at the declared timeout (by the catalog's clock)", async () => {
    route();
    up.fault("GET", /^\/items\//, { kind: "hang" });
    const time = await makeTestClock();
    const catalog = createCatalog({ clock: time.clock });
    catalog.register(plugin, { baseUrl: up.url });
    const started = time.now();
    const result = await time.advanceUntil(catalog.call("lookup", { id: "h" }), 50);
    expect(result.status).toBe("timeout");
    // The clock moves in 50 ms steps: the timeout fired on the step that reached 800 ms.
    expect(time.now() - started).toBeGreaterThanOrEqual(800);
    expect(time.now() - started).toBeLessThan(850);
    await catalog.close();
  });

  it("5xx is retried; HTML with 200 and invalid JSON are upstream errors with a clear message", async () => {
    route();
    const catalog = createCatalog();
    catalog.register(plugin, { baseUrl: up.url });
    up.fault("GET", /^\/items\//, { kind: "status", status: 503 }, { times: 1 });
    expect((await catalog.call("lookup", { id: "r1" })).metadata.attempts).toBe(2);
    up.clearFaults();
    up.fault("GET", /^\/items\//, { kind: "htmlError" });
    const html = await catalog.call("lookup", { id: "r2" });
    expect(html.error?.kind).toBe("upstream");
    expect(html.message).toMatch(/HTML/i);
    await catalog.close();
  });

  it("a refused connection is unavailable with guidance; the breaker then answers without calling", async () => {
    const catalog = createCatalog({
      policies: { lookup: { retry: false, breaker: { failures: 2, openFor: "1m" } } },
    });
    catalog.register(plugin, { baseUrl: await closedUrl() });
    const first = await catalog.call("lookup", { id: "x" }, { session: { id: "s" } });
    expect(first.status).toBe("unavailable");
    expect(first.guidance).toBeTruthy();
    const second = await catalog.call("lookup", { id: "y" }, { session: { id: "s" } });
    expect(second.escalate).toBe(true);
    const third = await catalog.call("lookup", { id: "z" }, { session: { id: "s" } });
    expect(third.status).toBe("unavailable");
    expect(third.message).toMatch(/paused/);
    await catalog.close();
  });

  it("cancelling a call aborts its upstream request", async () => {
    route();
    up.fault("GET", /^\/items\//, { kind: "hang" });
    const catalog = createCatalog();
    catalog.register(plugin, { baseUrl: up.url });
    const controller = new AbortController();
    const pending = catalog.call("lookup", { id: "c" }, { signal: controller.signal });
    await vi.waitFor(() => expect(up.requestsTo("GET", "/items/c")).toHaveLength(1));
    controller.abort();
    const result = await pending;
    expect(result.status).toBe("unavailable");
    expect(result.message).toMatch(/cancelled/);
    await catalog.close();
  });
});
