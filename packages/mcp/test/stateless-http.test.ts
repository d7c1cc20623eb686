import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { type Catalog, createCatalog } from "@quiver/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpHttpHandler, type McpHttpHandler } from "../src/index.js";
import { extraPlugin, testPlugin } from "./fixtures/test-plugin.js";
import { eventually, listen } from "./helpers.js";

/** Two "replicas": each its own catalog and stateless handler on its own port. */
const replicas: Array<{
  catalog: Catalog;
  handler: McpHttpHandler;
  url: string;
  close: () => Promise<void>;
}> = [];

beforeAll(async () => {
  for (let i = 0; i < 2; i++) {
    const catalog = createCatalog({ env: { TEST_UPSTREAM_URL: "http://127.0.0.1:9" } });
    catalog.register(testPlugin);
    const handler = createMcpHttpHandler(catalog, { stateless: true, tokens: { "tok-abc": "alice" } });
    const http = await listen((req, res) => void handler(req, res));
    replicas.push({ catalog, handler, url: http.url, close: http.close });
  }
});

afterAll(async () => {
  for (const r of replicas) {
    await r.handler.close();
    await r.close();
    await r.catalog.close();
  }
});

/** A fetch that sends each POST to the next replica in turn (a round-robin load balancer). */
const rotating = () => {
  const served: string[] = [];
  let next = 0;
  const fetchFn = (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const target = new URL(replicas[next++ % replicas.length]!.url);
    url.host = target.host;
    served.push(`${(init?.method ?? "GET").toUpperCase()} ${target.port}`);
    return fetch(url, init);
  };
  return { fetchFn, served };
};

describe("stateless Streamable HTTP (createMcpHttpHandler({ stateless: true }))", () => {
  it("answers initialize, tools/list and tools/call on different replicas, with progress on the POST's stream", async () => {
    const { fetchFn, served } = rotating();
    const client = new Client({ name: "stateless-test", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(`${replicas[0]!.url}/mcp`), {
      fetch: fetchFn,
      requestInit: { headers: { authorization: "Bearer tok-abc" } },
    });
    await client.connect(transport);
    expect(transport.sessionId).toBeUndefined();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("test_echo");
    const seen: number[] = [];
    const result = await client.callTool(
      { name: "test_progress", arguments: { steps: 3, delayMs: 5 } },
      { onprogress: (p) => seen.push(p.progress) },
    );
    expect(result.isError).toBe(false);
    expect(seen).toEqual([1, 2, 3]);
    const who = await client.callTool({ name: "test_whoami", arguments: {} });
    expect((who.structuredContent as { data: { principal: string } }).data.principal).toBe("alice");
    const ports = new Set(served.filter((s) => s.startsWith("POST")).map((s) => s.split(" ")[1]));
    expect(ports.size).toBe(2);
    await client.close();
  });

  it("sends tools/list_changed on the GET stream of the replica that holds it", async () => {
    let changed = 0;
    let streams = 0;
    const client = new Client(
      { name: "stateless-listen", version: "1.0.0" },
      { listChanged: { tools: { onChanged: () => changed++, autoRefresh: false } } },
    );
    const transport = new StreamableHTTPClientTransport(new URL(`${replicas[0]!.url}/mcp`), {
      requestInit: { headers: { authorization: "Bearer tok-abc" } },
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (init?.method === "GET" && response.ok) streams++;
        return response;
      },
    });
    await client.connect(transport);
    // The client opens its GET stream after initialize; the change is sent once it is open.
    await eventually(() => streams > 0);
    replicas[0]!.catalog.register(extraPlugin);
    await eventually(() => changed > 0);
    expect(changed).toBeGreaterThan(0);
    replicas[0]!.catalog.unregister("extra");
    await client.close();
  });
});
