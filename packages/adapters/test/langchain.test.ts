import { ToolMessage } from "@langchain/core/messages";
import type { Catalog, ToolResult } from "@quiver/core";
import { useCatalog } from "@quiver/testing";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { toLangChainTools } from "../src/langchain.js";
import { demoPlugin, waitState } from "./fixtures/demo-plugin.js";

const makeCatalog = useCatalog({ env: {} });
let catalog: Catalog;
beforeEach(() => {
  catalog = makeCatalog();
  catalog.register(demoPlugin);
});

const byName = (tools: ReturnType<typeof toLangChainTools>, name: string) =>
  tools.find((t) => t.name === name)!;

describe("toLangChainTools with @langchain/core", () => {
  it("builds structured tools with the catalog's names, descriptions and JSON Schemas", () => {
    const tools = toLangChainTools(catalog);
    expect(tools.map((t) => t.name)).toEqual(["demo_lookup", "demo_refuse", "demo_whoami", "demo_wait"]);
    const lookup = byName(tools, "demo_lookup");
    expect(lookup.description).toBe(catalog.describe("demo_lookup")!.description);
    expect(lookup.schema).toEqual(catalog.describe("demo_lookup", "mcp")!.inputSchema);
  });

  it("tool.invoke runs the tool through the runtime and returns the envelope as JSON text", async () => {
    const out = await byName(toLangChainTools(catalog), "demo_lookup").invoke({ city: "Quito", unit: "f" });
    expect(typeof out).toBe("string");
    expect(JSON.parse(out as string)).toMatchObject({
      status: "success",
      data: { city: "Quito", temperature: 70, unit: "f" },
      instruction: "Give the temperature in one sentence.",
    });
  });

  it("invoked with a model's tool call, it answers a ToolMessage; content_and_artifact carries the envelope", async () => {
    const tool = byName(toLangChainTools(catalog, { responseFormat: "content_and_artifact" }), "demo_lookup");
    const message = await tool.invoke({
      type: "tool_call",
      id: "call-7",
      name: "demo_lookup",
      args: { city: "Bogotá" },
    });
    expect(message).toBeInstanceOf(ToolMessage);
    const tm = message as ToolMessage;
    expect(tm.tool_call_id).toBe("call-7");
    expect(JSON.parse(tm.content as string)).toMatchObject({ status: "success", data: { city: "Bogotá" } });
    expect((tm.artifact as ToolResult).metadata).toMatchObject({ tool: "demo_lookup", plugin: "demo" });
  });

  it("a failing tool answers its error envelope instead of throwing", async () => {
    const out = await byName(toLangChainTools(catalog), "demo_refuse").invoke({ topic: "taxes" });
    expect(JSON.parse(out as string)).toMatchObject({
      status: "error",
      error: { kind: "out_of_domain" },
      suggestion: "Ask about the weather instead.",
    });
  });

  it("passes the session, so the principal fills the injected field", async () => {
    const out = await byName(
      toLangChainTools(catalog, { session: { id: "s-1", principal: "bob" } }),
      "demo_whoami",
    ).invoke({});
    expect(JSON.parse(out as string)).toMatchObject({ data: { user: "bob", session: "s-1" } });
  });

  it("the run's abort signal cancels the call", async () => {
    const controller = new AbortController();
    const { started, aborted } = waitState;
    const pending = byName(toLangChainTools(catalog), "demo_wait")
      .invoke({ ms: 30_000 }, { signal: controller.signal })
      .then(
        (v) => String(v),
        (e: unknown) => String(e),
      );
    // Aborted once the run is under way (its 30 s would otherwise decide the answer).
    await vi.waitFor(() => expect(waitState.started).toBeGreaterThan(started));
    controller.abort();
    expect(await pending).toMatch(/abort|unavailable/i);
    await vi.waitFor(() => expect(waitState.aborted).toBeGreaterThan(aborted));
  });

  it("input that breaks the schema is refused by LangChain before the catalog runs", async () => {
    await expect(
      byName(toLangChainTools(catalog), "demo_lookup").invoke({ nope: 1 } as never),
    ).rejects.toThrow(/schema/i);
  });
});
