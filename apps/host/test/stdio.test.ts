import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer, type Socket } from "node:net";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { ToolResult } from "@quiver/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, cleanEnv, makeProject, type Project } from "./helpers.js";
import { hasRedisServer, startRedisServer } from "./redis-server.js";

type Envelope = ToolResult<any>;

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

const INITIALIZE = {
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

type Reply = { id?: number; result?: unknown; error?: { message: string } };

/** `quiver serve --stdio` in a child process, spoken to in raw JSON-RPC lines (an MCP client's view). */
const rawStdio = (cwd: string, args: string[], env: Record<string, string>) => {
  const child = spawn(process.execPath, [CLI, "serve", "--stdio", ...args], {
    cwd,
    env: cleanEnv(env),
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const replies: Reply[] = [];
  /** Lines on stdout that are not JSON-RPC: each one breaks the client's stream. */
  const stray: string[] = [];
  let buffered = "";
  child.stdout.on("data", (d) => {
    buffered += d;
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    for (const line of lines) {
      if (!line.trim()) continue;
      try {
        replies.push(JSON.parse(line));
      } catch {
        stray.push(line);
      }
    }
  });
  return {
    replies,
    stray,
    stderr: () => stderr,
    exited: once(child, "exit") as Promise<[number | null]>,
    send: (m: Record<string, unknown>) => child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...m })}\n`),
    end: () => child.stdin.end(),
    /** Resolves once the reply to request `id` has arrived. */
    answered: (id: number) =>
      new Promise<void>((resolve) => {
        const check = () => (replies.some((r) => r.id === id) ? resolve() : child.stdout.once("data", check));
        check();
      }),
    /** Resolves once stderr has a line matching `pattern`. */
    logged: (pattern: RegExp) =>
      new Promise<void>((resolve) => {
        const check = () => (pattern.test(stderr) ? resolve() : child.stderr.once("data", check));
        check();
      }),
    signal: (name: NodeJS.Signals) => child.kill(name),
    kill: () => child.kill(),
  };
};

describe("quiver serve --stdio while its plugins load", () => {
  let slow: Project;
  beforeAll(() => {
    slow = makeProject({ fixtures: ["echo", "slow-load"] });
  });
  afterAll(() => slow?.cleanup());

  it("answers initialize when every plugin is in, with their instructions, and then tools/list", async () => {
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
      let opened = false;
      const connecting = client.connect(transport).then(() => (opened = true));
      await gate.loading;
      await new Promise((resolve) => setTimeout(resolve, 100));
      // The opening waits for the plugins: its answer carries their paragraphs of instructions.
      expect(opened).toBe(false);
      gate.open();
      await connecting;
      expect(client.getInstructions()).toMatch(/quiver_find_tools/);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["echo_text", "slow_load_ping"]));
      const ping = await client.callTool({ name: "slow_load_ping", arguments: {} });
      expect((ping.structuredContent as Envelope).status).toBe("success");
    } finally {
      await client.close();
      await gate.close();
    }
  });

  it("a host that fails to start answers the opening, then the waiting tools/list with its error, and exits 2", async () => {
    const gate = await loadGate();
    // An option the plugin does not declare: a config error once the plugin has loaded.
    const child = rawStdio(slow.dir, ["--set", "slow-load.colour=red"], {
      SLOW_LOAD_PORT: String(gate.port),
    });
    try {
      child.send(INITIALIZE);
      await gate.loading;
      child.send({ method: "notifications/initialized" });
      child.send({ id: 2, method: "tools/list" });
      // Nothing is answered while the plugins load (the opening waits for them).
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(child.replies).toEqual([]);
      gate.open();
      const [code] = await child.exited;
      expect(code).toBe(2);
      expect(child.replies.find((r) => r.id === 1)?.result).toMatchObject({ serverInfo: { name: "quiver" } });
      expect(child.replies.find((r) => r.id === 2)?.error?.message).toMatch(/colour/);
      expect(child.stderr()).toMatch(/config error:.*colour/s);
    } finally {
      child.kill();
      await gate.close();
    }
  });

  it("answers every request read before stdin ends, then exits 0 (requests piped in)", async () => {
    const gate = await loadGate();
    const child = rawStdio(slow.dir, [], { SLOW_LOAD_PORT: String(gate.port) });
    try {
      child.send(INITIALIZE);
      child.send({ method: "notifications/initialized" });
      child.send({ id: 2, method: "tools/list" });
      child.send({
        id: 3,
        method: "tools/call",
        params: { name: "echo_text", arguments: { text: "batch" } },
      });
      child.end();
      // Stdin has ended while the plugins still load.
      await gate.loading;
      gate.open();
      const [code] = await child.exited;
      expect(code).toBe(0);
      expect(child.replies.find((r) => r.id === 2)?.result).toMatchObject({
        tools: expect.arrayContaining([expect.objectContaining({ name: "slow_load_ping" })]),
      });
      expect(child.replies.find((r) => r.id === 3)?.result).toMatchObject({
        structuredContent: { status: "success" },
      });
      expect(child.stderr()).toMatch(/stopped \(stdin closed\)/);
    } finally {
      child.kill();
      await gate.close();
    }
  });
  it("stops on SIGTERM while the client keeps stdin open", async () => {
    const gate = await loadGate();
    const child = rawStdio(slow.dir, [], { SLOW_LOAD_PORT: String(gate.port) });
    try {
      child.send(INITIALIZE);
      await gate.loading;
      gate.open();
      await child.logged(/MCP over stdio ready/);
      child.signal("SIGTERM");
      const [code] = await child.exited;
      expect(code).toBe(0);
      expect(child.stderr()).toMatch(/stopped \(SIGTERM\)/);
    } finally {
      child.kill();
      await gate.close();
    }
  });
});

describe("quiver serve --stdio with a plugin that prints to stdout", () => {
  it("keeps stdout to JSON-RPC: the plugin's lines (import, setup, run) go to stderr", async () => {
    const project = makeProject({ fixtures: ["chatty"] });
    const child = rawStdio(project.dir, [], {});
    try {
      child.send(INITIALIZE);
      child.send({ method: "notifications/initialized" });
      child.send({ id: 2, method: "tools/list" });
      child.send({ id: 3, method: "tools/call", params: { name: "chatty_say", arguments: {} } });
      await child.answered(3);
      child.end();
      const [code] = await child.exited;
      expect(code).toBe(0);
      expect(child.stray).toEqual([]);
      expect(child.replies.map((r) => r.id)).toEqual([1, 2, 3]);
      expect(child.replies[2]?.result).toMatchObject({ structuredContent: { status: "success" } });
      for (const line of ["chatty: loaded", "chatty: setup", "chatty: running", "chatty: info"])
        expect(child.stderr()).toContain(`${line}\n`);
    } finally {
      child.kill();
      project.cleanup();
    }
  }, 30_000);
});

const noRedis = hasRedisServer() ? undefined : "redis-server is not installed";
if (noRedis) console.log(`skipped (stdio with Redis stores): ${noRedis}`);

describe.skipIf(noRedis !== undefined)("quiver serve --stdio with Redis stores, when Redis goes away", () => {
  it("keeps stdout to JSON-RPC: the outage and the recovery are said on stderr", async () => {
    const redis = await startRedisServer();
    const project = makeProject({
      fixtures: ["echo"],
      config: {
        name: "quiver.config.json",
        text: JSON.stringify({
          policies: { echo_text: { cache: false, rateLimit: { limit: 100, window: "1m" } } },
        }),
      },
    });
    const child = rawStdio(project.dir, [], { QUIVER_REDIS_URL: redis.url });
    const call = (id: number) =>
      child.send({ id, method: "tools/call", params: { name: "echo_text", arguments: { text: `t${id}` } } });
    const status = (id: number) =>
      (child.replies.find((r) => r.id === id)?.result as { structuredContent?: Envelope } | undefined)
        ?.structuredContent?.status;
    try {
      child.send(INITIALIZE);
      child.send({ method: "notifications/initialized" });
      call(2);
      await child.answered(2);
      expect(status(2)).toBe("success");
      await redis.stop();
      call(3);
      await child.answered(3);
      // Redis down: the replica limits in its own memory, and the call answers.
      expect(status(3)).toBe("success");
      await child.logged(/Redis connection lost|Redis is unreachable/);
      await redis.start();
      // A command tries Redis again a second after the last failure: calls until one has.
      let id = 4;
      await expect
        .poll(
          async () => {
            call(id);
            await child.answered(id);
            expect(status(id)).toBe("success");
            id++;
            return /Redis is reachable again/.test(child.stderr());
          },
          { timeout: 15_000, interval: 300 },
        )
        .toBe(true);
      child.end();
      const [code] = await child.exited;
      expect(code).toBe(0);
      expect(child.stray).toEqual([]);
      expect(child.stderr()).toMatch(/^warning: Redis (connection lost|is unreachable) \(/m);
    } finally {
      child.kill();
      await redis.stop();
      project.cleanup();
    }
  }, 30_000);
});
