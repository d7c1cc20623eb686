import { type Catalog, createCatalog, ToolFailure } from "@quiver/core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  connectMcpToolCaller,
  createMcpHttpHandler,
  type McpHttpHandler,
  type McpToolCaller,
} from "../src/index.js";
import { testPlugin } from "./fixtures/test-plugin.js";
import {
  childPids,
  EVERYTHING,
  listen,
  QUIVER_STDIO,
  STDIO_SERVER,
  startHangingUpstream,
} from "./helpers.js";

const everythingPids = () => childPids("server-everything");
const stdioServerPids = () => childPids(STDIO_SERVER);

const callers: McpToolCaller[] = [];
const open = (options: Parameters<typeof connectMcpToolCaller>[0]) => {
  const caller = connectMcpToolCaller(options);
  callers.push(caller);
  return caller;
};
afterEach(async () => {
  for (const c of callers.splice(0)) await c.close();
});

/** The rejection of `promise`, which must reject. */
const rejection = async (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (error: unknown) => error,
  );

const textOf = (r: { content: ReadonlyArray<{ type: string; text?: string }> }) =>
  r.content.map((b) => b.text ?? "").join("\n");

describe("connectMcpToolCaller over stdio (@modelcontextprotocol/server-everything)", () => {
  const everything = () =>
    open({ name: "everything", command: process.execPath, args: [EVERYTHING, "stdio"] });

  it("opens the connection on the first call and returns the tool's content", async () => {
    const caller = everything();
    expect(caller.label).toContain("stdio: ");
    expect(await everythingPids()).toEqual([]);
    const r = await caller.callTool({ name: "echo", arguments: { message: "hi" } });
    expect(r).toEqual({ content: [{ type: "text", text: "Echo: hi" }] });
    expect(await everythingPids()).toHaveLength(1);
  });

  it("a server killed mid-call is unavailable (a ToolFailure naming it), and the next call reconnects", async () => {
    // A Quiver stdio server whose tool waits on a hanging upstream: the upstream seeing the request is the
    // event that says the call is in flight, so the kill lands mid-call without guessing a delay.
    const upstream = await startHangingUpstream();
    try {
      const caller = open({
        name: "quiver-child",
        ...QUIVER_STDIO,
        env: { TEST_UPSTREAM_URL: upstream.url },
      });
      await caller.callTool({ name: "test_echo", arguments: { text: "before" } });
      const [first] = await stdioServerPids();
      const running = caller.callTool({ name: "test_wait_upstream", arguments: { tag: "killed" } });
      await upstream.until(() => upstream.seen.some((s) => s.tag === "killed"));
      process.kill(first!, "SIGKILL");
      const lost = await rejection(running);
      expect(ToolFailure.isInstance(lost)).toBe(true);
      expect(lost).toMatchObject({ kind: "unavailable", retryable: true });
      expect((lost as ToolFailure).message).toMatch(
        /MCP server "quiver-child" \(stdio: .*\) could not be reached/,
      );
      expect((lost as ToolFailure).suggestion).toMatch(/Check that the command runs on its own/);

      const again = await caller.callTool({ name: "test_echo", arguments: { text: "after" } });
      expect(again.structuredContent).toMatchObject({ data: { text: "after" } });
      const pids = await stdioServerPids();
      expect(pids).toHaveLength(1);
      expect(pids[0]).not.toBe(first);
    } finally {
      await upstream.close();
    }
  }, 30_000);

  it("an aborted call rejects with the abort (not a ToolFailure) and keeps the connection", async () => {
    const caller = everything();
    await caller.callTool({ name: "echo", arguments: { message: "warm" } });
    const [pid] = await everythingPids();
    const error = await rejection(
      caller.callTool(
        { name: "trigger-long-running-operation", arguments: { duration: 10, steps: 10 } },
        { signal: AbortSignal.timeout(200) },
      ),
    );
    expect(ToolFailure.isInstance(error)).toBe(false);
    expect(textOf(await caller.callTool({ name: "echo", arguments: { message: "still" } }))).toBe(
      "Echo: still",
    );
    expect(await everythingPids()).toEqual([pid]);
  });

  it("close() ends the spawned server", async () => {
    const caller = everything();
    await caller.callTool({ name: "echo", arguments: { message: "x" } });
    expect(await everythingPids()).toHaveLength(1);
    // close() resolves once the child has exited (the SDK waits for its "close" event), so no polling.
    await caller.close();
    expect(await everythingPids()).toEqual([]);
  });

  it("a command that cannot start is unavailable with its stderr, and secret flag values never show", async () => {
    const caller = open({
      name: "broken",
      command: process.execPath,
      args: [
        "-e",
        "console.error('boom: bad key ' + process.argv.slice(1).join(' ')); process.exit(3)",
        "--",
        "--api-key",
        "ctx7sk-very-secret",
      ],
    });
    expect(caller.label).not.toContain("ctx7sk-very-secret");
    const failure = await rejection(caller.callTool({ name: "anything", arguments: {} }));
    expect(failure).toMatchObject({ kind: "unavailable" });
    const message = (failure as ToolFailure).message;
    expect(message).toMatch(/MCP server "broken" \(stdio: .*\) could not be reached.*boom: bad key/s);
    expect(message).not.toContain("ctx7sk-very-secret");
    expect(message).toContain("[REDACTED]");
  });

  it("needs exactly one of command and url", () => {
    expect(() => connectMcpToolCaller({})).toThrow(/exactly one of/);
    expect(() => connectMcpToolCaller({ command: "a", url: "http://b" })).toThrow(/exactly one of/);
  });
});

describe("connectMcpToolCaller over Streamable HTTP (to a Quiver MCP endpoint)", () => {
  let upstream: Awaited<ReturnType<typeof startHangingUpstream>>;
  let served: Catalog;
  let handler: McpHttpHandler;
  let http: Awaited<ReturnType<typeof listen>>;
  const remote = (token = "tok-caller") =>
    open({ name: "remote", url: `${http.url}/mcp`, headers: { authorization: `Bearer ${token}` } });

  beforeAll(async () => {
    upstream = await startHangingUpstream();
    served = createCatalog({ env: { TEST_UPSTREAM_URL: upstream.url } });
    served.register(testPlugin);
    handler = createMcpHttpHandler(served, { tokens: { "tok-caller": "caller-user" } });
    // Through a variable, so a test can swap in a fresh handler (a restarted server).
    http = await listen((req, res) => void handler(req, res));
  });
  afterAll(async () => {
    await handler.close();
    await http.close();
    await served.close();
    await upstream.close();
  });

  it("calls with the configured headers and returns structured content", async () => {
    const r = await remote().callTool({ name: "test_whoami", arguments: {} });
    expect(r.isError).toBeUndefined();
    expect(r.structuredContent).toMatchObject({ status: "success", data: { principal: "caller-user" } });
  });

  it("resolves a tool's isError answer (it is an answer, not a transport failure)", async () => {
    const r = await remote().callTool({ name: "test_fail", arguments: { reason: "nope" } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain("Refused: nope");
  });

  it("maps a protocol error to invalid_input and a refused token to access_denied", async () => {
    expect(await rejection(remote().callTool({ name: "no_such_tool", arguments: {} }))).toMatchObject({
      kind: "invalid_input",
    });
    const refused = await rejection(remote("nope-nope").callTool({ name: "test_echo", arguments: {} }));
    expect(refused).toMatchObject({ kind: "access_denied" });
    expect(JSON.stringify(refused)).not.toContain("nope-nope");
  });

  it("aborting a call cancels the remote call and its upstream request", async () => {
    const controller = new AbortController();
    const running = remote().callTool(
      { name: "test_wait_upstream", arguments: { tag: "caller-cancel" } },
      { signal: controller.signal },
    );
    await upstream.until(() => upstream.seen.some((s) => s.tag === "caller-cancel"));
    controller.abort();
    expect(ToolFailure.isInstance(await rejection(running))).toBe(false);
    await upstream.until(() => upstream.seen.find((s) => s.tag === "caller-cancel")?.closedByClient === true);
  });

  it("a restarted server that forgot the session is unavailable once, then the caller reconnects", async () => {
    const caller = remote();
    expect(
      (await caller.callTool({ name: "test_echo", arguments: { text: "one" } })).isError,
    ).toBeUndefined();
    const old = handler;
    handler = createMcpHttpHandler(served, { tokens: { "tok-caller": "caller-user" } });
    await old.close();
    expect(await rejection(caller.callTool({ name: "test_echo", arguments: { text: "two" } }))).toMatchObject(
      {
        kind: "unavailable",
      },
    );
    const r = await caller.callTool({ name: "test_echo", arguments: { text: "three" } });
    expect(r.structuredContent).toMatchObject({ data: { text: "three" } });
  });

  it("a URL that refuses connections is unavailable, and header values stay out of the message", async () => {
    const caller = open({
      name: "down",
      url: "http://127.0.0.1:9/mcp",
      headers: { authorization: "Bearer secret-token-123" },
    });
    const failure = await rejection(caller.callTool({ name: "x", arguments: {} }));
    expect(failure).toMatchObject({ kind: "unavailable" });
    expect((failure as ToolFailure).message).toContain("http://127.0.0.1:9/mcp");
    expect(JSON.stringify(failure)).not.toContain("secret-token-123");
    expect((failure as ToolFailure).message).not.toContain("secret-token-123");
  });
});
