// Three real `quiver serve` processes on one Redis (a server of the test's own), driven by a client
// that sends each request to the next replica: they must behave as one host.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { ToolResult } from "@quiver/core";
import { type Emulator, startEmulator } from "@quiver/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeProject, type Project, type ServeProcess, startServe } from "./helpers.js";
import { hasRedisServer, startRedisServer } from "./redis-server.js";
import { stopReplicas } from "./replica-helpers.js";

const RATE = 20;
const CANARY = "canary-Quiver-replica-5b1f0e";
const up = hasRedisServer();
if (!up) console.log("skipped (multi-replica tests): redis-server and redis-cli are not installed");

type Envelope = ToolResult<{ key?: string } & Record<string, unknown>>;

let redis: Awaited<ReturnType<typeof startRedisServer>>;
let upstream: Emulator;
let project: Project;
const replicas: ServeProcess[] = [];

/** Calls a tool on replica `i` through the HTTP API as `token`'s principal. */
const call = async (
  i: number,
  tool: string,
  input: Record<string, unknown>,
  opts: { token?: string; session?: string } = {},
): Promise<Envelope> => {
  const response = await fetch(`${replicas[i % replicas.length]!.url}/tools/${tool}/call`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${opts.token ?? "tok-alice"}`,
      ...(opts.session ? { "x-quiver-session": opts.session } : {}),
    },
    body: JSON.stringify(input),
  });
  return (await response.json()) as Envelope;
};

beforeAll(async () => {
  if (!up) return;
  redis = await startRedisServer();
  upstream = await startEmulator();
  for (const path of ["/limited", "/fragile", "/cached", "/erase"])
    upstream.route("GET", path, { json: { ok: true } });
  project = makeProject({ fixtures: ["replica-probe"] });
  const env = {
    QUIVER_REDIS_URL: redis.url,
    QUIVER_TOKENS: "tok-alice=alice,tok-bob=bob",
    PROBE_UPSTREAM_URL: upstream.url,
    PROBE_API_KEY: CANARY,
    PROBE_RATE: String(RATE),
  };
  replicas.push(...(await Promise.all([0, 1, 2].map(() => startServe([], { cwd: project.dir, env })))));
}, 60_000);

afterAll(async () => {
  await stopReplicas(replicas);
  await upstream?.close();
  await redis?.stop();
  project?.cleanup();
});

describe.skipIf(!up)("three quiver serve replicas on one Redis", () => {
  it("say they run as replicas with stateless MCP", async () => {
    for (const r of replicas) {
      await expect.poll(() => r.stderr(), { timeout: 10_000 }).toMatch(/replica mode: .*MCP stateless/);
    }
  });

  it("answer one MCP client's initialize, tools/list and tools/call on different replicas", async () => {
    const served: number[] = [];
    let next = 0;
    const rotate = (input: string | URL | Request, init?: RequestInit) => {
      const i = next++ % replicas.length;
      served.push(i);
      const url = new URL(input instanceof Request ? input.url : String(input));
      url.host = new URL(replicas[i]!.url).host;
      return fetch(url, init);
    };
    const client = new Client({ name: "replica-rotation", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(`${replicas[0]!.url}/mcp`), {
      fetch: rotate,
      requestInit: { headers: { authorization: "Bearer tok-alice" } },
    });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("probe_cached");
    const result = await client.callTool({ name: "probe_cached", arguments: { word: "mcp" } });
    expect(result.isError).toBe(false);
    await client.close();
    expect(new Set(served).size).toBe(3);
    console.log(`MCP: ${served.length} requests of one client served by replicas ${served.join(",")}`);
  });

  it("keep the combined request rate to the upstream within its limit", async () => {
    // Each replica's first rate-limited call loads its shared-store runtime: warm them up first.
    for (let k = 0; k < 3; k++) await call(k, "probe_limited", { n: 1000 + k });
    const before = upstream.requestsTo("GET", "/limited").length;
    const deadline = Date.now() + 3_500;
    const statuses: string[] = [];
    let n = 0;
    const worker = async (w: number) => {
      while (Date.now() < deadline) {
        const i = n++;
        statuses.push((await call(i + w, "probe_limited", { n: i })).status);
      }
    };
    await Promise.all([0, 1, 2, 3, 4, 5].map(worker));
    const hits = upstream.requestsTo("GET", "/limited").slice(before);
    const first = hits[0]!.at;
    const last = hits.at(-1)!.at;
    // Fixed windows of one second: the requests admitted span (last − first) plus one window.
    const rate = hits.length / ((last - first) / 1000 + 1);
    console.log(
      `combined upstream rate: ${rate.toFixed(2)}/s for a limit of ${RATE}/s (${hits.length} upstream requests of ${statuses.length} calls through 3 replicas, ${statuses.filter((s) => s !== "success").length} answered rate_limited)`,
    );
    expect(hits.length).toBeGreaterThanOrEqual(RATE * 3);
    expect(rate).toBeLessThanOrEqual(RATE * 1.05);
    expect(statuses.filter((s) => s !== "success").length).toBeGreaterThan(0);
  });

  it("open a breaker in every replica when it opened through one", async () => {
    upstream.fault("GET", "/fragile", { kind: "status", status: 503 }, { times: 3 });
    for (let k = 0; k < 3; k++) expect((await call(0, "probe_fragile", { n: k })).status).not.toBe("success");
    const seen = upstream.requestsTo("GET", "/fragile").length;
    const b = await call(1, "probe_fragile", { n: 10 });
    const c = await call(2, "probe_fragile", { n: 11 });
    for (const r of [b, c]) {
      expect(r.status).toBe("unavailable");
      expect(r.error?.message).toMatch(/paused|circuit|breaker/i);
    }
    expect(upstream.requestsTo("GET", "/fragile").length).toBe(seen);
  });

  it("serve a result cached by one replica from another, per principal, with no secret in Redis", async () => {
    const miss = await call(0, "probe_cached", { word: "ion" });
    expect(miss.metadata.cached).toBe(false);
    // The miss answered once its result was in Redis: the next replica asked serves it.
    const started = performance.now();
    const hit = await call(1, "probe_cached", { word: "ion" });
    const asked = upstream.requestsTo("GET", "/cached").filter((r) => r.query.get("word") === "ion").length;
    console.log(
      `cross-replica cache hit: cached by replica 0, served by replica 1 (cached: ${hit.metadata.cached}) in ${Math.round(performance.now() - started)} ms; upstream asked ${asked} time(s)`,
    );
    expect(hit.metadata.cached).toBe(true);
    expect(asked).toBe(1);
    expect(hit.data?.key).toBe("[REDACTED]");
    const bob = await call(2, "probe_cached", { word: "ion" }, { token: "tok-bob" });
    expect(bob.metadata.cached).toBe(false);
    for (const { key, value } of await redis.dump()) {
      expect(key).not.toContain(CANARY);
      expect(key).not.toContain("alice");
      expect(value).not.toContain(CANARY);
    }
  });

  it("confirm on one replica a token issued by another, once, and only for its owner", async () => {
    const preview = await call(0, "probe_erase", { id: "r1" });
    expect(preview.status).toBe("partial");
    const token = preview.confirmation!.token;
    // Another principal presenting it is refused and leaves it in the shared store for its owner.
    const stolen = await call(
      2,
      "probe_erase",
      { id: "r1", confirmation_token: token },
      { token: "tok-bob" },
    );
    expect(stolen.status).toBe("partial");
    const done = await call(1, "probe_erase", { id: "r1", confirmation_token: token });
    expect(done.status).toBe("success");
    const replay = await call(2, "probe_erase", { id: "r1", confirmation_token: token });
    expect(replay.status).toBe("partial");
    expect(upstream.requestsTo("GET", "/erase").length).toBe(1);
  });

  it("count a session's failures across replicas", async () => {
    upstream.fault("GET", "/cached", { kind: "status", status: 500 }, { times: 2 });
    const session = "conv-escalate";
    const one = await call(0, "probe_cached", { word: "boom" }, { session });
    expect(one.status).not.toBe("success");
    expect(one.escalate ?? false).toBe(false);
    const two = await call(1, "probe_cached", { word: "boom" }, { session });
    expect(two.escalate).toBe(true);
  });

  it("answer from memory while Redis is down, report it in /health and metrics, and share again once it is back", async () => {
    const health = async (i: number) =>
      (await (await fetch(`${replicas[i]!.url}/health`)).json()) as {
        store?: { driver: string; state: string; outages: number };
      };
    const fallbackGauge = async (i: number) => {
      const text = await (
        await fetch(`${replicas[i]!.url}/metrics`, { headers: { authorization: "Bearer tok-alice" } })
      ).text();
      return /^quiver_store_fallback\{driver="redis"\} (\d)$/m.exec(text)?.[1];
    };
    expect((await health(0)).store).toMatchObject({ driver: "redis", state: "ok" });
    expect(await fallbackGauge(0)).toBe("0");

    await redis.stop();
    // A rate-limited tool is limited in each replica's own memory: it answers.
    const limited = await call(0, "probe_limited", { n: -1 });
    expect(limited.status).toBe("success");
    // A cached tool runs on the replica's own memory.
    const cached = await call(1, "probe_cached", { word: "outage" });
    expect(cached.status).toBe("success");
    expect((await call(1, "probe_cached", { word: "outage" })).metadata.cached).toBe(true);
    const preview = await call(2, "probe_erase", { id: "r2" });
    expect(preview.status).toBe("partial");
    expect(
      (await call(2, "probe_erase", { id: "r2", confirmation_token: preview.confirmation!.token })).status,
    ).toBe("success");
    expect((await health(0)).store).toMatchObject({ driver: "redis", state: "fallback", outages: 1 });
    expect(await fallbackGauge(0)).toBe("1");

    await redis.start();
    const patiently = { timeout: 15_000, interval: 100 };
    // Sharing is back once a word cached through replica 0 is served by replica 1 without a second
    // upstream request (each replica's store tries Redis again a second after its last failure).
    let attempt = 0;
    await expect
      .poll(async () => {
        const word = `back-${attempt++}`;
        await call(0, "probe_cached", { word });
        const again = await call(1, "probe_cached", { word });
        const asked = upstream.requestsTo("GET", "/cached").filter((r) => r.query.get("word") === word);
        return again.metadata.cached && asked.length === 1;
      }, patiently)
      .toBe(true);
    await expect.poll(async () => (await health(1)).store?.state, patiently).toBe("ok");
    await expect.poll(() => fallbackGauge(0), patiently).toBe("0");
    await expect.poll(() => replicas[0]!.stderr(), patiently).toMatch(/Redis is reachable again/);
  });
});
