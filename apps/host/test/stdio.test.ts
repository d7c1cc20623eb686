import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer, type Socket } from "node:net";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, cleanEnv, makeProject, type Project } from "./helpers.js";

type Envelope = { status: string; data?: any };

let project: Project;
beforeAll(() => {
  project = makeProject({ fixtures: ["echo", "needs-key", "broken"] });
});
afterAll(() => project?.cleanup());

describe("quiver serve --stdio", () => {
  it("serves the discovered tools over MCP on stdin/stdout, calls made as QUIVER_PRINCIPAL, logs on stderr", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "serve", "--stdio"],
      cwd: project.dir,
      env: cleanEnv({ QUIVER_PRINCIPAL: "carol" }),
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (d) => (stderr += d));
    const client = new Client({ name: "stdio-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(
        expect.arrayContaining(["echo_text", "echo_whoami", "keyed_lookup", "quiver_find_tools"]),
      );
      const who = await client.callTool({ name: "echo_whoami", arguments: {} });
      expect((who.structuredContent as Envelope).data.principal).toBe("carol");
      const locked = await client.callTool({ name: "keyed_lookup", arguments: { q: "x" } });
      expect(locked.isError).toBe(true);
      expect((locked.structuredContent as Envelope).status).toBe("unavailable");
      expect(stderr).toMatch(/skipped quiver-plugin-broken/);
      expect(stderr).toMatch(/MCP over stdio ready/);
    } finally {
      await client.close();
    }
  });
});

/**
 * A gate for the slow-load fixture plugin: its module connects to the returned port while it loads
 * and finishes loading when `open()` sends a byte. `loading` resolves once it has connected.
 */
const loadGate = async () => {
  let socket: Socket | undefined;
  let connected!: () => void;
  const loading = new Promise<void>((resolve) => (connected = resolve));
  const server = createServer((s) => {
    socket = s;
    connected();
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const port = (server.address() as { port: number }).port;
  return {
    port,
    loading,
    open: () => socket?.end("go"),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

describe("quiver serve --stdio while its plugins load", () => {
  let slow: Project;
  beforeAll(() => {
    slow = makeProject({ fixtures: ["echo", "slow-load"] });
  });
  afterAll(() => slow?.cleanup());

  it("answers initialize at once and the first tools/list when every plugin is in", async () => {
    const gate = await loadGate();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "serve", "--stdio"],
      cwd: slow.dir,
      env: cleanEnv({ SLOW_LOAD_PORT: String(gate.port) }),
      stderr: "pipe",
    });
    const client = new Client({ name: "stdio-test", version: "1.0.0" });
    try {
      await client.connect(transport);
      await gate.loading;
      let listed = false;
      const listing = client.listTools().then((r) => {
        listed = true;
        return r;
      });
      // The server answers other requests meanwhile; the listing waits for the plugin.
      await client.ping();
      expect(listed).toBe(false);
      gate.open();
      const { tools } = await listing;
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["echo_text", "slow_load_ping"]));
      const ping = await client.callTool({ name: "slow_load_ping", arguments: {} });
      expect((ping.structuredContent as Envelope).status).toBe("success");
    } finally {
      await client.close();
      await gate.close();
    }
  });

  it("a host that fails to start answers the waiting tools/list with its error and exits 2", async () => {
    const gate = await loadGate();
    // An option the plugin does not declare: a config error once the plugin has loaded.
    const child = spawn(process.execPath, [CLI, "serve", "--stdio", "--set", "slow-load.colour=red"], {
      cwd: slow.dir,
      env: cleanEnv({ SLOW_LOAD_PORT: String(gate.port) }),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    const replies: Array<{ id?: number; result?: unknown; error?: { message: string } }> = [];
    let buffered = "";
    child.stdout.on("data", (d) => {
      buffered += d;
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) if (line.trim()) replies.push(JSON.parse(line));
    });
    const send = (m: Record<string, unknown>) =>
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...m })}\n`);
    const exited = once(child, "exit") as Promise<[number | null]>;
    try {
      send({
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "raw", version: "1" },
        },
      });
      await gate.loading;
      send({ method: "notifications/initialized" });
      send({ id: 2, method: "tools/list" });
      send({ id: 3, method: "ping" });
      // The ping's answer means the server has read the tools/list before it: it is waiting.
      await new Promise<void>((resolve) => {
        const check = () => (replies.some((r) => r.id === 3) ? resolve() : child.stdout.once("data", check));
        check();
      });
      expect(replies.some((r) => r.id === 2)).toBe(false);
      gate.open();
      const [code] = await exited;
      expect(code).toBe(2);
      expect(replies.find((r) => r.id === 1)?.result).toMatchObject({ serverInfo: { name: "quiver" } });
      expect(replies.find((r) => r.id === 2)?.error?.message).toMatch(/colour/);
      expect(stderr).toMatch(/config error:.*colour/s);
    } finally {
      child.kill();
      await gate.close();
    }
  });
});
