import { isToolVisibilityAppOnly } from "@modelcontextprotocol/ext-apps/app-bridge";
import { definePlugin, defineTool } from "@quiver/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { useServedPlugin } from "./served-plugin.js";

// A fixture plugin with a view-only tool: `counter_show` (for the model, shown in the view) and
// `counter_step` (visibility ["app"]: only the view calls it, to step the count it shows).
let count = 0;
const counterPlugin = definePlugin({
  id: "counter",
  version: "1.0.0",
  tools: [
    defineTool({
      name: "counter_show",
      description: "Shows the counter.",
      category: "computational_service",
      input: z.object({}),
      output: z.object({ count: z.number() }),
      view: "counter",
      run: () => ({ count }),
    }),
    defineTool({
      name: "counter_step",
      description: "Steps the counter (the view's button).",
      category: "computational_service",
      input: z.object({ by: z.number().int() }),
      output: z.object({ count: z.number() }),
      visibility: ["app"],
      run: ({ by }) => {
        count += by;
        return { count };
      },
    }),
  ],
  views: [
    { name: "counter", uri: "ui://counter/counter", html: () => "<!doctype html><title>Counter</title>" },
  ],
});

const served = useServedPlugin(counterPlugin);
/** An SDK client over Streamable HTTP, rendering MCP Apps or not, in the era given (else the SDK's default). */
const connect = (apps: boolean, era?: "2026-07-28") => served.connect({ apps, era });

describe.each([
  ["2025-11-25", undefined],
  ["2026-07-28", "2026-07-28" as const],
])("view-only tools (MCP Apps visibility) over MCP (%s)", (_, era) => {
  it("are left out of tools/list for a client without apps, whose model would be shown them", async () => {
    const client = await connect(false, era);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["counter_show"]);
  });

  it("are listed with _meta.ui.visibility ['app'] for a client that renders views (its host hides them from the model)", async () => {
    const client = await connect(true, era);
    const { tools } = await client.listTools();
    const step = tools.find((t) => t.name === "counter_step");
    expect(step?._meta?.ui).toEqual({ visibility: ["app"] });
    // The extension's own reading of the metadata: the host keeps it from the model's tool list.
    expect(isToolVisibilityAppOnly(step!)).toBe(true);
    const show = tools.find((t) => t.name === "counter_show")!;
    expect(isToolVisibilityAppOnly(show)).toBe(false);
    expect(show._meta?.ui).toEqual({ resourceUri: "ui://counter/counter" });
    // What the model is given, as a host filters the list by the extension's rule.
    expect(tools.filter((t) => !isToolVisibilityAppOnly(t)).map((t) => t.name)).toEqual(["counter_show"]);
  });

  it("stay callable by name, as the view calls them through the host", async () => {
    for (const apps of [true, false]) {
      const client = await connect(apps, era);
      const before = count;
      const called = await client.callTool({ name: "counter_step", arguments: { by: 2 } });
      expect(called.structuredContent).toMatchObject({ status: "success", data: { count: before + 2 } });
    }
  });
});
