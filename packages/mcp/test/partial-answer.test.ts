import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { definePlugin, defineTool, fail, partial } from "@quiver/core";
import { useCatalog } from "@quiver/testing";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createMcpServer } from "../src/index.js";

/** Two tools: one answers with caveats (`partial`), one refuses. */
const plugin = definePlugin({
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

const makeCatalog = useCatalog({ env: {} });
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

const connect = async () => {
  const catalog = makeCatalog();
  catalog.register(plugin);
  const server = createMcpServer(catalog);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "partial-test", version: "1.0.0" });
  await client.connect(clientSide);
  closers.push(async () => {
    await client.close();
    await server.close();
  });
  return client;
};

describe("a partial envelope over MCP", () => {
  it("is an answer: isError false, the data and the caveat in text and structured content", async () => {
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
    const client = await connect();
    const r = await client.callTool({ name: "caveat_refuse", arguments: {} });
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toMatchObject({ status: "error", error: { kind: "out_of_domain" } });
  });
});
