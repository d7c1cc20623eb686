import type { Catalog, ToolResult } from "@quiver/core";
import { useCatalog } from "@quiver/testing";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { beforeEach, describe, expect, it } from "vitest";
import { aiSdkResourceReader, toAiSdkTools } from "../src/ai-sdk.js";
import { envelopeText, readResourceLink, resourceLinks } from "../src/index.js";
import { langChainResourceReader, toLangChainTools } from "../src/langchain.js";
import { FULL_REPORT, linkedPlugin } from "./fixtures/linked-plugin.js";

// A result that links to the rest of itself (`resource_link`): the adapters pass the link to the model and
// read the linked resource from the same catalog, under the same session.
const makeCatalog = useCatalog({ env: {} });
let catalog: Catalog;
beforeEach(() => {
  catalog = makeCatalog();
  catalog.register(linkedPlugin);
});
const alice = { principal: "alice" };
const LINK = {
  type: "resource_link",
  uri: "vault://reports/alice",
  name: "report",
  mimeType: "chemical/x-pdb",
  size: Buffer.byteLength(FULL_REPORT),
};

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};
const step = (toolName: string, input: unknown, id: string) => ({
  content: [{ type: "tool-call" as const, toolCallId: id, toolName, input: JSON.stringify(input) }],
  finishReason: { unified: "tool-calls" as const, raw: "tool_calls" },
  usage,
  warnings: [],
});

describe("resource links", () => {
  it("resourceLinks finds the link, envelopeText keeps it for the model, readResourceLink reads it", async () => {
    const result = await catalog.call("vault_report", {}, { session: alice });
    expect(resourceLinks(result)).toEqual([LINK]);
    expect(JSON.parse(envelopeText(result)).metadata.content).toEqual([LINK]);
    const read = await readResourceLink(catalog, resourceLinks(result)[0]!, { session: alice });
    expect(read).toEqual({
      ok: true,
      value: [{ uri: LINK.uri, mimeType: "chemical/x-pdb", text: FULL_REPORT }],
    });
  });

  it("another principal reading alice's link gets not_found and nothing of it", async () => {
    const read = await readResourceLink(catalog, LINK.uri, { session: { principal: "bob" } });
    expect(read).toMatchObject({ ok: false, kind: "not_found" });
    expect(JSON.stringify(read)).not.toContain("ATOM");
  });

  it("AI SDK: the model sees the link, calls read_resource with its URI and reads the full text", async () => {
    const model = new MockLanguageModelV4({
      doGenerate: [
        step("vault_report", {}, "call-1"),
        step("read_resource", { uri: LINK.uri }, "call-2"),
        { ...step("x", {}, "unused"), content: [{ type: "text", text: "Done." }] },
      ],
    });
    const result = await generateText({
      model,
      tools: {
        ...toAiSdkTools(catalog, { session: alice }),
        read_resource: aiSdkResourceReader(catalog, { session: alice }),
      },
      stopWhen: stepCountIs(4),
      prompt: "Read my report.",
    });
    expect(result.text).toBe("Done.");
    const seenFirst = model.doGenerateCalls[1]!.prompt.find((m) => m.role === "tool")!
      .content[0] as unknown as {
      output: { value: { metadata: { content: unknown } } };
    };
    expect(seenFirst.output.value.metadata.content).toEqual([LINK]);
    expect(result.steps[1]!.toolResults[0]!.output).toEqual({
      contents: [{ uri: LINK.uri, mimeType: "chemical/x-pdb", text: FULL_REPORT }],
    });
  });

  it("AI SDK: read_resource answers another principal an error-json, without the text", async () => {
    const reader = aiSdkResourceReader(catalog, { session: { principal: "bob" } });
    const output = await reader.execute!({ uri: LINK.uri }, { toolCallId: "c", messages: [], context: {} });
    expect(output).toMatchObject({ error: { kind: "not_found" } });
    expect(JSON.stringify(output)).not.toContain("ATOM");
  });

  it("LangChain: the tool's text carries the link, langChainResourceReader reads it for its owner only", async () => {
    const [report] = toLangChainTools(catalog, { session: alice });
    const envelope = JSON.parse((await report!.invoke({})) as string) as ToolResult;
    expect(envelope.metadata.content).toEqual([LINK]);
    const reader = langChainResourceReader(catalog, { session: alice });
    expect(reader.name).toBe("read_resource");
    expect(JSON.parse((await reader.invoke({ uri: LINK.uri })) as string)).toEqual({
      contents: [{ uri: LINK.uri, mimeType: "chemical/x-pdb", text: FULL_REPORT }],
    });
    const asBob = langChainResourceReader(catalog, { session: { principal: "bob" } });
    const refused = JSON.parse((await asBob.invoke({ uri: LINK.uri })) as string);
    expect(refused).toMatchObject({ error: { kind: "not_found" } });
  });
});
