import Anthropic from "@anthropic-ai/sdk";
import type { Catalog } from "@quiver/core";
import { type Emulator, startEmulator, useCatalog } from "@quiver/testing";
import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  createDispatcher,
  envelopeText,
  toAnthropicTools,
  toOpenAIResponsesTools,
  toOpenAITools,
} from "../src/index.js";
import { demoPlugin, loosePlugin, partialPlugin } from "./fixtures/demo-plugin.js";

let catalog: Catalog;
let up: Emulator;
beforeAll(async () => {
  up = await startEmulator();
});
afterAll(async () => {
  await up.close();
});
const makeCatalog = useCatalog({ env: {} });
beforeEach(() => {
  up.reset();
  catalog = makeCatalog();
  catalog.register(demoPlugin);
});

const parse = (text: string) => JSON.parse(text) as Record<string, unknown>;

describe("toOpenAITools and toAnthropicTools", () => {
  it("builds OpenAI strict function tools from the catalog's openai schemas", () => {
    const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = toOpenAITools(catalog);
    expect(tools.map((t) => (t as OpenAI.Chat.Completions.ChatCompletionFunctionTool).function.name)).toEqual(
      ["demo_lookup", "demo_refuse", "demo_whoami", "demo_wait"],
    );
    const lookup = toOpenAITools(catalog)[0]!;
    expect(lookup).toEqual({
      type: "function",
      function: {
        name: "demo_lookup",
        description: catalog.describe("demo_lookup")!.description,
        parameters: catalog.schemas("openai")[0]!.parameters,
        strict: true,
      },
    });
    // Strict mode: every property required, optional ones nullable, objects closed.
    expect(lookup.function.parameters).toMatchObject({
      additionalProperties: false,
      required: ["city", "unit"],
    });
    expect(JSON.stringify(lookup.function.parameters.properties)).toContain("null");
  });

  it("sends a tool without a strict form non-strict instead of failing the whole list", () => {
    catalog.register(loosePlugin);
    const failed: string[] = [];
    const tools = toOpenAITools(catalog, { onSchemaError: (name) => failed.push(name) });
    expect(failed).toEqual(["demo_loose"]);
    const loose = tools.find((t) => t.function.name === "demo_loose")!;
    expect(loose.function.strict).toBe(false);
    expect(tools.filter((t) => t.function.strict)).toHaveLength(4);
  });

  it("builds Responses API tools and Anthropic tools", () => {
    const responses: OpenAI.Responses.FunctionTool[] = toOpenAIResponsesTools(catalog);
    expect(responses[0]).toMatchObject({ type: "function", name: "demo_lookup", strict: true });
    const anthropic: Anthropic.Tool[] = toAnthropicTools(catalog);
    expect(anthropic[0]).toEqual({
      name: "demo_lookup",
      description: catalog.describe("demo_lookup")!.description,
      input_schema: catalog.describe("demo_lookup", "anthropic")!.inputSchema,
    });
    // The injected field never reaches a model.
    expect(JSON.stringify(toAnthropicTools(catalog).find((t) => t.name === "demo_whoami"))).not.toContain(
      '"user"',
    );
  });
});

describe("createDispatcher with the OpenAI SDK (Chat Completions against a local server)", () => {
  it("runs the model's tool calls and sends the envelopes back as tool messages", async () => {
    let turn = 0;
    up.route("POST", "/v1/chat/completions", () => {
      turn++;
      return {
        json:
          turn === 1
            ? {
                id: "chatcmpl-1",
                object: "chat.completion",
                created: 1,
                model: "gpt-test",
                choices: [
                  {
                    index: 0,
                    finish_reason: "tool_calls",
                    message: {
                      role: "assistant",
                      content: null,
                      tool_calls: [
                        {
                          id: "call_a",
                          type: "function",
                          function: { name: "demo_lookup", arguments: '{"city":"Lima","unit":null}' },
                        },
                        {
                          id: "call_b",
                          type: "function",
                          function: { name: "demo_refuse", arguments: '{"topic":"taxes"}' },
                        },
                      ],
                    },
                  },
                ],
              }
            : {
                id: "chatcmpl-2",
                object: "chat.completion",
                created: 2,
                model: "gpt-test",
                choices: [
                  {
                    index: 0,
                    finish_reason: "stop",
                    message: { role: "assistant", content: "It is 21 °C in Lima." },
                  },
                ],
              },
      };
    });
    const openai = new OpenAI({ apiKey: "sk-test", baseURL: `${up.url}/v1`, maxRetries: 0 });
    const dispatcher = createDispatcher(catalog, { session: { id: "conv-1", principal: "alice" } });
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
      { role: "user", content: "Weather in Lima, and taxes?" },
    ];
    const first = await openai.chat.completions.create({
      model: "gpt-test",
      messages,
      tools: toOpenAITools(catalog),
    });
    const assistant = first.choices[0]!.message;
    messages.push(assistant);
    const toolMessages = await dispatcher.dispatchAll(assistant.tool_calls ?? []);
    messages.push(...toolMessages);
    const second = await openai.chat.completions.create({
      model: "gpt-test",
      messages,
      tools: toOpenAITools(catalog),
    });
    expect(second.choices[0]!.message.content).toBe("It is 21 °C in Lima.");

    // What the server received: the tools, then the two tool messages with the envelopes.
    const [req1, req2] = up.requestsTo("POST", "/v1/chat/completions");
    expect((req1!.json as { tools: unknown[] }).tools).toHaveLength(4);
    const sent = (
      req2!.json as { messages: Array<{ role: string; tool_call_id?: string; content: string }> }
    ).messages.filter((m) => m.role === "tool");
    expect(sent.map((m) => m.tool_call_id)).toEqual(["call_a", "call_b"]);
    expect(parse(sent[0]!.content)).toMatchObject({ status: "success", data: { city: "Lima", unit: "c" } });
    expect(parse(sent[1]!.content)).toMatchObject({
      status: "error",
      error: { kind: "out_of_domain" },
      suggestion: "Ask about the weather instead.",
    });
  });

  it("dispatch answers bad calls with an envelope the model can act on", async () => {
    const dispatcher = createDispatcher(catalog);
    const unknown = await dispatcher.dispatch({
      id: "c1",
      type: "function",
      function: { name: "demo_lookp", arguments: "{}" },
    });
    expect(unknown.role).toBe("tool");
    expect(parse(unknown.content)).toMatchObject({
      status: "error",
      error: { kind: "invalid_input" },
      suggestion: expect.stringContaining("demo_lookup"),
    });
    const badJson = await dispatcher.dispatch({
      id: "c2",
      function: { name: "demo_lookup", arguments: "{city: Lima" },
    });
    expect(parse(badJson.content)).toMatchObject({ status: "error", error: { kind: "invalid_input" } });
    await expect(dispatcher.dispatch({ nope: true } as never)).rejects.toThrow(/Not a tool call/);
  });
});

describe("createDispatcher with the OpenAI SDK (Responses API against a local server)", () => {
  it("answers function_call items with function_call_output items", async () => {
    up.route("POST", "/v1/responses", {
      json: {
        id: "resp_1",
        object: "response",
        created_at: 1,
        model: "gpt-test",
        status: "completed",
        output: [
          { type: "reasoning", id: "rs_1", summary: [] },
          {
            type: "function_call",
            id: "fc_1",
            call_id: "call_r",
            name: "demo_whoami",
            arguments: "{}",
            status: "completed",
          },
        ],
        parallel_tool_calls: true,
        tool_choice: "auto",
        tools: [],
      },
    });
    const openai = new OpenAI({ apiKey: "sk-test", baseURL: `${up.url}/v1`, maxRetries: 0 });
    const response = await openai.responses.create({
      model: "gpt-test",
      input: "who am I?",
      tools: toOpenAIResponsesTools(catalog),
    });
    const dispatcher = createDispatcher(catalog, { session: { id: "conv-r", principal: "carol" } });
    const outputs = await dispatcher.dispatchAll(response.output);
    expect(outputs).toHaveLength(1);
    expect(outputs[0]).toMatchObject({ type: "function_call_output", call_id: "call_r" });
    expect(parse(outputs[0]!.output)).toMatchObject({
      status: "success",
      data: { user: "carol", session: "conv-r" },
    });
  });
});

describe("createDispatcher with the Anthropic SDK (Messages against a local server)", () => {
  it("runs tool_use blocks and answers one user message of tool_result blocks, is_error on failures", async () => {
    let turn = 0;
    up.route("POST", "/v1/messages", () => {
      turn++;
      return {
        json: {
          id: `msg_${turn}`,
          type: "message",
          role: "assistant",
          model: "claude-test",
          stop_sequence: null,
          usage: { input_tokens: 10, output_tokens: 5 },
          ...(turn === 1
            ? {
                stop_reason: "tool_use",
                content: [
                  { type: "text", text: "Let me check." },
                  { type: "tool_use", id: "toolu_1", name: "demo_lookup", input: { city: "Cusco" } },
                  { type: "tool_use", id: "toolu_2", name: "demo_refuse", input: { topic: "law" } },
                ],
              }
            : { stop_reason: "end_turn", content: [{ type: "text", text: "21 °C in Cusco." }] }),
        },
      };
    });
    const anthropic = new Anthropic({ apiKey: "sk-ant-test", baseURL: up.url, maxRetries: 0 });
    const tools = toAnthropicTools(catalog) as Anthropic.Tool[];
    const dispatcher = createDispatcher(catalog);
    const messages: Anthropic.MessageParam[] = [{ role: "user", content: "Weather in Cusco, and law?" }];
    const first = await anthropic.messages.create({ model: "claude-test", max_tokens: 256, messages, tools });
    messages.push({ role: "assistant", content: first.content });
    const results = await dispatcher.dispatchAll(first.content);
    expect(results).toHaveLength(1);
    messages.push(...results);
    const second = await anthropic.messages.create({
      model: "claude-test",
      max_tokens: 256,
      messages,
      tools,
    });
    expect(second.content[0]).toMatchObject({ type: "text", text: "21 °C in Cusco." });

    const sent = (
      up.requestsTo("POST", "/v1/messages")[1]!.json as {
        messages: Array<{ role: string; content: unknown }>;
      }
    ).messages.at(-1)!;
    expect(sent.role).toBe("user");
    const blocks = sent.content as Array<{
      type: string;
      tool_use_id: string;
      is_error: boolean;
      content: string;
    }>;
    expect(blocks.map((b) => [b.tool_use_id, b.is_error])).toEqual([
      ["toolu_1", false],
      ["toolu_2", true],
    ]);
    expect(parse(blocks[0]!.content)).toMatchObject({ status: "success", data: { city: "Cusco" } });
    expect(parse(blocks[1]!.content)).toMatchObject({
      status: "error",
      suggestion: "Ask about the weather instead.",
    });
  });

  it("dispatch of one tool_use answers a user message with one tool_result", async () => {
    const dispatcher = createDispatcher(catalog, { session: { principal: "dave" } });
    const msg = await dispatcher.dispatch({
      type: "tool_use",
      id: "toolu_9",
      name: "demo_whoami",
      input: {},
    });
    expect(msg).toMatchObject({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "toolu_9", is_error: false }],
    });
    expect(parse(msg.content[0]!.content)).toMatchObject({ data: { user: "dave" } });
    expect(await dispatcher.dispatchAll([{ type: "text" }])).toEqual([]);
  });
});

describe("createDispatcher with a partial answer", () => {
  it("answers Anthropic with is_error false and the caveat in the content", async () => {
    catalog.register(partialPlugin);
    const msg = await createDispatcher(catalog).dispatch({
      type: "tool_use",
      id: "toolu_p",
      name: "demo_some_cities",
      input: { cities: ["Cusco", "Atlantis"] },
    });
    expect(msg).toMatchObject({
      content: [{ type: "tool_result", tool_use_id: "toolu_p", is_error: false }],
    });
    expect(parse(msg.content[0]!.content)).toMatchObject({
      status: "partial",
      message: "No weather for Atlantis; the others are here.",
      data: { known: ["Cusco"] },
    });
  });
});

describe("envelopeText", () => {
  it("keeps what the model needs and drops call bookkeeping", async () => {
    const r = await catalog.call("demo_lookup", { city: "Lima" });
    const text = parse(envelopeText(r));
    expect(text).toMatchObject({
      status: "success",
      message: expect.any(String),
      data: { city: "Lima" },
      metadata: { tool: "demo_lookup" },
    });
    expect(text.metadata).not.toHaveProperty("callId");
    expect(text.metadata).not.toHaveProperty("durationMs");
  });
});
