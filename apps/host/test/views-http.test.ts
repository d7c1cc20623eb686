import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveSettings } from "../src/config/resolve-settings.js";
import { createHost, type Host } from "../src/host/create-host.js";
import { type RunningServer, startServer } from "../src/http/start-server.js";
import { makeProject, type Project } from "./helpers.js";

// The HTTP API's side of MCP Apps, over a real server with the counter fixture (a view, and a
// view-only tool): what the console frames and calls, and what an agent is not shown.
let project: Project;
let host: Host;
let server: RunningServer;
const TOKEN = { authorization: "Bearer tok-alice" };

beforeAll(async () => {
  project = makeProject({ fixtures: ["counter", "echo"] });
  const settings = await resolveSettings(
    { cwd: project.dir, port: "0" },
    {
      QUIVER_TOKENS: "tok-alice=alice",
      QUIVER_SHUTDOWN_TIMEOUT: "1s",
    },
  );
  host = await createHost(settings);
  server = await startServer(host, { log: () => {} });
});
afterAll(async () => {
  await server?.shutdown("test end");
  project?.cleanup();
});

const json = async (path: string, init: RequestInit = {}) => {
  const r = await fetch(`${server.url}${path}`, {
    ...init,
    headers: { ...TOKEN, "content-type": "application/json", ...init.headers },
  });
  return { status: r.status, body: (await r.json()) as any };
};

describe("MCP Apps views on the HTTP API", () => {
  it("GET /tools and /find leave out a view-only tool; it stays callable by name", async () => {
    const { body } = await json("/tools");
    const names = body.tools.map((t: { name: string }) => t.name);
    expect(names).toContain("counter_show");
    expect(names).not.toContain("counter_step");
    const found = await json(`/find?need=${encodeURIComponent("step the counter")}&limit=20`);
    expect(found.body.tools.map((t: { name: string }) => t.name)).not.toContain("counter_step");
    const called = await json("/tools/counter_step/call", {
      method: "POST",
      body: JSON.stringify({ by: 3 }),
    });
    expect(called.body).toMatchObject({ status: "success", data: { count: expect.any(Number) } });
  });

  it("GET /tools/:name names the tool's view; ?result=mcp answers the call as MCP's tools/call", async () => {
    expect((await json("/tools/counter_show")).body.viewUri).toBe("ui://counter/counter");
    expect((await json("/tools/echo_text")).body).not.toHaveProperty("viewUri");
    const { body } = await json("/tools/counter_show/call?result=mcp", { method: "POST", body: "{}" });
    expect(body).toMatchObject({
      content: [{ type: "text" }, { type: "text" }],
      structuredContent: { status: "success", data: { count: expect.any(Number) } },
      isError: false,
    });
  });

  it("GET /views?uri= serves the view's page without a token, under a CSP allowing no network", async () => {
    const r = await fetch(`${server.url}/views?uri=${encodeURIComponent("ui://counter/counter")}`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await r.text()).toContain("<title>Counter</title>");
    const csp = r.headers.get("content-security-policy")!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'none'");
    expect(csp).toContain("frame-src 'none'");
    expect(csp).toContain("frame-ancestors 'self'");
    const missing = await fetch(`${server.url}/views?uri=${encodeURIComponent("ui://counter/none")}`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as any).error.code).toBe("unknown_view");
    // Only views: another resource is not served as a page.
    expect((await fetch(`${server.url}/views?uri=${encodeURIComponent("fda://label/x")}`)).status).toBe(404);
  });
});
