// Per-call cost of a no-op tool through Quiver's full runtime (validation and every policy on,
// cache miss), beside a bare call, zod parse + call, and the peers' own tool wrappers, in one run.
import { tool as langchainTool } from "@langchain/core/tools";
import { createTool as mastraTool } from "@mastra/core/tools";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import { createCatalog, definePlugin, defineTool } from "@quiver/core";
import { tool as aiTool } from "ai";
import { z } from "zod";
import { table, timePerCall } from "../lib/measure.mjs";

const input = z.object({
  q: z.string().describe("Any text"),
  n: z.number().int().optional().describe("A number"),
});
const output = z.object({ ok: z.boolean() });
const noop = async () => ({ ok: true });

export async function run({ iterations = 2_000, rounds = 7 } = {}) {
  const opts = { iterations, rounds };
  const rows = [];
  const add = async (name, fn, o = opts) => rows.push({ name, ns: await timePerCall(fn, o) });

  await add("bare function call", (i) => noop({ q: `x${i}` }));
  await add("zod parse + call", (i) => noop(input.parse({ q: `x${i}` })));

  const full = defineTool({
    name: "noop",
    description: "Does nothing; measures the runtime's own cost.",
    category: "computational_service",
    input,
    output,
    annotations: { readOnly: true, openWorld: true },
    policy: {
      timeout: "10s",
      retry: { times: 2, base: "100ms" },
      cache: { ttl: "1h", capacity: 100_000 },
      rateLimit: { limit: 1_000_000_000, window: "1 minute" },
      breaker: { failures: 5, openFor: "30s" },
      maxOutputChars: 10_000,
    },
    run: noop,
  });
  const catalog = createCatalog();
  catalog.register(
    definePlugin({ specificationVersion: "v1", id: "bench", version: "1.0.0", tools: [full] }),
  );
  const session = { session: { id: "bench", principal: "bench" } };
  await add("quiver full runtime (cache miss)", (i) => catalog.call("noop", { q: `x${i}` }, session));
  await add("quiver full runtime (cache hit)", () => catalog.call("noop", { q: "same" }, session));

  const lc = langchainTool(noop, { name: "noop", description: "noop", schema: input });
  await add("LangChain.js tool().invoke", (i) => lc.invoke({ q: `x${i}` }));

  const ai = aiTool({ description: "noop", inputSchema: input, execute: noop });
  await add("Vercel AI SDK tool().execute", (i) =>
    ai.execute({ q: `x${i}` }, { toolCallId: "t", messages: [] }),
  );

  const mastra = mastraTool({
    id: "noop",
    description: "noop",
    inputSchema: input,
    outputSchema: output,
    execute: noop,
  });
  await add("Mastra createTool().execute", (i) => mastra.execute({ q: `x${i}` }, {}));

  const server = new McpServer({ name: "bench", version: "1.0.0" });
  server.registerTool("noop", { description: "noop", inputSchema: input }, async () => ({
    content: [{ type: "text", text: "ok" }],
  }));
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(clientTransport);
  await add(
    "MCP SDK in-memory callTool",
    (i) => client.callTool({ name: "noop", arguments: { q: `x${i}` } }),
    {
      iterations: Math.max(200, iterations / 4),
      rounds,
    },
  );
  await client.close();
  await catalog.close();

  const base = rows.find((r) => r.name === "zod parse + call").ns;
  const lcNs = rows.find((r) => r.name.startsWith("LangChain")).ns;
  const quiver = rows.find((r) => r.name.includes("cache miss")).ns;
  const out = rows.map((r) => ({
    benchmark: r.name,
    "median µs/call": (r.ns / 1000).toFixed(2),
    "× zod+call": (r.ns / base).toFixed(1),
  }));
  const verdict = [
    `quiver full runtime = ${(quiver / base).toFixed(1)}× zod parse + call (target ≤ 8×)`,
    `LangChain invoke = ${(lcNs / quiver).toFixed(1)}× quiver full runtime (target ≥ 10×)`,
  ];
  return {
    title: "Tool call overhead (no-op tool)",
    table: table(out, ["benchmark", "median µs/call", "× zod+call"]),
    notes: verdict,
    rows: out,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await run();
  console.log(`${r.title}\n${r.table}\n${r.notes.join("\n")}`);
}
