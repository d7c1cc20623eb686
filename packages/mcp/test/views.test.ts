import {
  EXTENSION_ID,
  RESOURCE_MIME_TYPE,
  RESOURCE_URI_META_KEY,
} from "@modelcontextprotocol/ext-apps/server";
import { definePlugin, defineTool } from "@quiver/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { useServedPlugin } from "./served-plugin.js";

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

const served = useServedPlugin(boardPlugin);
/** An SDK client over Streamable HTTP, rendering MCP Apps or not, in the era given (else the SDK's default). */
const connect = (apps: boolean, era?: "2026-07-28") => served.connect({ apps, era });

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
