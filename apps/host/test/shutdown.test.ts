import { createServer } from "node:net";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { ToolResult } from "@quiver/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, cleanEnv, eventually, makeProject, type Project, startServe } from "./helpers.js";

type Envelope = ToolResult<any>;

let project: Project;
beforeAll(() => {
  project = makeProject({ fixtures: ["echo"] });
});
afterAll(() => project?.cleanup());

const inflight = async (url: string) =>
  ((await (await fetch(`${url}/health`)).json()) as { inflight: number }).inflight;
const call = (url: string, ms: number) =>
  fetch(`${url}/tools/echo_slow_wait/call`, { method: "POST", body: JSON.stringify({ ms }) }).then(
    async (r) => (await r.json()) as Envelope,
  );

describe("graceful shutdown of quiver serve", () => {
  it("lets an in-flight call finish within the bound, then exits 0", async () => {
    const s = await startServe([], { cwd: project.dir, env: { QUIVER_SHUTDOWN_TIMEOUT: "10s" } });
    const answer = call(s.url, 700);
    await eventually(async () => (await inflight(s.url)) === 1);
    s.child.kill("SIGTERM");
    const r = await answer;
    expect(r.status).toBe("success");
    expect(r.data).toEqual({ waitedMs: 700 });
    expect(await s.exited).toBe(0);
    expect(s.stderr()).toMatch(/SIGTERM: no longer accepting requests; 1 call in flight, waiting up to 10s/);
    expect(s.stderr()).toMatch(/1 call finished/);
    expect(s.stderr()).toMatch(/stopped/);
  });

  it("cancels calls still running at the bound through their AbortSignal, logs them, and their callers get an envelope", async () => {
    const s = await startServe([], { cwd: project.dir, env: { QUIVER_SHUTDOWN_TIMEOUT: "500ms" } });
    const started = Date.now();
    const http = call(s.url, 60_000);
    const client = new Client({ name: "shutdown-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`)));
    const mcp = client.callTool({ name: "echo_slow_wait", arguments: { ms: 60_000 } });
    await eventually(async () => (await inflight(s.url)) === 2);
    s.child.kill("SIGTERM");
    const [h, m] = await Promise.all([http, mcp]);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(h.status).toBe("unavailable");
    expect(h.message).toMatch(/cancelled before it finished: The host is shutting down\./);
    expect(h.message).not.toMatch(/by the caller/);
    expect(m.isError).toBe(true);
    expect((m.structuredContent as Envelope).status).toBe("unavailable");
    expect(await s.exited).toBe(0);
    const log = s.stderr();
    expect(log).toMatch(/2 calls in flight, waiting up to 0\.5s/);
    expect(
      log.match(/cancelled echo_slow_wait \(principal [^)]+\)?|cancelled echo_slow_wait after/g)?.length,
    ).toBe(2);
    expect(log).toMatch(/its caller got "unavailable: /);
    await client.close().catch(() => {});
  });

  it("answers new requests 503 shutting_down once draining, over the JSON API and MCP, not a refused socket", async () => {
    const s = await startServe([], { cwd: project.dir, env: { QUIVER_SHUTDOWN_TIMEOUT: "5s" } });
    const answer = call(s.url, 1_500);
    await eventually(async () => (await inflight(s.url)) === 1);
    s.child.kill("SIGTERM");
    await eventually(() => s.stderr().includes("no longer accepting requests"));
    const late = await fetch(`${s.url}/tools`);
    expect(late.status).toBe(503);
    expect(late.headers.get("retry-after")).toBe("5");
    expect(((await late.json()) as { error: { code: string } }).error.code).toBe("shutting_down");
    const mcp = await fetch(`${s.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    expect(mcp.status).toBe(503);
    expect((await answer).status).toBe("success");
    expect(await s.exited).toBe(0);
  });

  it("reads its port from QUIVER_PORT, as .ci/run starts it", async () => {
    const port = await new Promise<number>((resolve) => {
      const srv = createServer().listen(0, "127.0.0.1", () => {
        const p = (srv.address() as { port: number }).port;
        srv.close(() => resolve(p));
      });
    });
    const { spawn } = await import("node:child_process");
    const child = spawn(process.execPath, [CLI, "serve"], {
      cwd: project.dir,
      env: cleanEnv({ QUIVER_PORT: String(port) }),
    });
    let err = "";
    child.stderr.on("data", (d) => (err += d));
    const exited = new Promise<number | null>((r) => child.on("close", r));
    await eventually(() => err.includes("serving on"), 20_000);
    expect(err).toContain(`http://127.0.0.1:${port}`);
    const health = (await (await fetch(`http://127.0.0.1:${port}/health`)).json()) as { status: string };
    expect(health.status).toBe("ok");
    child.kill("SIGINT");
    expect(await exited).toBe(0);
  });
});
