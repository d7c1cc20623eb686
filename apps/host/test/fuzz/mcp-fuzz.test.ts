import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { assertEnvelope } from "@quiver/testing";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fuzzRuns, fuzzSeed, fuzzTimeout } from "./fuzz-setup.js";
import { type JsonSchema, nearValidFor } from "./schema-arbitrary.js";
import { type AllPluginsServer, serveAllPlugins } from "./serve-all-plugins.js";

let server: AllPluginsServer;
let client: Client;
let tools: Array<{ name: string; schema: JsonSchema }>;
beforeAll(async () => {
  server = await serveAllPlugins();
  client = new Client({ name: "quiver-fuzz", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  tools = (await client.listTools()).tools
    .filter((t) => t.name !== "quiver_find_tools")
    .map((t) => ({ name: t.name, schema: t.inputSchema as JsonSchema }));
});
afterAll(async () => {
  await client?.close().catch(() => {});
  await server?.stop();
});

const runs = fuzzRuns("mcp");
const seed = fuzzSeed("mcp");

/** MCP arguments are an object: any other value travels as `{ input: value }` (itself near-valid). */
const asArguments = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : { input: value };

describe(`fuzzing tools/call over MCP Streamable HTTP with the SDK client (${runs} cases per tool)`, () => {
  it("lists the fourteen tools of the eight plugins", () => {
    expect(tools.length).toBe(14);
  });

  it(
    "answers every near-valid or arbitrary input with a tool result holding an envelope, never a protocol error",
    async () => {
      const outcomes: Record<string, number> = {};
      for (const { name, schema } of tools) {
        await fc.assert(
          fc.asyncProperty(nearValidFor(schema), async (input) => {
            const result = await client.callTool({ name, arguments: asArguments(input) });
            const envelope = assertEnvelope(result.structuredContent);
            expect(envelope.error?.kind).not.toBe("internal");
            // A partial is an answer with caveats: only the other statuses are errors to the client.
            expect(result.isError ?? false).toBe(
              envelope.status !== "success" && envelope.status !== "partial",
            );
            const key = envelope.error?.kind ?? envelope.status;
            outcomes[key] = (outcomes[key] ?? 0) + 1;
          }),
          { numRuns: runs, seed, endOnFailure: true },
        );
      }
      console.log(`[fuzz] mcp: ${tools.length} tools × ${runs} cases; outcomes: ${JSON.stringify(outcomes)}`);
      expect(await fetch(`${server.url}/health`).then((r) => r.status)).toBe(200);
    },
    fuzzTimeout(runs, 15),
  );
});
