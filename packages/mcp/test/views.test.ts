import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  EXTENSION_ID,
  RESOURCE_MIME_TYPE,
  RESOURCE_URI_META_KEY,
} from "@modelcontextprotocol/ext-apps/server";
import { type Catalog, createCatalog, definePlugin, defineTool } from "@quiver/core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createMcpHttpHandler, type McpHttpHandler } from "../src/index.js";
import { listen } from "./helpers.js";

const PAGE = "<!doctype html><title>Board</title><p>the board</p>";
let reads = 0;

// A plugin with one view: `board_show` names it, `board_plain` names none.
const boardPlugin = definePlugin({
  id: "board",
  version: "1.0.0",
  tools: [
    defineTool({
      name: "board_show",
      description: "Shows the board.",
      category: "computational_service",
      input: z.object({}),
      output: z.object({ cells: z.number() }),
      view: "board",
      run: () => ({ cells: 3 }),
    }),
    defineTool({
      name: "board_plain",
      description: "Says hello.",
      category: "computational_service",
      input: z.object({}),
      output: z.string(),
      run: () => "hello",
    }),
  ],
  views: [
    {
      name: "board",
      uri: "ui://board/board",
      title: "Board",
      description: "The board as a grid.",
      html: async () => {
        reads++;
        return PAGE;
      },
    },
  ],
});

let catalog: Catalog;
let handler: McpHttpHandler;
let http: Awaited<ReturnType<typeof listen>>;
const clients: Client[] = [];
beforeAll(async () => {
  catalog = createCatalog({ env: {} });
  catalog.register(boardPlugin);
  handler = createMcpHttpHandler(catalog, { tokens: { "tok-alice": "alice" } });
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

/** An SDK client over Streamable HTTP, rendering MCP Apps or not, in the era given (else the SDK's default). */
const connect = async (apps: boolean, era?: "2026-07-28") => {
  const client = new Client(
    { name: "views", version: "1.0.0" },
    {
      ...(era ? { versionNegotiation: { mode: { pin: era } } } : {}),
      ...(apps
        ? { capabilities: { extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } } }
        : {}),
    },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${http.url}/mcp`), {
      requestInit: { headers: { authorization: "Bearer tok-alice" } },
    }),
  );
  clients.push(client);
  return client;
};

const CSP = { connectDomains: [], resourceDomains: [], frameDomains: [] };

describe.each([
  ["2025-11-25", undefined],
  ["2026-07-28", "2026-07-28" as const],
])("MCP Apps views over MCP (%s)", (_, era) => {
  it("declares the io.modelcontextprotocol/ui extension with its HTML MIME type", async () => {
    const client = await connect(true, era);
    expect(client.getServerCapabilities()?.extensions).toMatchObject({
      [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] },
    });
  });

  it("lists each view as a ui:// resource with the MCP Apps MIME type and a CSP allowing no origin", async () => {
    const client = await connect(true, era);
    const { resources } = await client.listResources();
    expect(resources).toContainEqual({
      uri: "ui://board/board",
      name: "board",
      title: "Board",
      description: "The board as a grid.",
      mimeType: RESOURCE_MIME_TYPE,
      _meta: { ui: { csp: CSP, prefersBorder: true } },
    });
  });

  it("reads a view's HTML, loading the page once", async () => {
    const client = await connect(false, era);
    const before = reads;
    for (let i = 0; i < 2; i++) {
      const { contents } = await client.readResource({ uri: "ui://board/board" });
      expect(contents).toEqual([
        {
          uri: "ui://board/board",
          mimeType: RESOURCE_MIME_TYPE,
          text: PAGE,
          _meta: { ui: { csp: CSP, prefersBorder: true } },
        },
      ]);
    }
    expect(reads - before).toBeLessThanOrEqual(1);
    await expect(client.readResource({ uri: "ui://board/none" })).rejects.toMatchObject({ code: -32602 });
  });

  it("names the view of a tool that has one, for a client that renders MCP Apps", async () => {
    const client = await connect(true, era);
    const { tools } = await client.listTools();
    const show = tools.find((t) => t.name === "board_show");
    expect(show?._meta).toMatchObject({
      ui: { resourceUri: "ui://board/board" },
      [RESOURCE_URI_META_KEY]: "ui://board/board",
    });
    const plain = tools.find((t) => t.name === "board_plain");
    expect(plain?._meta).not.toHaveProperty("ui");
  });

  it("lists the plain tools, unchanged, to a client without MCP Apps", async () => {
    const withApps = (await (await connect(true, era)).listTools()).tools;
    const without = (await (await connect(false, era)).listTools()).tools;
    const strip = ({ _meta, ...t }: (typeof withApps)[number]) => {
      const { ui: _, [RESOURCE_URI_META_KEY]: __, ...rest } = _meta ?? {};
      return { ...t, _meta: rest };
    };
    expect(without.map((t) => t._meta?.ui)).toEqual([undefined, undefined]);
    expect(without).toEqual(withApps.map(strip));
    // The call answers as it does without views.
    const client = await connect(false, era);
    const called = await client.callTool({ name: "board_show", arguments: {} });
    expect(called.structuredContent).toMatchObject({
      status: "success",
      data: { cells: 3 },
    });
  });
});
