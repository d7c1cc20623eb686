import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { type Catalog, createCatalog, definePlugin, defineTool, fail, partial } from "@quiver/core";
import { useCatalog } from "@quiver/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { type CatalogMcpServerOptions, createMcpServer } from "../src/index.js";
import { testPlugin } from "./fixtures/test-plugin.js";

const makeCatalog = useCatalog({ env: {} });
let catalog: Catalog;
const closers: Array<() => Promise<void>> = [];

beforeEach(() => {
  catalog = makeCatalog();
  catalog.register(testPlugin);
});
// After-hooks run last-registered first: these close before the catalogs do.
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

/** A server and an SDK client linked in memory. */
const connect = async (options: CatalogMcpServerOptions = {}) => {
  const server = createMcpServer(catalog, options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "in-memory", version: "1.0.0" });
  await client.connect(clientSide);
  closers.push(async () => {
    await client.close();
    await server.close();
  });
  return client;
};

describe("createMcpServer options", () => {
  it("sends the host's instructions, then each plugin's paragraph", async () => {
    const client = await connect({ instructions: "Ask before deleting." });
    expect(client.getInstructions()).toBe(
      "Ask before deleting.\n\nUse test_echo to check the connection before anything else.",
    );
  });

  it("filters the tools a principal sees and may call", async () => {
    const client = await connect({
      principal: "guest",
      filter: (tool, principal) => principal !== "guest" || tool.name === "test_echo",
    });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["test_echo"]);
    await expect(client.callTool({ name: "test_whoami", arguments: {} })).rejects.toThrow(/Unknown tool/);
  });

  it("shows an extra tool only to a caller who may call one of the catalog tools it uses", async () => {
    const extra = (name: string, uses?: string[]) => ({
      name,
      description: `Calls ${uses?.join(", ") ?? "nothing"}.`,
      inputSchema: { type: "object" as const },
      ...(uses ? { uses } : {}),
      call: async () => ({ content: [{ type: "text" as const, text: "{}" }] }),
    });
    const client = await connect({
      principal: "guest",
      filter: (tool, principal) => principal !== "guest" || tool.name === "test_echo",
      extraTools: [
        extra("seed_free"),
        extra("seed_echo", ["test_echo"]),
        extra("seed_whoami", ["test_whoami"]),
        extra("seed_either", ["test_whoami", "test_echo"]),
        extra("seed_whoami_or_absent", ["test_whoami", "not_installed"]),
        extra("seed_absent", ["not_installed"]),
      ],
    });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
      "seed_free",
      "seed_echo",
      "seed_either",
      "seed_absent",
      "test_echo",
    ]);
  });

  it("leaves a tool whose schema cannot be exported out of tools/list and reports it", async () => {
    catalog.register(
      definePlugin({
        specificationVersion: "v1",
        id: "dated",
        version: "1.0.0",
        tools: [
          defineTool({
            name: "dated_tool",
            description: "Takes a Date, which has no JSON Schema.",
            category: "computational_service",
            input: z.object({ when: z.date().describe("A date object") }),
            output: z.object({ ok: z.boolean() }),
            run: () => ({ ok: true }),
          }),
        ],
      }),
    );
    const reported: string[] = [];
    const client = await connect({ onSchemaError: (tool) => reported.push(tool) });
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("test_echo");
    expect(names).not.toContain("dated_tool");
    expect(reported).toEqual(["dated_tool"]);
  });

  it("fills context-injected fields from the session values and names the session per connection", async () => {
    const session = definePlugin({
      specificationVersion: "v1",
      id: "subject",
      version: "1.0.0",
      tools: [
        defineTool({
          name: "subject_current",
          description: "Answers the session's subject.",
          category: "education",
          input: z.object({ subject: z.string().optional().describe("Filled from the session") }),
          output: z.object({ subject: z.string().nullable(), session: z.string().nullable() }),
          inject: { subject: "subject" },
          run: ({ subject }, ctx) => ({ subject: subject ?? null, session: ctx.caller.sessionId ?? null }),
        }),
      ],
    });
    catalog.register(session);
    const client = await connect({ sessionValues: { subject: "metaheuristicas" } });
    const tool = (await client.listTools()).tools.find((t) => t.name === "subject_current")!;
    expect(JSON.stringify(tool.inputSchema)).not.toContain("subject");
    const a = await client.callTool({ name: "subject_current", arguments: {} });
    const b = await client.callTool({ name: "subject_current", arguments: {} });
    expect(a.structuredContent).toMatchObject({ data: { subject: "metaheuristicas" } });
    // One connection is one session (escalation counts per session).
    const sessionOf = (r: typeof a) => (r.structuredContent as { data: { session: string } }).data.session;
    expect(sessionOf(a)).toBe(sessionOf(b));
    expect(sessionOf(a)).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("textContent 'summary' leaves the data out of the text block", async () => {
    const client = await connect({ textContent: "summary", name: "custom", version: "9.9.9" });
    expect(client.getServerVersion()).toMatchObject({ name: "custom", version: "9.9.9" });
    const r = await client.callTool({ name: "test_echo", arguments: { text: "x" } });
    expect(r.content).toEqual([{ type: "text", text: "test_echo succeeded." }]);
  });

  it("does not escalate the model's out-of-domain requests: they are not failures of the tool", async () => {
    const client = await connect();
    await client.callTool({ name: "test_fail", arguments: { reason: "1" } });
    const second = await client.callTool({ name: "test_fail", arguments: { reason: "2" } });
    expect(second.structuredContent).toMatchObject({ error: { kind: "out_of_domain" } });
    expect(second.structuredContent).not.toHaveProperty("escalate");
  });

  it("stops notifying a closed server when the catalog changes", async () => {
    const server = createMcpServer(catalog);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "c", version: "1" });
    await client.connect(clientSide);
    let notified = 0;
    server.sendToolListChanged = async () => {
      notified++;
    };
    catalog.register(definePlugin({ specificationVersion: "v1", id: "one", version: "1.0.0", tools: [] }));
    expect(notified).toBe(1);
    await client.close();
    await server.close();
    catalog.unregister("one");
    expect(notified).toBe(1);
  });
});

describe("per-call timeout in _meta", () => {
  it("_meta.timeoutMs bounds one call, below the tool's own timeout; a bad value is invalid_input", async () => {
    const { makeTestClock } = await import("@quiver/testing");
    const time = await makeTestClock();
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    const slow = defineTool({
      name: "slow_wait",
      description: "Waits until the test lets it finish, then answers done.",
      category: "computational_service",
      input: z.object({}),
      output: z.object({ done: z.boolean() }),
      examples: [{ input: {} }],
      annotations: { readOnly: true, openWorld: false },
      policy: { timeout: "10s", retry: false },
      run: async () => {
        await held;
        return { done: true };
      },
    });
    const timed = createCatalog({ env: {}, clock: time.clock });
    timed.register(definePlugin({ specificationVersion: "v1", id: "slow", version: "1.0.0", tools: [slow] }));
    const server = createMcpServer(timed);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "in-memory", version: "1.0.0" });
    await client.connect(clientSide);
    try {
      const r = await time.advanceUntil(
        client.callTool({ name: "slow_wait", arguments: {}, _meta: { timeoutMs: 1_500 } }),
        100,
      );
      expect(r.structuredContent).toMatchObject({
        status: "timeout",
        message: "slow_wait did not finish within 1500 ms.",
      });
      const bounded = await time.advanceUntil(
        client.callTool({ name: "slow_wait", arguments: {}, _meta: { timeoutMs: 3_600_000 } }),
        500,
      );
      expect(bounded.structuredContent).toMatchObject({
        message: "slow_wait did not finish within 10000 ms.",
      });
      const bad = await client.callTool({ name: "slow_wait", arguments: {}, _meta: { timeoutMs: "soon" } });
      expect(bad.structuredContent).toMatchObject({ error: { kind: "invalid_input" } });
      release();
      const ok = await time.advanceUntil(client.callTool({ name: "slow_wait", arguments: {} }), 100);
      expect(ok.structuredContent).toMatchObject({ status: "success" });
    } finally {
      release();
      await client.close();
      await server.close();
      await timed.close();
    }
  });
});

/** Two tools: one answers with caveats (`partial`), one refuses. */
const caveatPlugin = definePlugin({
  id: "caveat",
  version: "1.0.0",
  tools: [
    defineTool({
      name: "caveat_some",
      description: "Answers two of the three items asked for. Use this to test partial answers.",
      category: "computational_service",
      input: z.object({ items: z.array(z.string()).describe("Items") }),
      output: z.object({ found: z.array(z.string()) }),
      examples: [{ input: { items: ["a"] } }],
      run: ({ items }) => partial({ found: items.slice(0, 2) }, "Only the first two items were found."),
    }),
    defineTool({
      name: "caveat_refuse",
      description: "Always refuses. Use this to test errors.",
      category: "computational_service",
      input: z.object({}),
      output: z.object({ never: z.string() }),
      examples: [{ input: {} }],
      run: () => {
        throw fail.outOfDomain("Not here.");
      },
    }),
  ],
});

describe("a partial envelope over MCP", () => {
  it("is an answer: isError false, the data and the caveat in text and structured content", async () => {
    catalog.register(caveatPlugin);
    const client = await connect();
    const r = await client.callTool({ name: "caveat_some", arguments: { items: ["a", "b", "c"] } });
    expect(r.isError).toBe(false);
    expect(r.structuredContent).toMatchObject({
      status: "partial",
      message: "Only the first two items were found.",
      data: { found: ["a", "b"] },
    });
    const texts = (r.content as Array<{ type: string; text: string }>).map((c) => c.text);
    expect(texts[0]).toBe("[partial] Only the first two items were found.");
    expect(JSON.parse(texts[1]!)).toEqual({ found: ["a", "b"] });
  });

  it("an error is still flagged as one", async () => {
    catalog.register(caveatPlugin);
    const client = await connect();
    const r = await client.callTool({ name: "caveat_refuse", arguments: {} });
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toMatchObject({ status: "error", error: { kind: "out_of_domain" } });
  });
});
