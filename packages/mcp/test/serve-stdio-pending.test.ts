import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import type { Catalog } from "@quiver/core";
import { useCatalog } from "@quiver/testing";
import { afterEach, describe, expect, it } from "vitest";
import { type ExtraMcpTool, serveStdio } from "../src/index.js";
import { testPlugin } from "./fixtures/test-plugin.js";

// Catalogs close after the servers and clients below (vitest runs after-hooks in reverse order).
const makeCatalog = useCatalog({ env: {} });
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

/** A promise and its resolve/reject, for a catalog that is "still loading". */
const deferred = <T>() => {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};

/** serveStdio over an in-memory transport (the `transport` option), with an SDK client on the other end. */
const serve = async (
  catalog: Promise<Catalog>,
  extraTools?: Promise<ReadonlyArray<ExtraMcpTool>>,
  options: { instructions?: string } = {},
) => {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const stdio = serveStdio(catalog, {
    transport: serverSide,
    ...options,
    ...(extraTools ? { extraTools } : {}),
  });
  const client = new Client({ name: "pending", version: "1.0.0" });
  await client.connect(clientSide);
  closers.push(async () => {
    await client.close();
    await stdio.close();
  });
  return client;
};

const seedTool: ExtraMcpTool = {
  name: "seed_echo",
  description: "A profile's tool.",
  inputSchema: { type: "object" },
  call: async () => ({ content: [{ type: "text", text: "{}" }] }),
};

describe("serveStdio with a catalog that is still loading", () => {
  it("answers the opening when the catalog is in, with its plugins' instructions", async () => {
    const pending = deferred<Catalog>();
    const tools = deferred<ReadonlyArray<ExtraMcpTool>>();
    let opened = false;
    const connecting = serve(pending.promise, tools.promise, { instructions: "Ask before deleting." });
    connecting.then(() => (opened = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(opened).toBe(false);

    const catalog = makeCatalog();
    catalog.register(testPlugin);
    pending.resolve(catalog);
    tools.resolve([seedTool]);
    const client = await connecting;
    expect(client.getServerVersion()?.name).toBe("quiver");
    expect(client.getInstructions()).toBe(
      "Ask before deleting.\n\nUse test_echo to check the connection before anything else.",
    );
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(["seed_echo", "test_echo", "test_whoami"]),
    );
    const called = await client.callTool({ name: "test_echo", arguments: { text: "hi" } });
    expect((called.structuredContent as { status: string }).status).toBe("success");
  });

  it("answers the opening of a catalog that fails to load, then every request with its error", async () => {
    const pending = deferred<Catalog>();
    const connecting = serve(pending.promise);
    pending.reject(new Error('plugin "fda" has no option "colour"'));
    const client = await connecting;
    await expect(client.listTools()).rejects.toThrow(/has no option "colour"/);
    await expect(client.callTool({ name: "test_echo", arguments: {} })).rejects.toThrow(/colour/);
  });

  it("sends tools/list_changed for a catalog that changes later", async () => {
    const pending = deferred<Catalog>();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const stdio = serveStdio(pending.promise, { transport: serverSide });
    let changed!: () => void;
    const listChanged = new Promise<void>((resolve) => (changed = resolve));
    const client = new Client(
      { name: "pending", version: "1.0.0" },
      { listChanged: { tools: { onChanged: () => changed(), autoRefresh: false } } },
    );
    const catalog = makeCatalog();
    closers.push(async () => {
      await client.close();
      await stdio.close();
    });
    const connecting = client.connect(clientSide);
    pending.resolve(catalog);
    await connecting;
    expect((await client.listTools()).tools).toEqual([]);
    catalog.register(testPlugin);
    await listChanged;
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("test_echo");
  });
});
