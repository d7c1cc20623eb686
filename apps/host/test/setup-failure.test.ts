// A plugin whose setup fails (its database is down) is reported as failing, with the reason, by
// GET /health, the console's state and /metrics, and as ready again once a setup succeeds.
import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveSettings } from "../src/config/resolve-settings.js";
import { createHost } from "../src/host/create-host.js";
import { type RunningServer, startServer } from "../src/http/start-server.js";
import { makeProject, type Project } from "./helpers.js";

let project: Project;
let server: RunningServer;
let port: number;
let upstream: Server | undefined;

/** A port nothing listens on (yet): listen on 0, note the port, close. */
const freePort = async () => {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const { port } = s.address() as { port: number };
  await new Promise<void>((r) => s.close(() => r()));
  return port;
};

beforeAll(async () => {
  project = makeProject({ fixtures: ["setup-fails"] });
  port = await freePort();
  const settings = await resolveSettings({ cwd: project.dir, port: "0" }, { SETUP_FAILS_PORT: String(port) });
  server = await startServer(await createHost(settings), { log: () => {} });
});
afterAll(async () => {
  await server?.shutdown("test end");
  await new Promise<void>((r) => (upstream ? upstream.close(() => r()) : r()));
  project?.cleanup();
});

const call = async () =>
  (await (
    await fetch(`${server.url}/tools/setup_fails_ping/call`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    })
  ).json()) as { status: string; message: string };
const health = async () =>
  (
    (await (await fetch(`${server.url}/health`)).json()) as {
      plugins: { id: string; status: string; message?: string }[];
    }
  ).plugins.find((p) => p.id === "setup-fails");
const consolePlugin = async () =>
  (
    (await (await fetch(`${server.url}/console/api/state`)).json()) as {
      plugins: { id: string; state: string; message?: string }[];
    }
  ).plugins.find((p) => p.id === "setup-fails");
const failingGauge = async () =>
  /quiver_host_plugins\{status="failing"\} (\d+)/.exec(
    await (await fetch(`${server.url}/metrics`)).text(),
  )?.[1];

describe("a plugin whose setup fails", () => {
  it("is ready before its setup first runs", async () => {
    expect(await health()).toMatchObject({ status: "ready" });
    expect(await failingGauge()).toBe("0");
  });

  it("is failing, with the reason, after a call found its connection refused", async () => {
    const r = await call();
    expect(r.status).toBe("unavailable");
    expect(r.message).toContain("could not start");
    const h = await health();
    expect(h?.status).toBe("failing");
    expect(h?.message).toMatch(/^setup failed: .*ECONNREFUSED/);
    expect(await consolePlugin()).toMatchObject({ state: "failing", message: h?.message });
    expect(await failingGauge()).toBe("1");
  });

  it("is ready again once its upstream listens and a call's setup succeeds", async () => {
    upstream = createServer((socket) => socket.on("error", () => {}));
    await new Promise<void>((r) => upstream!.listen(port, "127.0.0.1", r));
    expect((await call()).status).toBe("success");
    expect(await health()).toMatchObject({ status: "ready" });
    expect((await health())?.message).toBeUndefined();
    expect(await consolePlugin()).toMatchObject({ state: "ready" });
    expect(await failingGauge()).toBe("0");
  });
});
