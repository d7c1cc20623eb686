import type { Catalog, ToolResult } from "@quiver/core";
import { useCatalog } from "@quiver/testing";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { toAiSdkTools } from "../src/ai-sdk.js";
import { demoPlugin, partialPlugin, waitState } from "./fixtures/demo-plugin.js";

const makeCatalog = useCatalog({ env: {} });
let catalog: Catalog;
beforeEach(() => {
  catalog = makeCatalog();
  catalog.register(demoPlugin);
});

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** A model that first calls `toolName` with `input`, then answers with text. */
const scriptedModel = (toolName: string, input: unknown) =>
  new MockLanguageModelV4({
    doGenerate: [
      {
        content: [{ type: "tool-call", toolCallId: "call-1", toolName, input: JSON.stringify(input) }],
        finishReason: { unified: "tool-calls", raw: "tool_calls" },
        usage,
        warnings: [],
      },
      {
        content: [{ type: "text", text: "Done." }],
        finishReason: { unified: "stop", raw: "stop" },
        usage,
        warnings: [],
      },
    ],
  });

/** The tool-result part the model received in its second call. */
const toolResultSeenByModel = (model: MockLanguageModelV4) => {
  const prompt = model.doGenerateCalls[1]?.prompt ?? [];
  const message = prompt.find((m) => m.role === "tool");
  return (
    message?.content as Array<{ type: string; output: { type: string; value: unknown } }> | undefined
  )?.[0];
};

describe("toAiSdkTools with the Vercel AI SDK", () => {
  it("builds one tool per catalog tool with the catalog's JSON Schema", async () => {
    const tools = toAiSdkTools(catalog);
    expect(Object.keys(tools)).toEqual(["demo_lookup", "demo_refuse", "demo_whoami", "demo_wait"]);
    expect(tools.demo_lookup?.description).toBe(catalog.describe("demo_lookup")!.description);
    const schema = await (tools.demo_lookup!.inputSchema as { jsonSchema: unknown }).jsonSchema;
    expect(schema).toEqual(catalog.describe("demo_lookup", "mcp")!.inputSchema);
    // The injected field is hidden from the model.
    expect(
      JSON.stringify(await (tools.demo_whoami!.inputSchema as { jsonSchema: unknown }).jsonSchema),
    ).not.toContain("user");
  });

  it("generateText: the model calls a Quiver tool, the runtime runs it, the model reads the envelope", async () => {
    const model = scriptedModel("demo_lookup", { city: "Lima" });
    const result = await generateText({
      model,
      tools: toAiSdkTools(catalog),
      stopWhen: stepCountIs(3),
      prompt: "Weather in Lima?",
    });
    expect(result.text).toBe("Done.");
    const toolResult = result.steps[0]?.toolResults[0];
    expect(toolResult?.toolName).toBe("demo_lookup");
    const envelope = toolResult?.output as ToolResult;
    expect(envelope).toMatchObject({ status: "success", data: { city: "Lima", temperature: 21, unit: "c" } });
    // What went back to the model: the envelope as JSON, with the instruction.
    const seen = toolResultSeenByModel(model);
    expect(seen?.output.type).toBe("json");
    expect(seen?.output.value).toMatchObject({
      status: "success",
      instruction: "Give the temperature in one sentence.",
    });
  });

  it("a failing tool reaches the model as an error-json result with the suggestion, not as a thrown error", async () => {
    const model = scriptedModel("demo_refuse", { topic: "taxes" });
    const result = await generateText({
      model,
      tools: toAiSdkTools(catalog),
      stopWhen: stepCountIs(3),
      prompt: "Help with taxes",
    });
    expect(result.text).toBe("Done.");
    const seen = toolResultSeenByModel(model);
    expect(seen?.output.type).toBe("error-json");
    expect(seen?.output.value).toMatchObject({
      status: "error",
      error: { kind: "out_of_domain" },
      suggestion: "Ask about the weather instead.",
    });
  });

  it("a partial answer reaches the model as json (an answer with caveats), not error-json", async () => {
    catalog.register(partialPlugin);
    const model = scriptedModel("demo_some_cities", { cities: ["Lima", "Atlantis"] });
    await generateText({ model, tools: toAiSdkTools(catalog), stopWhen: stepCountIs(3), prompt: "?" });
    const seen = toolResultSeenByModel(model);
    expect(seen?.output.type).toBe("json");
    expect(seen?.output.value).toMatchObject({
      status: "partial",
      message: "No weather for Atlantis; the others are here.",
      data: { known: ["Lima"] },
    });
  });

  it("invalid model input comes back as invalid_input the model can correct", async () => {
    const model = scriptedModel("demo_lookup", { city: "" });
    await generateText({ model, tools: toAiSdkTools(catalog), stopWhen: stepCountIs(3), prompt: "?" });
    expect(toolResultSeenByModel(model)?.output.value).toMatchObject({
      status: "error",
      error: { kind: "invalid_input" },
    });
  });

  it("passes the session: the principal fills the injected field", async () => {
    const model = scriptedModel("demo_whoami", {});
    const result = await generateText({
      model,
      tools: toAiSdkTools(catalog, { session: { id: "conv-9", principal: "alice" } }),
      stopWhen: stepCountIs(3),
      prompt: "who am I",
    });
    expect(result.steps[0]?.toolResults[0]?.output).toMatchObject({
      data: { user: "alice", session: "conv-9" },
    });
  });

  it("the AI SDK's abort signal cancels the run", async () => {
    const tools = toAiSdkTools(catalog);
    const controller = new AbortController();
    const { started, aborted } = waitState;
    const pending = tools.demo_wait!.execute!(
      { ms: 30_000 },
      { toolCallId: "c", messages: [], context: {}, abortSignal: controller.signal },
    );
    // Aborted once the run is under way (its 30 s would otherwise decide the answer).
    await vi.waitFor(() => expect(waitState.started).toBeGreaterThan(started));
    controller.abort();
    const envelope = (await pending) as ToolResult;
    expect(envelope.status).toBe("unavailable");
    await vi.waitFor(() => expect(waitState.aborted).toBeGreaterThan(aborted));
  });

  it("offers OpenAI strict schemas with target 'openai' and filters tools", async () => {
    const tools = toAiSdkTools(catalog, { target: "openai", filter: (t) => t.name === "demo_lookup" });
    expect(Object.keys(tools)).toEqual(["demo_lookup"]);
    const schema = (await (tools.demo_lookup!.inputSchema as { jsonSchema: unknown }).jsonSchema) as Record<
      string,
      unknown
    >;
    expect(schema).toMatchObject({ additionalProperties: false, required: ["city", "unit"] });
  });
});
