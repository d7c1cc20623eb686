import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { type Catalog, createCatalog, definePlugin, defineTool, outcome } from "@quiver/core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createMcpHttpHandler, type McpHttpHandler } from "../src/index.js";
import { listen } from "./helpers.js";

/** A structure file far over the tool's 5,000-character output budget. */
const MODEL = `HEADER    PREDICTION\n${"ATOM      1  CA  GLY A   1       1.000   2.000   3.000  1.00 70.00           C\n".repeat(400)}END\n`;

// A plugin with no resources of its own: its one tool answers a big artifact, which the runtime links.
const foldPlugin = definePlugin({
  id: "folds",
  version: "1.0.0",
  tools: [
    defineTool({
      name: "fold",
      description: "Folds a sequence; answers the model as an embedded PDB file.",
      category: "computational_service",
      input: z.object({ sequence: z.string().describe("Amino acids") }),
      output: z.object({ residues: z.number() }),
      policy: { maxOutputChars: 5_000 },
      run: ({ sequence }) =>
        outcome(
          { residues: sequence.length },
          {
            content: [
              {
                type: "resource",
                resource: { uri: "fold://model.pdb", mimeType: "chemical/x-pdb", text: MODEL },
              },
            ],
          },
        ),
    }),
  ],
});

let catalog: Catalog;
let handler: McpHttpHandler;
let http: Awaited<ReturnType<typeof listen>>;
const clients: Client[] = [];
beforeAll(async () => {
  catalog = createCatalog({ env: {} });
  catalog.register(foldPlugin);
  handler = createMcpHttpHandler(catalog, { tokens: { "tok-alice": "alice", "tok-bob": "bob" } });
  http = await listen((req, res) => void handler(req, res));
});
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => {});
});
afterAll(async () => {
  await handler.close();
  await http.close();
  await catalog.close();
});

const connect = async (principal: "alice" | "bob", era?: "2026-07-28") => {
  const client = new Client(
    { name: "links", version: "1.0.0" },
    era ? { versionNegotiation: { mode: { pin: era } } } : {},
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${http.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer tok-${principal}` } },
    }),
  );
  clients.push(client);
  return client;
};

describe.each([
  ["2025-11-25", undefined],
  ["2026-07-28", "2026-07-28" as const],
])("a result too large for the answer, over MCP (%s)", (_, era) => {
  it("answers a resource_link block that resources/read reads whole, for its owner only", async () => {
    const alice = await connect("alice", era);
    const result = await alice.callTool({ name: "fold", arguments: { sequence: "MKTAYIAKQR" } });
    const link = (result.content as Array<Record<string, unknown>>).find((b) => b.type === "resource_link");
    expect(link).toMatchObject({ name: "model.pdb", mimeType: "chemical/x-pdb", size: MODEL.length });
    expect(JSON.stringify(result)).not.toContain("ATOM");
    const read = await alice.readResource({ uri: String(link?.uri) });
    expect(read.contents).toEqual([{ uri: link?.uri, mimeType: "chemical/x-pdb", text: MODEL }]);
    const bob = await connect("bob", era);
    await expect(bob.readResource({ uri: String(link?.uri) })).rejects.toMatchObject({ code: -32602 });
  });
});
