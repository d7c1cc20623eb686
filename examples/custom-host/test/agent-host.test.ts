import { type Emulator, loadJson, startEmulator } from "@quiver/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatModel, createAgentHost, type Message } from "../src/agent-host.ts";

let up: Emulator;
beforeAll(async () => {
  up = await startEmulator();
  up.route("GET", "/drug/drugsfda.json", {
    json: loadJson(new URL("./fixtures/drugsfda_tirzepatide_limit1.json", import.meta.url)),
  });
  // An OpenAI-compatible model on the emulator: it asks for a tool, then answers from the tool's result.
  up.route("POST", "/v1/chat/completions", (req) => {
    const messages = (req.json as { messages: Message[] }).messages;
    const tool = messages.find((m) => m.role === "tool");
    const message: Message = tool
      ? { role: "assistant", content: `From openFDA: ${JSON.parse(tool.content ?? "{}").message}` }
      : {
          role: "assistant",
          content: null,
          tool_calls: [
            {
              id: "call_1",
              type: "function",
              function: {
                name: "fda_search_drugs",
                arguments: JSON.stringify({ search_criteria: { active_ingredient: "tirzepatide" } }),
              },
            },
          ],
        };
    return { json: { choices: [{ message }] } };
  });
});
afterAll(() => up?.close());

describe("examples/custom-host", () => {
  it("hands the catalog's tools to the model and runs its tool calls through the runtime", async () => {
    const host = createAgentHost({
      model: chatModel({ baseUrl: `${up.url}/v1`, model: "test" }),
      fdaBaseUrl: up.url,
    });
    try {
      expect(host.tools.map((t) => t.function.name)).toEqual(
        expect.arrayContaining(["fda_search_drugs", "fda_count_drugs"]),
      );
      // The guia tool, whichever name its version gives it.
      expect(host.tools.some((t) => t.function.name.includes("guia"))).toBe(true);
      const { answer, messages } = await host.ask("Which FDA-approved drugs contain tirzepatide?");
      const toolMessage = messages.find((m) => m.role === "tool")!;
      const envelope = JSON.parse(toolMessage.content ?? "{}");
      expect(envelope.status).toMatch(/success|partial/);
      expect(answer).toMatch(/^From openFDA: /);
      const sent = up.requests.find((r) => r.path === "/v1/chat/completions")!.json as {
        tools: { function: { name: string } }[];
      };
      expect(sent.tools.length).toBe(3);
      expect(
        up.requests.some(
          (r) => r.path === "/drug/drugsfda.json" && r.query.get("search")?.includes("tirzepatide"),
        ),
      ).toBe(true);
    } finally {
      await host.close();
    }
  });
});
