import { type Catalog, type CatalogOptions, definePlugin, defineTool } from "@quiver/core";
import {
  closedUrl,
  describeFaultMatrix,
  describePluginConformance,
  describePluginPackage,
  type FaultExpectation,
  makeTestClock,
  startEmulator,
  useCatalog,
  usePluginOnEmulator,
} from "@quiver/testing";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { testgenConfigSchema } from "../src/config.js";
import testgenDefault, { createTestgenPlugin, type GenerateTestOutput } from "../src/index.js";
import {
  completion,
  jsonSchemaRejected,
  MATERIAL,
  mcQuestions,
  openQuestions,
  refusal,
} from "./llm-fixtures.js";
import { routeOpenAiChat, unsupportedTemperature } from "./openai-chat-emulator.js";

const CHAT = "/v1/chat/completions";
const { up, catalog: onEmulator } = usePluginOnEmulator({
  plugin: createTestgenPlugin,
  start: startEmulator,
  options: (up) => ({ llmBaseUrl: `${up.url}/v1`, llmModel: "test-model" }),
  catalog: { env: {} },
});
afterEach(() => up.reset());
const makeCatalog = useCatalog({ env: {} });

describePluginPackage(new URL("..", import.meta.url));
describePluginConformance(testgenDefault, {
  options: () => {
    up.route("POST", CHAT, (req) => {
      const n = /Write (\d+)/.exec(JSON.stringify(req.json))?.[1] ?? "3";
      return { json: completion(openQuestions(Number(n))) };
    });
    return { llmBaseUrl: `${up.url}/v1`, llmModel: "test-model" };
  },
  downOptions: async () => ({ llmBaseUrl: `${await closedUrl()}/v1`, llmModel: "test-model" }),
});

const open = (
  options: Record<string, unknown> = {},
  extra?: (c: Catalog) => void,
  catalogOptions: CatalogOptions = {},
) => {
  const catalog = onEmulator(options, catalogOptions);
  extra?.(catalog);
  return catalog;
};
const data = (r: { data?: unknown }) => r.data as GenerateTestOutput;
/** The data with the count and difficulty its questions carry (the data does not repeat them). */
const made = (r: { data?: unknown }) => {
  const { questions } = data(r);
  return { ...data(r), num_questions: questions.length, difficulty: questions[0]?.difficulty };
};
const chatBodies = () => up.requestsTo("POST", CHAT).map((r) => r.json as Record<string, any>);

describe("testgen_generate_test with an OpenAI-compatible LLM", () => {
  it("asks for json_schema (strict) with the model, a Bearer key and the material; returns the validated questions", async () => {
    up.route("POST", CHAT, { json: completion(openQuestions(3)) });
    const r = await open({ llmApiKey: "sk-test-123456789" }).call("testgen_generate_test", {
      topic: "metaheurísticas",
      num_questions: 3,
      context: MATERIAL,
    });
    expect(r.status, r.message).toBe("success");
    expect(made(r)).toMatchObject({
      generated_by: "llm",
      grounding: "context",
      num_questions: 3,
      difficulty: "medium",
    });
    expect(data(r).questions[0]).toMatchObject({
      question: "¿Pregunta 1 sobre metaheurísticas?",
      type: "open",
      correct_answer: "Respuesta modelo 1",
    });
    const [sent] = up.requestsTo("POST", CHAT);
    expect(sent?.headers.authorization).toBe("Bearer sk-test-123456789");
    const body = sent?.json as Record<string, any>;
    expect(body.model).toBe("test-model");
    expect(body.response_format).toMatchObject({
      type: "json_schema",
      json_schema: { name: "review_questions", strict: true },
    });
    expect(body.response_format.json_schema.schema.properties.questions.items.required).toContain(
      "correct_index",
    );
    expect(body.messages[1].content).toContain("Los algoritmos genéticos mantienen una población");
    expect(body.messages[1].content).toContain("Write 3 medium open-answer questions");
    expect(r.message).toContain("gpt-4o-2024-08-06 via json_schema");
  });

  it("multiple choice: options, the correct answer and an explanation", async () => {
    up.route("POST", CHAT, { json: completion(mcQuestions(2)) });
    const r = await open().call("testgen_generate_test", {
      topic: "metaheurísticas",
      num_questions: 2,
      question_type: "multiple_choice",
      context: MATERIAL,
    });
    expect(r.status, r.message).toBe("success");
    expect(data(r).questions[0]).toMatchObject({
      type: "multiple_choice",
      options: ["Búsqueda local", "Enfriamiento simulado", "Algoritmo genético", "Búsqueda tabú"],
      correct_index: 2,
      correct_answer: "Algoritmo genético",
      explanation: expect.stringContaining("población"),
    });
    expect(chatBodies()[0]!.messages[1].content).toContain("exactly 4 options");
  });

  it("falls back to json_object when the server rejects json_schema (400 about response_format), and remembers it", async () => {
    up.route("POST", CHAT, (req) =>
      (req.json as any).response_format.type === "json_schema"
        ? { status: 400, json: jsonSchemaRejected }
        : { json: completion(openQuestions(2)) },
    );
    const c = open({ llmBaseUrl: `${up.url}/v1/` });
    const r = await c.call("testgen_generate_test", { topic: "metaheurísticas", num_questions: 2 });
    expect(r.status, r.message).toBe("success");
    expect(chatBodies().map((b) => b.response_format.type)).toEqual(["json_schema", "json_object"]);
    expect(chatBodies()[1]!.messages[1].content).toContain("JSON");
    expect(r.message).toContain("via json_object");
    await c.call("testgen_generate_test", { topic: "búsqueda local", num_questions: 2 });
    expect(chatBodies().map((b) => b.response_format.type)).toEqual([
      "json_schema",
      "json_object",
      "json_object",
    ]);
    // What it remembers belongs to the registration: a new catalog tries json_schema again.
    await open({ llmBaseUrl: `${up.url}/v1/` }).call("testgen_generate_test", { topic: "búsqueda tabú" });
    expect(
      chatBodies()
        .map((b) => b.response_format.type)
        .slice(3),
    ).toEqual(["json_schema", "json_object"]);
  });

  it("LLM_RESPONSE_FORMAT=json_object sends json_object from the start", async () => {
    up.route("POST", CHAT, { json: completion(openQuestions(1)) });
    const r = await open({ responseFormat: "json_object" }).call("testgen_generate_test", {
      topic: "tabu search",
      num_questions: 1,
    });
    expect(r.status).toBe("success");
    expect(chatBodies()[0]!.response_format).toEqual({ type: "json_object" });
  });

  it("a 400 that is not about response_format is an LLM failure: partial, built without the LLM", async () => {
    up.route("POST", CHAT, {
      status: 400,
      json: {
        error: { message: "model 'x' not found", type: "invalid_request_error", param: null, code: null },
      },
    });
    const r = await open().call("testgen_generate_test", {
      topic: "metaheurísticas",
      num_questions: 2,
      context: MATERIAL,
    });
    expect(r.status).toBe("partial");
    expect(r.message).toContain("The LLM failed");
    expect(r.message).toContain("model 'x' not found");
    expect(chatBodies()).toHaveLength(1);
    expect(data(r).generated_by).toBe("rules");
  });

  it("malformed JSON gets one repair round that shows the model its reply and the parse error", async () => {
    let n = 0;
    up.route("POST", CHAT, () => ({
      json: n++ === 0 ? completion('{"questions": [{"question": "¿Qué es') : completion(openQuestions(2)),
    }));
    const r = await open().call("testgen_generate_test", { topic: "metaheurísticas", num_questions: 2 });
    expect(r.status, r.message).toBe("success");
    expect(r.message).toContain("after one repair round");
    const repair = chatBodies()[1]!.messages;
    expect(repair).toHaveLength(4);
    expect(repair[2]).toEqual({ role: "assistant", content: '{"questions": [{"question": "¿Qué es' });
    expect(repair[3].content).toContain("not valid JSON");
  });

  it("still malformed after the repair round: partial, built without the LLM, saying so", async () => {
    up.route("POST", CHAT, { json: completion("Claro, aquí tienes: {questions: [oops") });
    const r = await open().call("testgen_generate_test", {
      topic: "metaheurísticas",
      num_questions: 3,
      context: MATERIAL,
    });
    expect(r.status).toBe("partial");
    expect(r.message).toMatch(
      /The LLM failed \(the model's reply was unusable after one repair round: it is not valid JSON/,
    );
    expect(r.message).toContain("built without an LLM");
    expect(chatBodies()).toHaveLength(2);
    expect(data(r).questions).toHaveLength(3);
  });

  it("valid JSON that breaks the schema (a correct_index out of range) is repaired too", async () => {
    let n = 0;
    const broken = mcQuestions(2, 7).replaceAll('"answer":"Algoritmo genético"', '"answer":"Otro"');
    up.route("POST", CHAT, () => ({ json: completion(n++ === 0 ? broken : mcQuestions(2, 1)) }));
    const r = await open().call("testgen_generate_test", {
      topic: "x y",
      num_questions: 2,
      question_type: "multiple_choice",
    });
    expect(r.status, r.message).toBe("success");
    expect(chatBodies()[1]!.messages[3].content).toContain("correct_index must be an index");
    expect(data(r).questions[0]!.correct_answer).toBe("Enfriamiento simulado");
  });

  it("a correct_index out of range is recovered from the answer text when it names an option", async () => {
    up.route("POST", CHAT, { json: completion(mcQuestions(1, 9)) });
    const r = await open().call("testgen_generate_test", {
      topic: "x y",
      num_questions: 1,
      question_type: "multiple_choice",
    });
    expect(data(r).questions[0]).toMatchObject({ correct_index: 2, correct_answer: "Algoritmo genético" });
    expect(chatBodies()).toHaveLength(1);
  });

  it("a reply cut off by the token limit (finish_reason length) is repaired, asking for shorter fields", async () => {
    let n = 0;
    up.route("POST", CHAT, () => ({
      json:
        n++ === 0 ? completion('{"questions": [', { finish_reason: "length" }) : completion(openQuestions(1)),
    }));
    const r = await open().call("testgen_generate_test", { topic: "metaheurísticas", num_questions: 1 });
    expect(r.status).toBe("success");
    expect(chatBodies()[1]!.messages[3].content).toContain("cut off");
    expect(chatBodies()[1]!.messages[3].content).toContain("keeping each field short");
  });

  it("code fences, a bare array and the original's question_text field are accepted without repair", async () => {
    const fenced =
      "```json\n" +
      JSON.stringify([{ question_text: "¿Qué es la búsqueda tabú?", difficulty: "hard" }]) +
      "\n```";
    up.route("POST", CHAT, { json: completion(fenced) });
    const r = await open().call("testgen_generate_test", { topic: "búsqueda tabú", num_questions: 1 });
    expect(r.status, r.message).toBe("success");
    expect(data(r).questions[0]).toMatchObject({ question: "¿Qué es la búsqueda tabú?", difficulty: "hard" });
    expect(chatBodies()).toHaveLength(1);
  });

  it("the recorded tool-call shape (content null, arguments as a JSON string) is read", async () => {
    up.route("POST", CHAT, {
      json: completion(null, {
        finish_reason: "tool_calls",
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "quiz", arguments: openQuestions(1) } },
        ],
      }),
    });
    const r = await open().call("testgen_generate_test", { topic: "metaheurísticas", num_questions: 1 });
    expect(r.status, r.message).toBe("success");
  });

  it("the recorded refusal: partial, built without the LLM, naming the refusal", async () => {
    up.route("POST", CHAT, { json: refusal });
    const r = await open().call("testgen_generate_test", {
      topic: "metaheurísticas",
      num_questions: 2,
      context: MATERIAL,
    });
    expect(r.status).toBe("partial");
    expect(r.message).toContain("the model refused: I'm very sorry");
  });

  it("fewer questions than asked: partial, topped up without the LLM", async () => {
    up.route("POST", CHAT, { json: completion(openQuestions(2)) });
    const r = await open().call("testgen_generate_test", {
      topic: "metaheurísticas",
      num_questions: 4,
      context: MATERIAL,
    });
    expect(r.status).toBe("partial");
    expect(r.message).toContain("The LLM returned 2 of 4");
    expect(data(r).questions).toHaveLength(4);
  });

  it("more questions than asked are cut to num_questions", async () => {
    up.route("POST", CHAT, { json: completion(openQuestions(7)) });
    const r = await open().call("testgen_generate_test", { topic: "metaheurísticas", num_questions: 3 });
    expect(data(r).questions).toHaveLength(3);
  });

  it("a rejected key (401) falls back, and the key never appears in the envelope", async () => {
    up.route("POST", CHAT, {
      status: 401,
      json: {
        error: {
          message: "Incorrect API key provided: sk-secret-abcdef123",
          type: "invalid_request_error",
          param: null,
          code: "invalid_api_key",
        },
      },
    });
    const r = await open({ llmApiKey: "sk-secret-abcdef123" }).call("testgen_generate_test", {
      topic: "metaheurísticas",
      num_questions: 2,
    });
    expect(r.status).toBe("partial");
    expect(JSON.stringify(r)).not.toContain("sk-secret-abcdef123");
  });
});

// Issue 25 item 8: OpenAI's reasoning models refuse any temperature but their default.
describe("reasoning models (o-series, GPT-5) and the temperature", () => {
  const reply = () => ({ json: completion(openQuestions(2)) });
  const ask = (c: Catalog) => c.call("testgen_generate_test", { topic: "metaheurísticas", num_questions: 2 });

  it("sends no temperature unless configured, so gpt-5-mini answers the first request", async () => {
    routeOpenAiChat(up, CHAT, reply);
    const r = await ask(open({ llmModel: "gpt-5-mini" }));
    expect(r.status, r.message).toBe("success");
    expect(data(r).generated_by).toBe("llm");
    expect(chatBodies()).toHaveLength(1);
    expect(chatBodies()[0]).not.toHaveProperty("temperature");
  });

  it("a configured temperature the model refuses (OpenAI's 400 unsupported_value): one retry without it, remembered for the endpoint", async () => {
    routeOpenAiChat(up, CHAT, reply);
    const c = open({ llmModel: "o3-mini", llmTemperature: 0.4 });
    const r = await ask(c);
    expect(r.status, r.message).toBe("success");
    expect(data(r).generated_by).toBe("llm");
    expect(chatBodies().map((b) => b.temperature)).toEqual([0.4, undefined]);
    await ask(c);
    expect(chatBodies().map((b) => b.temperature)).toEqual([0.4, undefined, undefined]);
  });

  it("LLM_TEMPERATURE is sent to a model that accepts it", async () => {
    routeOpenAiChat(up, CHAT, reply);
    const c = makeCatalog({ env: { LLM_TEMPERATURE: "0.7" } });
    c.register(createTestgenPlugin(), { llmBaseUrl: `${up.url}/v1`, llmModel: "gpt-4o-mini" });
    const r = await ask(c);
    expect(r.status, r.message).toBe("success");
    expect(chatBodies().map((b) => b.temperature)).toEqual([0.7]);
  });

  it("a 400 naming a parameter testgen did not send is not retried: partial, naming the LLM's message", async () => {
    up.route("POST", CHAT, {
      status: 400,
      json: {
        error: { ...unsupportedTemperature.error, param: "top_p", message: "Unsupported parameter: 'top_p'" },
      },
    });
    const r = await ask(open({ llmModel: "o3-mini" }));
    expect(r.status).toBe("partial");
    expect(r.message).toContain("Unsupported parameter: 'top_p'");
    expect(chatBodies()).toHaveLength(1);
  });
});

describe("every fault kind on the LLM path ends in a usable envelope", () => {
  const call = (options: Record<string, unknown> = {}, clock?: CatalogOptions["clock"]) =>
    open(options, undefined, clock ? { clock } : {}).call("testgen_generate_test", {
      topic: "metaheurísticas",
      num_questions: 2,
      context: MATERIAL,
    });
  /** The call on a test clock, and how long it took by that clock: the LLM retries wait on it, not on real time. */
  const callOnClock = async (options: Record<string, unknown> = {}) => {
    const time = await makeTestClock();
    const started = time.now();
    const r = await time.advanceUntil(call(options, time.clock), 50);
    return { r, took: time.now() - started };
  };
  const fellBack = (r: Awaited<ReturnType<typeof call>>, text: RegExp) => {
    expect(r.status, r.message).toBe("partial");
    expect(data(r).generated_by).toBe("rules");
    expect(data(r).questions).toHaveLength(2);
    expect(r.message).toMatch(text);
  };
  beforeAll(() => undefined);

  describe("the matrix on the chat completions request", () => {
    beforeEach(() => {
      up.route("POST", CHAT, { json: completion(openQuestions(2)) });
    });
    /** Whatever the fault, the student gets questions: the LLM's, or built by rules with the reason. */
    const byRules = (text: RegExp): FaultExpectation => ({
      status: "partial",
      message: text,
      check: (r) => {
        expect(data(r).generated_by).toBe("rules");
        expect(data(r).questions).toHaveLength(2);
      },
    });
    describeFaultMatrix({
      emulator: () => up,
      plugin: createTestgenPlugin,
      // The LLM's own deadline (LLM_TIMEOUT_MS) ends a hang or a trickling body; no retries.
      settings: () => ({
        llmBaseUrl: `${up.url}/v1`,
        llmModel: "test-model",
        llmTimeoutMs: 400,
        llmRetries: 0,
      }),
      policy: { timeout: "10s" },
      calls: [
        {
          method: "POST",
          path: CHAT,
          tool: "testgen_generate_test",
          input: { topic: "metaheurísticas", num_questions: 2, context: MATERIAL },
        },
      ],
      faults: {
        delay: { kind: "delay", ms: 200 },
        slowBody: { kind: "slowBody", chunkBytes: 4, intervalMs: 100 },
        htmlError: { kind: "htmlError", status: 502 },
        oversized: { kind: "oversized", bytes: 8 * 1024 * 1024 },
      },
      expect: {
        delay: { status: "success" },
        hang: byRules(/The LLM failed \(the LLM request failed/),
        slowBody: byRules(/LLM request failed/),
        reset: byRules(/LLM request failed/),
        status: byRules(/503/),
        invalidJson: byRules(/LLM request failed/),
        htmlError: byRules(/LLM request failed/),
        oversized: byRules(/LLM request failed/),
        wrongContentType: { status: "success", check: (r) => expect(data(r).questions).toHaveLength(2) },
      },
    });
  });

  it("delay beyond LLM_TIMEOUT_MS: partial with a timeout message, the deadline on the catalog's clock", async () => {
    up.route("POST", CHAT, { json: completion(openQuestions(2)) });
    up.fault("POST", CHAT, { kind: "delay", ms: 120_000 });
    const realStart = performance.now();
    const { r, took } = await callOnClock({ llmTimeoutMs: 30_000, llmRetries: 0 });
    fellBack(r, /did not complete .* within 30000 ms/);
    expect(took).toBeGreaterThanOrEqual(30_000);
    // The 30 s deadline passed on the test clock; a real timer would have held the test for 30 s.
    expect(performance.now() - realStart).toBeLessThan(10_000);
  });
  it("reset mid-body: partial", async () => {
    up.route("POST", CHAT, { json: completion(openQuestions(2)) });
    up.fault("POST", CHAT, { kind: "reset", phase: "midBody" });
    fellBack(await call(), /LLM request failed/);
  });
  it("connection refused: partial", async () => {
    fellBack(await call({ llmBaseUrl: `${await closedUrl()}/v1` }), /LLM request failed/);
  });
  it.each([429, 500, 502, 503])("status %i that persists: partial after the retries", async (status) => {
    up.fault("POST", CHAT, { kind: "status", status });
    const { r, took } = await callOnClock({ llmRetries: 1 });
    fellBack(r, new RegExp(`${status}`));
    expect(up.requestsTo("POST", CHAT)).toHaveLength(2);
    expect(took).toBeGreaterThanOrEqual(250); // the backoff's first wait
  });
  it("a 429 with Retry-After: 10 is retried after it on the catalog's clock, inside the budget, and the LLM answers", async () => {
    up.route("POST", CHAT, { json: completion(openQuestions(2)) });
    up.fault("POST", CHAT, { kind: "status", status: 429, retryAfter: 10 }, { times: 1 });
    const realStart = performance.now();
    const { r, took } = await callOnClock();
    expect(r.status, r.message).toBe("success");
    expect(data(r).generated_by).toBe("llm");
    expect(up.requestsTo("POST", CHAT)).toHaveLength(2);
    expect(took).toBeGreaterThanOrEqual(10_000);
    // The wait is the test clock's, not a real timer's.
    expect(performance.now() - realStart).toBeLessThan(10_000);
  });
  it("a 503 twice, then an answer: the third request succeeds", async () => {
    up.route("POST", CHAT, { json: completion(openQuestions(2)) });
    up.fault("POST", CHAT, { kind: "status", status: 503 }, { times: 2 });
    const { r, took } = await callOnClock();
    expect(r.status, r.message).toBe("success");
    expect(up.requestsTo("POST", CHAT)).toHaveLength(3);
    expect(took).toBeGreaterThanOrEqual(250 + 500); // backoff: 0.25 s, then doubling
  });
  it("a Retry-After that does not fit in LLM_TIMEOUT_MS: falls back at once", async () => {
    up.route("POST", CHAT, { json: completion(openQuestions(2)) });
    up.fault("POST", CHAT, { kind: "status", status: 429, retryAfter: 120 }, { times: 1 });
    fellBack(await call({ llmTimeoutMs: 5_000 }), /retry after 120 s/);
    expect(up.requestsTo("POST", CHAT)).toHaveLength(1);
  });
  it("a 200 in an unexpected shape (no choices): partial", async () => {
    up.route("POST", CHAT, { json: { result: "ok" } });
    fellBack(await call(), /unexpected shape/);
  });
});

describe("without an LLM", () => {
  const noLlm = () => {
    const catalog = makeCatalog();
    catalog.register(createTestgenPlugin());
    return catalog;
  };

  it("no LLM configured: partial, grounded questions built from the context's key sentences, and a message saying so", async () => {
    const r = await noLlm().call("testgen_generate_test", {
      topic: "metaheurísticas",
      num_questions: 4,
      context: MATERIAL,
    });
    expect(r.status).toBe("partial");
    expect(r.message).toMatch(
      /^No LLM configured .*: 4 questions were built without an LLM from the given material/,
    );
    expect(made(r)).toMatchObject({ generated_by: "rules", grounding: "context", num_questions: 4 });
    const qs = data(r).questions;
    expect(new Set(qs.map((q) => q.question)).size).toBe(4);
    expect(qs[0]!.question).toBe("¿Qué es una metaheurística?");
    expect(qs[0]!.correct_answer).toContain("método de búsqueda de alto nivel");
    expect(
      qs.some((q) => q.question.startsWith("Completa la frase: «") && q.question.includes("_____")),
    ).toBe(true);
    for (const q of qs) expect(q.explanation).toMatch(/^Según el material: «/);
  });

  it("multiple choice without an LLM: options drawn from the material, one correct", async () => {
    const r = await noLlm().call("testgen_generate_test", {
      topic: "metaheurísticas",
      num_questions: 3,
      question_type: "multiple_choice",
      difficulty: "easy",
      context: MATERIAL,
    });
    for (const q of data(r).questions) {
      expect(q.type).toBe("multiple_choice");
      expect(q.options.length).toBeGreaterThanOrEqual(3);
      expect(q.options[q.correct_index!]).toBe(q.correct_answer);
    }
  });

  it("no material either: varied questions on the topic, not one generic question", async () => {
    const r = await noLlm().call("testgen_generate_test", { topic: "Turing machines", num_questions: 5 });
    expect(r.status).toBe("partial");
    expect(r.message).toContain("the topic alone (no material)");
    const qs = data(r).questions.map((q) => q.question);
    expect(qs).toHaveLength(5);
    expect(new Set(qs).size).toBe(5);
    expect(qs.every((q) => q.includes("Turing machines"))).toBe(true);
  });

  it("LLM_BASE_URL without LLM_MODEL says which variable is missing", async () => {
    const catalog = makeCatalog({ env: { LLM_BASE_URL: "http://127.0.0.1:9/v1" } });
    catalog.register(createTestgenPlugin());
    const r = await catalog.call("testgen_generate_test", { topic: "metaheurísticas", num_questions: 1 });
    expect(r.message).toContain("LLM_MODEL is not set");
  });
});

describe("count and difficulty: arguments, professor preferences, defaults", () => {
  const PREFS = "/users/subject/metaheuristicas/preferences";
  const withBackend = (options: Record<string, unknown> = {}) =>
    open({ llmBaseUrl: undefined, llmModel: undefined, backendUrl: up.url, ...options });

  it("defaults are 5 questions, medium", async () => {
    const r = await open({ llmBaseUrl: undefined, llmModel: undefined }).call("testgen_generate_test", {
      topic: "metaheurísticas",
    });
    expect(made(r)).toMatchObject({
      num_questions: 5,
      difficulty: "medium",
      settings_from: { num_questions: "default", difficulty: "default" },
    });
  });

  it("reads the professor's preferences for the subject from the backend", async () => {
    up.route("GET", PREFS, { json: { default_test_questions: 3, default_test_difficulty: "hard" } });
    const r = await withBackend().call("testgen_generate_test", {
      topic: "búsqueda local",
      asignatura: "metaheuristicas",
    });
    expect(made(r)).toMatchObject({
      num_questions: 3,
      difficulty: "hard",
      settings_from: { num_questions: "professor", difficulty: "professor" },
    });
    expect(up.requestsTo("GET", PREFS)).toHaveLength(1);
  });

  it("uses the session's subject for the preferences when the argument is left out", async () => {
    up.route("GET", PREFS, { json: { default_test_questions: 2, default_test_difficulty: "easy" } });
    const r = await withBackend().call(
      "testgen_generate_test",
      { topic: "búsqueda local" },
      { session: { id: "s1", values: { asignatura: "metaheuristicas" } } },
    );
    expect(made(r)).toMatchObject({ asignatura: "metaheuristicas", num_questions: 2, difficulty: "easy" });
  });

  it("explicit arguments win over the professor's preferences (and skip the request when both are given)", async () => {
    up.route("GET", PREFS, { json: { default_test_questions: 3, default_test_difficulty: "hard" } });
    const one = await withBackend().call("testgen_generate_test", {
      topic: "x y z",
      asignatura: "metaheuristicas",
      difficulty: "easy",
    });
    expect(made(one)).toMatchObject({
      num_questions: 3,
      difficulty: "easy",
      settings_from: { num_questions: "professor", difficulty: "argument" },
    });
    const both = await withBackend().call("testgen_generate_test", {
      topic: "x y z",
      asignatura: "metaheuristicas",
      difficulty: "easy",
      num_questions: 1,
    });
    expect(made(both)).toMatchObject({ num_questions: 1, difficulty: "easy" });
    expect(up.requestsTo("GET", PREFS)).toHaveLength(1);
  });

  it("a professor preference above 10 is capped at 10", async () => {
    up.route("GET", PREFS, { json: { default_test_questions: 20, default_test_difficulty: "medium" } });
    const r = await withBackend().call("testgen_generate_test", {
      topic: "metaheurísticas",
      asignatura: "metaheuristicas",
    });
    expect(data(r).questions).toHaveLength(10);
  });

  it("the preferences request has a 5 s deadline by default; past it the defaults are used and the message says why", async () => {
    expect(testgenConfigSchema.parse({}).preferencesTimeoutMs).toBe(5000);
    up.fault("GET", PREFS, { kind: "hang" });
    const started = Date.now();
    const r = await withBackend({ preferencesTimeoutMs: 300 }).call("testgen_generate_test", {
      topic: "metaheurísticas",
      asignatura: "metaheuristicas",
    });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(made(r)).toMatchObject({ num_questions: 5, difficulty: "medium" });
    expect(r.message).toContain("professor preferences unavailable");
  });

  it.each([
    ["404 (no professor)", { kind: "status", status: 404 } as const, false],
    ["500", { kind: "status", status: 500 } as const, true],
    ["refused", undefined, true],
    ["invalid JSON", { kind: "invalidJson" } as const, true],
  ])("preferences %s → defaults", async (_name, fault, noted) => {
    if (fault) up.fault("GET", PREFS, fault);
    const backendUrl = fault ? up.url : await closedUrl();
    const r = await withBackend({ backendUrl }).call("testgen_generate_test", {
      topic: "metaheurísticas",
      asignatura: "metaheuristicas",
    });
    expect(made(r)).toMatchObject({ num_questions: 5, difficulty: "medium" });
    expect(r.message.includes("professor preferences unavailable")).toBe(noted);
  });

  it.each([0, 11, 2.5])("num_questions %s is rejected (1 to 10)", async (n) => {
    const r = await open().call("testgen_generate_test", { topic: "metaheurísticas", num_questions: n });
    expect(r.status).toBe("error");
    expect(r.error?.kind).toBe("invalid_input");
    expect(r.message).toContain("num_questions");
  });

  it("num_questions 10 is accepted", async () => {
    const r = await open({ llmBaseUrl: undefined, llmModel: undefined }).call("testgen_generate_test", {
      topic: "metaheurísticas",
      num_questions: 10,
      context: MATERIAL,
    });
    expect(data(r).questions).toHaveLength(10);
  });
});

describe("grounding in rag results when the rag plugin is present", () => {
  const fakeRag = (results: unknown[], seen: unknown[] = []) =>
    definePlugin({
      specificationVersion: "v1",
      id: "rag",
      version: "0.0.0",
      tools: [
        defineTool({
          name: "rag_search",
          description: "Fake course-material search for tests.",
          category: "course_material",
          input: z.object({
            query: z.string(),
            asignatura: z.string().optional(),
            top_k: z.number().optional(),
          }),
          output: z.object({ query: z.string(), total_results: z.number(), results: z.array(z.any()) }),
          run: (input) => {
            seen.push(input);
            return { query: input.query, total_results: results.length, results };
          },
        }),
      ],
    });

  it("without context, asks rag_search for the topic and subject and bases the questions on its results", async () => {
    const seen: unknown[] = [];
    up.route("POST", CHAT, { json: completion(openQuestions(2)) });
    const c = open({}, (cat) =>
      cat.register(
        fakeRag(
          [
            {
              content: MATERIAL,
              metadata: { source: "tema1.pdf", asignatura: "metaheuristicas" },
              score: 3.2,
            },
          ],
          seen,
        ),
      ),
    );
    const r = await c.call(
      "testgen_generate_test",
      { topic: "algoritmos genéticos", num_questions: 2 },
      { session: { id: "s", values: { asignatura: "metaheuristicas" } } },
    );
    expect(r.status, r.message).toBe("success");
    expect(data(r).grounding).toBe("rag");
    expect(seen).toEqual([{ query: "algoritmos genéticos", top_k: 6, asignatura: "metaheuristicas" }]);
    expect(chatBodies()[0]!.messages[1].content).toContain("[1] (tema1.pdf) Una metaheurística es un método");
  });

  it("rag results ground the questions built without an LLM too", async () => {
    const c = open({ llmBaseUrl: undefined, llmModel: undefined }, (cat) =>
      cat.register(fakeRag([{ content: MATERIAL, metadata: { source: "tema1.pdf" }, score: 1 }])),
    );
    const r = await c.call("testgen_generate_test", { topic: "metaheurísticas", num_questions: 2 });
    expect(data(r).grounding).toBe("rag");
    expect(data(r).questions[0]!.source).toBe("tema1.pdf");
    expect(r.message).toContain("course-material search results");
  });

  it("given context wins: rag is not called", async () => {
    const seen: unknown[] = [];
    const c = open({ llmBaseUrl: undefined, llmModel: undefined }, (cat) => cat.register(fakeRag([], seen)));
    await c.call("testgen_generate_test", { topic: "metaheurísticas", num_questions: 1, context: MATERIAL });
    expect(seen).toEqual([]);
  });

  it("rag with no results: questions on the topic, with a note", async () => {
    const c = open({ llmBaseUrl: undefined, llmModel: undefined }, (cat) => cat.register(fakeRag([])));
    const r = await c.call("testgen_generate_test", { topic: "metaheurísticas", num_questions: 2 });
    expect(data(r).grounding).toBe("none");
    expect(r.message).toContain('rag_search found nothing for "metaheurísticas"');
  });
});

describe("session asignatura modes", () => {
  it("default: visible to the model; override: hidden and the session wins", async () => {
    const c = open();
    expect(
      Object.keys((c.describe("testgen_generate_test", "openai")!.inputSchema as any).properties),
    ).toContain("asignatura");
    const catalog = makeCatalog();
    catalog.register(createTestgenPlugin({ sessionAsignatura: "override" }));
    expect(
      Object.keys((catalog.describe("testgen_generate_test", "openai")!.inputSchema as any).properties),
    ).not.toContain("asignatura");
    const r = await catalog.call(
      "testgen_generate_test",
      { topic: "x y", asignatura: "a" },
      { session: { values: { asignatura: "b" } } },
    );
    expect(data(r).asignatura).toBe("b");
  });
});
