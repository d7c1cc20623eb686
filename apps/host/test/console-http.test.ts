import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closedUrl } from "@quiver/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveSettings } from "../src/config/resolve-settings.js";
import { createHost, type Host } from "../src/host/create-host.js";
import { createHttpApi } from "../src/http/create-http-api.js";
import { type RunningServer, startServer } from "../src/http/start-server.js";
import { makeProject, type Project } from "./helpers.js";

// The console's routes over real sockets: the page and its files, its two JSON routes, and the
// same tokens and Origin rules as the API.
let project: Project;
let open: { host: Host; server: RunningServer };
let locked: { host: Host; server: RunningServer };
let upstream: Server;

const start = async (env: Record<string, string>) => {
  const settings = await resolveSettings({ cwd: project.dir, port: "0" }, env);
  const host = await createHost(settings);
  const server = await startServer(host, { log: () => {} });
  return { host, server };
};
const html = { accept: "text/html,application/xhtml+xml" };

beforeAll(async () => {
  // The pinger plugin's upstream: up for the open host, a closed port for the locked one.
  upstream = createServer((req, res) => res.writeHead(req.url === "/ping" ? 200 : 404).end());
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  const up = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const down = await closedUrl();
  project = makeProject({
    fixtures: ["echo", "needs-key", "broken", "pinger"],
    config: {
      name: "quiver.config.json",
      text: JSON.stringify({
        policies: { echo_text: { cache: { ttl: "1m" } } },
        aliases: { say_text: "echo_text" },
      }),
    },
  });
  open = await start({ QUIVER_PRINCIPAL: "local-user", QUIVER_SHUTDOWN_TIMEOUT: "1s", PINGER_URL: up });
  locked = await start({ QUIVER_TOKENS: "tok-alice=alice", QUIVER_SHUTDOWN_TIMEOUT: "1s", PINGER_URL: down });
});
afterAll(async () => {
  await open?.server.shutdown("test end");
  await locked?.server.shutdown("test end");
  project?.cleanup();
  upstream?.close();
});

describe("the console's page", () => {
  it("answers a browser's GET / with the page (CSP on) and a JSON client's with the endpoint list", async () => {
    const page = await fetch(`${open.server.url}/`, { headers: html });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    const text = await page.text();
    const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(text)?.[1];
    expect(script).toBeDefined();
    const js = await fetch(`${open.server.url}${script}`);
    expect(js.status).toBe(200);
    expect(js.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(js.headers.get("cache-control")).toContain("immutable");
    const json = (await (await fetch(`${open.server.url}/`)).json()) as { endpoints: string[] };
    expect(json.endpoints).toContain("POST /tools/:name/call");
  });

  it("serves the page without a token (it holds no data) but nothing outside its folder", async () => {
    expect((await fetch(`${locked.server.url}/`, { headers: html })).status).toBe(200);
    const outside = await fetch(`${open.server.url}/console/..%2F..%2Fpackage.json`);
    expect(outside.status).toBe(404);
    expect((await fetch(`${open.server.url}/console/assets/nope.js`)).status).toBe(404);
  });

  it("refuses a foreign Origin or Host, as the API does", async () => {
    const r = await fetch(`${open.server.url}/`, { headers: { ...html, origin: "http://evil.example" } });
    expect(r.status).toBe(403);
    const s = await fetch(`${open.server.url}/console/api/state`, {
      headers: { origin: "http://evil.example" },
    });
    expect(((await s.json()) as { error: { code: string } }).error.code).toBe("forbidden_origin");
  });

  it("is off with console: false (GET / stays JSON)", async () => {
    const api = createHttpApi(open.host.catalog, { console: false });
    const { createServer } = await import("node:http");
    const server = createServer(api);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as { port: number }).port;
    const r = await fetch(`http://127.0.0.1:${port}/`, { headers: html });
    expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    expect((await fetch(`http://127.0.0.1:${port}/console/api/state`)).status).toBe(404);
    server.close();
  });

  it("answers 404 for the page when the console was not built (JSON clients unaffected)", async () => {
    const empty = mkdtempSync(join(tmpdir(), "quiver-console-"));
    const api = createHttpApi(open.host.catalog, { console: { dir: empty } });
    const { createServer } = await import("node:http");
    const server = createServer(api);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as { port: number }).port;
    const r = await fetch(`http://127.0.0.1:${port}/`, { headers: html });
    expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    server.close();
    rmSync(empty, { recursive: true, force: true });
  });
});

describe("the console's data", () => {
  it("GET /console/api/state: plugins by state, with what to set and why one failed", async () => {
    const r = await fetch(`${open.server.url}/console/api/state`);
    const state = (await r.json()) as {
      principal: string;
      auth: boolean;
      plugins: {
        id: string;
        state: string;
        missing: string[];
        message?: string;
        fix?: string;
        tools: { name: string }[];
      }[];
    };
    expect(state).toMatchObject({ principal: "local-user", auth: false });
    const byId = new Map(state.plugins.map((p) => [p.id, p]));
    expect(byId.get("echo")).toMatchObject({ state: "ready" });
    expect(byId.get("echo")?.tools.map((t) => t.name)).toContain("echo_text");
    // An alias names the tool whose figures it shares.
    const alias = state.plugins.flatMap((p) => p.tools).find((t) => t.name === "say_text");
    expect(alias).toMatchObject({ aliasOf: "echo_text" });
    expect(byId.get("needs-key")).toMatchObject({ state: "unconfigured", missing: ["KEYED_API_KEY"] });
    const broken = byId.get("quiver-plugin-broken");
    expect(broken?.state).toBe("failing");
    expect(broken?.message).toContain("left-pad");
    expect(broken?.fix).toBeTruthy();
  });

  it("GET /console/api/stats: counters, quantiles and the recent calls with who, how long, attempts, cache", async () => {
    for (const text of ["a", "b", "a"])
      await fetch(`${open.server.url}/tools/echo_text/call`, {
        method: "POST",
        body: JSON.stringify({ text }),
      });
    const stats = (await (await fetch(`${open.server.url}/console/api/stats`)).json()) as {
      at: number;
      tools: { tool: string; calls: number; p50Ms?: number; p99Ms?: number; cacheHitRate?: number }[];
      recent: {
        tool: string;
        principal: string;
        status: string;
        attempts: number;
        cached: boolean;
        durationMs: number;
      }[];
    };
    const echo = stats.tools.find((t) => t.tool === "echo_text");
    expect(echo?.calls).toBeGreaterThanOrEqual(3);
    expect(echo?.p50Ms).toBeTypeOf("number");
    expect(echo?.p99Ms).toBeTypeOf("number");
    expect(echo?.cacheHitRate).toBeGreaterThan(0);
    const [last, ...rest] = stats.recent;
    expect(last).toMatchObject({
      tool: "echo_text",
      principal: "local-user",
      status: "success",
      cached: true,
    });
    expect(last?.attempts).toBeTypeOf("number");
    expect(rest[0]).toMatchObject({ tool: "echo_text", cached: false });
  });

  it("GET /console/api/health/:plugin runs the plugin's health check: up, down (why and fix), unknown", async () => {
    const ok = (await (await fetch(`${open.server.url}/console/api/health/pinger`)).json()) as {
      ok: boolean;
      message: string;
    };
    expect(ok).toMatchObject({ ok: true });
    expect(ok.message).toContain("/ping");
    const auth = { authorization: "Bearer tok-alice" };
    expect((await fetch(`${locked.server.url}/console/api/health/pinger`)).status).toBe(401);
    const down = (await (
      await fetch(`${locked.server.url}/console/api/health/pinger`, { headers: auth })
    ).json()) as {
      ok: boolean;
      message: string;
      fix?: string;
    };
    expect(down.ok).toBe(false);
    expect(down.message).toMatch(/unreachable: ECONNREFUSED/);
    expect(down.fix).toContain("PINGER_URL");
    const unknown = await fetch(`${open.server.url}/console/api/health/nope`);
    expect(unknown.status).toBe(404);
  });

  it("needs the same bearer token as the API when tokens are set, and names the caller's principal", async () => {
    const none = await fetch(`${locked.server.url}/console/api/state`);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toContain("Bearer");
    expect((await fetch(`${locked.server.url}/console/api/stats`)).status).toBe(401);
    const ok = await fetch(`${locked.server.url}/console/api/state`, {
      headers: { authorization: "Bearer tok-alice" },
    });
    expect((await ok.json()) as { principal: string; auth: boolean }).toMatchObject({
      principal: "alice",
      auth: true,
    });
  });
});
