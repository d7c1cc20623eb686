import { createMCPClient, type MCPClient } from "@ai-sdk/mcp";
import { type AnyPlugin, createCatalog, definePlugin, defineTool } from "@quiver/core";
import { detectToolDrift, fingerprintTools } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { type CatalogMcpServerOptions, createMcpHttpHandler } from "../src/index.js";
import { TOOL_DIGEST_META_KEY } from "../src/internal/tool-digest.js";
import { echoText, testPlugin } from "./fixtures/test-plugin.js";
import { listen } from "./helpers.js";

// Each listed tool's `_meta` digest, tested with the AI SDK itself: its MCP client (@ai-sdk/mcp)
// over a real Streamable HTTP server, its fingerprintTools and detectToolDrift.
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** Serves one plugin over Streamable HTTP; resolves with an AI SDK MCP client connected to it. */
const serve = async (plugin: AnyPlugin, options: CatalogMcpServerOptions = {}): Promise<MCPClient> => {
  const catalog = createCatalog({ env: {} });
  catalog.register(plugin);
  const handler = createMcpHttpHandler(catalog, options);
  const http = await listen((req, res) => void handler(req, res));
  const client = await createMCPClient({ transport: { type: "http", url: `${http.url}/mcp` } });
  closers.push(
    () => catalog.close(),
    () => http.close(),
    () => handler.close(),
    () => client.close(),
  );
  return client;
};

/** The digests a server publishes: each tool's `_meta` entry, by tool name. */
const published = (tools: Awaited<ReturnType<MCPClient["tools"]>>) =>
  Object.fromEntries(
    Object.entries(tools).map(([name, t]) => [
      name,
      (t._meta as Record<string, unknown>)[TOOL_DIGEST_META_KEY],
    ]),
  ) as Record<string, string>;

describe("a tool's digest in tools/list _meta", () => {
  it("is what the AI SDK's fingerprintTools gives for the tool its MCP client makes of it", async () => {
    const tools = await (await serve(testPlugin)).tools();
    const digests = published(tools);
    expect(Object.keys(digests).sort()).toEqual(testPlugin.tools.map((t) => t.name).sort());
    for (const d of Object.values(digests)) expect(d).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await fingerprintTools(tools)).toEqual(digests);
  });

  it("detectToolDrift against the published digests: none for the same tools, the tool whose description changed", async () => {
    const baseline = published(await (await serve(testPlugin)).tools());
    const again = await (await serve(testPlugin)).tools();
    expect(detectToolDrift(await fingerprintTools(again), baseline)).toEqual({
      added: [],
      removed: [],
      changed: [],
    });
    const changed = definePlugin({
      ...testPlugin,
      tools: testPlugin.tools.map((t) =>
        t.name === echoText.name ? { ...t, description: "Echoes the text back, and sends it elsewhere." } : t,
      ),
    });
    const drifted = await (await serve(changed)).tools();
    expect(detectToolDrift(await fingerprintTools(drifted), baseline)).toEqual({
      added: [],
      removed: [],
      changed: [echoText.name],
    });
  });

  it("is of the tool as served: under an alias set, the alias's name, schema and text", async () => {
    const find = defineTool({
      name: "books_find_book_id",
      description: "The id of a book by its title.",
      category: "search",
      input: z.object({ book_title: z.string().min(1).describe("The title, e.g. Dune") }),
      output: z.object({ book_id: z.string() }),
      annotations: { readOnly: true },
      run: ({ book_title }) => ({ book_id: `/books/${book_title}` }),
    });
    const books = definePlugin({
      specificationVersion: "v1",
      id: "books",
      version: "1.0.0",
      tools: [find],
      aliasSets: [
        {
          name: "official",
          tools: [{ alias: "find-book", tool: find.name, parameters: { bookTitle: "book_title" } }],
        },
      ],
    });
    const plain = published(await (await serve(books)).tools());
    const aliased = await (await serve(books, { aliasSets: ["official"] })).tools();
    expect(Object.keys(aliased)).toEqual(["find-book"]);
    expect(await fingerprintTools(aliased)).toEqual(published(aliased));
    expect(published(aliased)["find-book"]).not.toBe(plain[find.name]);
  });
});
