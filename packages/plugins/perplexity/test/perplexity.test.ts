import type { ToolResult } from "@quiver/core";
import {
  closedUrl,
  describePluginConformance,
  describePluginPackage,
  makeTestClock,
  startEmulator,
  useCatalog,
  usePluginOnEmulator,
} from "@quiver/testing";
import { beforeEach, describe, expect, it } from "vitest";
import { createPerplexityPlugin } from "../src/index.js";
import { UNAVAILABLE_GUIDANCE } from "../src/internal/policy.js";
import {
  CHAT,
  CHAT_CHUNKED,
  routePerplexity,
  SEARCH,
  SEARCH_RESULTS_MEMBERS,
} from "./perplexity-upstream.js";

const KEY = "pplx-test-7f3a9c2e1b4d6f8a";
const TOOL = "perplexity_search_web";
/** `setup`: a catalog with the Perplexity plugin pointed at the emulator, the key given as PERPLEXITY_API_KEY. */
const { up, catalog: setup } = usePluginOnEmulator({
  plugin: createPerplexityPlugin,
  start: () => startEmulator(),
  catalog: { env: { PERPLEXITY_API_KEY: KEY } },
});
beforeEach(() => {
  up.reset();
  routePerplexity(up, KEY);
});
const makeCatalog = useCatalog();
const session = (id = "s1") => ({ session: { id, principal: "alice" } });
const SF = "What is the current population of San Francisco?";

describePluginPackage(new URL("..", import.meta.url));
describePluginConformance(createPerplexityPlugin(), {
  options: () => ({ baseUrl: up.url, apiKey: KEY, researchPollMs: 10 }),
  downOptions: async () => ({ baseUrl: await closedUrl(), apiKey: KEY }),
});
describePluginConformance(createPerplexityPlugin({ api: "chat" }), {
  options: () => ({ baseUrl: up.url, apiKey: KEY, researchPollMs: 10 }),
  downOptions: async () => ({ baseUrl: await closedUrl(), apiKey: KEY }),
});

// Equivalents of the five tests in GAIA's specification of ExternalToolsMixin. The three web-search
// ones are here; test_search_documentation_success and the Context7-unavailable test are in
// packages/plugins/context7/test/context7.test.ts.
describe("GAIA equivalents (web search)", () => {
  // GAIA: test_search_web_success (Search API, the default)
  it("web search succeeds with sources and citations (Search API)", async () => {
    const catalog = setup();
    const r = await catalog.call(TOOL, { query: SF }, session());
    expect(r.status, r.message).toBe("success");
    expect(r.data).toEqual({
      results: [
        {
          title: "San Francisco - Wikipedia",
          url: "https://en.wikipedia.org/wiki/San_Francisco",
          date: "2001-10-12",
          snippet: SEARCH.results[0]!.snippet,
        },
        {
          title: "Resident Population in San Francisco County/city, CA (CASANF0POP) | FRED",
          url: "https://fred.stlouisfed.org/series/CASANF0POP",
          date: "2025-03-13",
          snippet: SEARCH.results[1]!.snippet,
        },
        {
          title: "San Francisco, California Population 2026",
          url: "https://worldpopulationreview.com/us-cities/california/san-francisco",
          date: "2026-01-20",
          snippet: SEARCH.results[2]!.snippet,
        },
      ],
      citations: [
        "https://en.wikipedia.org/wiki/San_Francisco",
        "https://fred.stlouisfed.org/series/CASANF0POP",
        "https://worldpopulationreview.com/us-cities/california/san-francisco",
      ],
      api: "search",
      answer_included: false,
    });
    expect(r.message).toBe(
      "Perplexity Search API found 3 sources; sources only, no written answer (answer_included: false).",
    );
    expect(r.instruction).toMatch(/concise answer.*Cite each claim/);
    expect(r.metadata.source).toBe("Perplexity Search API");
    const [sent] = up.requestsTo("POST", "/search");
    expect(sent?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent?.json).toEqual({ query: SF, max_results: 5, max_tokens_per_page: 512 });
  });

  // The code agent's spec wants an answer; the Search API (default) has none, and says so plainly.
  it("says plainly whether an answer is included: description, output and message", async () => {
    const described = setup().describe(TOOL)!;
    expect(described.description).toMatch(/Search API \(the default\) there is no written answer/);
    expect(JSON.stringify(described.outputSchema)).toContain("answer_included");
    const search = await setup().call(TOOL, { query: SF }, session());
    expect(search.data).toMatchObject({ answer_included: false, api: "search" });
    expect((search.data as { answer?: string }).answer).toBeUndefined();
    expect(search.message).toMatch(/no written answer/);
    expect(search.instruction).toMatch(/Write a concise answer/);
    const chat = await setup({ api: "chat" }).call(TOOL, { query: SF }, session());
    expect(chat.data).toMatchObject({
      answer_included: true,
      api: "chat",
      answer: CHAT.choices[0].message.content,
    });
  });

  // GAIA: test_search_web_success (Sonar chat completions)
  it("web search succeeds with a concise answer and citations (chat API, recorded Sonar answer)", async () => {
    const catalog = setup({ api: "chat" });
    const r = await catalog.call(TOOL, { query: SF }, session());
    expect(r.status, r.message).toBe("success");
    const data = r.data as {
      answer: string;
      results: Array<{ title: string; url: string }>;
      citations: string[];
      model: string;
      api: string;
    };
    expect(data.api).toBe("chat");
    expect(data.model).toBe("sonar");
    expect(data.answer).toBe(CHAT.choices[0].message.content);
    expect(data.citations).toEqual(CHAT.citations);
    expect(data.results).toHaveLength(7);
    expect(data.results[1]).toEqual({
      title: "en.wikipedia.org: San Francisco",
      url: "https://en.wikipedia.org/wiki/San_Francisco",
    });
    expect(data.results[4]).toEqual({
      title: "fred.stlouisfed.org: CASANF0POP",
      url: "https://fred.stlouisfed.org/series/CASANF0POP",
    });
    expect(r.message).toBe("Perplexity sonar answered with 7 citations.");
    expect(r.instruction).toMatch(/citations\[n-1\]/);
    const [sent] = up.requestsTo("POST", "/chat/completions");
    expect(sent?.json).toMatchObject({
      model: "sonar",
      messages: [{ role: "system" }, { role: "user", content: SF }],
      num_search_results: 5,
    });
  });

  // GAIA: test_search_web_no_api_key
  it("without PERPLEXITY_API_KEY the tool answers unavailable naming the variable, and sends nothing", async () => {
    for (const env of [{}, { PERPLEXITY_API_KEY: "" }]) {
      const catalog = makeCatalog({ env });
      const info = catalog.register(createPerplexityPlugin(), { baseUrl: up.url });
      expect(info).toMatchObject({ status: "unconfigured", missing: ["PERPLEXITY_API_KEY"] });
      const r = await catalog.call(TOOL, { query: SF }, session());
      expect(r.status).toBe("unavailable");
      expect(r.error).toMatchObject({ kind: "unavailable", retryable: false });
      expect(r.message).toContain("PERPLEXITY_API_KEY is not set");
      expect(r.suggestion).toContain("PERPLEXITY_API_KEY");
      expect(r.guidance).toBeTruthy();
      expect(catalog.list()[0]?.available).toBe(false);
      expect((await catalog.health("perplexity")).fix).toContain("PERPLEXITY_API_KEY");
    }
    expect(up.requests).toHaveLength(0);
  });

  it.each([403, 401, 404])(
    "a chat API that refuses the key or is gone (HTTP %i) still answers, with sources from the Search API",
    async (status) => {
      up.fault("POST", "/chat/completions", {
        kind: "status",
        status,
        body: { error: { message: "This API key has no access to Sonar", type: "permission_error" } },
      });
      const r = await setup({ api: "chat" }).call(TOOL, { query: SF }, session());
      expect(r.status, r.message).toBe("success");
      expect(r.data).toMatchObject({ api: "search", answer_included: false });
      expect(r.metadata).toMatchObject({ api: "search", chat_refused: true });
      expect(r.message).toMatch(new RegExp(`chat API refused this key \\(HTTP ${status}`));
      expect(r.instruction).toMatch(/Write a concise answer/);
      expect(up.requestsTo("POST", "/chat/completions")).toHaveLength(1);
      expect(up.requestsTo("POST", "/search")).toHaveLength(1);
    },
  );

  it("a chat API outage is not answered from the Search API (only a refusal is)", async () => {
    up.fault("POST", "/chat/completions", { kind: "status", status: 503 });
    const r = await setup({ api: "chat" }, { policies: { [TOOL]: { retry: { times: 0 } } } }).call(
      TOOL,
      { query: SF },
      session(),
    );
    expect(r.status).toBe("unavailable");
    expect(up.requestsTo("POST", "/search")).toHaveLength(0);
  });

  // GAIA: web-search upstream error
  it("an upstream error is an error envelope with Perplexity's message, retried first, with guidance", async () => {
    up.fault("POST", "/search", {
      kind: "status",
      status: 500,
      body: JSON.stringify({
        error: { message: "Internal server error", type: "internal_error", code: 500 },
      }),
    });
    const catalog = setup({}, { policies: { [TOOL]: { retry: { times: 2, base: "10ms" } } } });
    const r = await catalog.call(TOOL, { query: SF }, session());
    expect(r.status).toBe("error");
    expect(r.error).toMatchObject({ kind: "upstream", retryable: true });
    expect(r.message).toMatch(/HTTP 500.*Internal server error/);
    expect(r.guidance).toBe(UNAVAILABLE_GUIDANCE);
    expect(r.metadata.attempts).toBe(3);
    expect(up.requestsTo("POST", "/search")).toHaveLength(3);
  });
});

describe("options: recency, domains, maximum results, model", () => {
  it("maps them to the Search API's filters; max_results limits the results; model is ignored and said so", async () => {
    const catalog = setup();
    const r = await catalog.call(
      TOOL,
      {
        query: SF,
        recency: "month",
        domains: ["Wikipedia.org", "-pinterest.com"],
        max_results: 2,
        model: "sonar-pro",
      },
      session(),
    );
    expect(r.status).toBe("success");
    expect((r.data as { results: unknown[] }).results).toHaveLength(2);
    expect(r.message).toBe(
      "Perplexity Search API found 2 sources (model sonar-pro ignored: the Search API has no model); sources only, no written answer (answer_included: false).",
    );
    expect(up.requestsTo("POST", "/search")[0]?.json).toEqual({
      query: SF,
      max_results: 2,
      max_tokens_per_page: 512,
      search_recency_filter: "month",
      search_domain_filter: ["wikipedia.org", "-pinterest.com"],
    });
  });

  it("maps them to chat completions; the call's model wins over the configured one", async () => {
    const catalog = setup({ api: "chat", model: "sonar-pro" });
    const r = await catalog.call(
      TOOL,
      { query: SF, recency: "week", domains: ["nih.gov"], max_results: 3, model: "sonar-reasoning-pro" },
      session(),
    );
    expect(r.status).toBe("success");
    expect((r.data as { model: string }).model).toBe("sonar-reasoning-pro");
    expect(up.requestsTo("POST", "/chat/completions")[0]?.json).toMatchObject({
      model: "sonar-reasoning-pro",
      num_search_results: 3,
      search_recency_filter: "week",
      search_domain_filter: ["nih.gov"],
    });
    const configured = await catalog.call(TOOL, { query: "another question" }, session());
    expect((configured.data as { model: string }).model).toBe("sonar-pro");
  });

  it("rejects a malformed domain and more than 20 results before calling Perplexity", async () => {
    const catalog = setup();
    const bad = await catalog.call(TOOL, { query: SF, domains: ["https://nih.gov/path"] }, session());
    expect(bad.error?.kind).toBe("invalid_input");
    expect(bad.message).toMatch(/domains/);
    const many = await catalog.call(TOOL, { query: SF, max_results: 50 }, session());
    expect(many.error?.kind).toBe("invalid_input");
    expect(up.requests).toHaveLength(0);
  });

  it("uses search_results (title, url, date) when Sonar sends them, and strips a reasoning model's <think> block", async () => {
    up.route("POST", "/chat/completions", {
      json: {
        ...CHAT,
        model: "sonar-reasoning-pro",
        citations: undefined,
        search_results: SEARCH_RESULTS_MEMBERS.search_results,
        usage: SEARCH_RESULTS_MEMBERS.usage,
        choices: [
          {
            index: 0,
            message: {
              role: "assistant",
              content: "<think>\nThe user asks who this is.\n</think>\n\nA web developer [1][3].",
            },
            finish_reason: "stop",
          },
        ],
      },
    });
    const catalog = setup({ api: "chat" });
    const r = await catalog.call(
      TOOL,
      { query: "Who is Amardeep Lakshkar?", model: "sonar-reasoning-pro" },
      session(),
    );
    expect(r.status, r.message).toBe("success");
    expect(r.data).toEqual({
      answer: "A web developer [1][3].",
      results: [
        {
          title: "Amardeep Lakshkar amardeeplakshkar - GitHub",
          url: "https://github.com/amardeeplakshkar",
          date: "2024-05-05",
        },
        {
          title: "AMARDEEP LAKSHKAR〽 (@amardeep.webdev) • Instagram ...",
          url: "https://www.instagram.com/amardeep.webdev/",
        },
        {
          title: "Amardeep Lakshkar | Portfolio",
          url: "https://amardeep-portfolio.vercel.app",
          date: "2021-06-14",
        },
      ],
      citations: [
        "https://github.com/amardeeplakshkar",
        "https://www.instagram.com/amardeep.webdev/",
        "https://amardeep-portfolio.vercel.app",
      ],
      model: "sonar-reasoning-pro",
      api: "chat",
      answer_included: true,
    });
  });

  it("a Sonar reply without an answer is an upstream error", async () => {
    up.route("POST", "/chat/completions", { json: { ...CHAT, choices: [] } });
    const catalog = setup({ api: "chat" }, { policies: { [TOOL]: { retry: false } } });
    const r = await catalog.call(TOOL, { query: SF }, session());
    expect(r.error?.kind).toBe("upstream");
    expect(r.message).toBe("Perplexity (sonar) returned no answer.");
  });
});

describe("errors: 401, 429, 400", () => {
  it("401 (Perplexity's HTML page) is access_denied with the fix, for both APIs", async () => {
    for (const api of ["search", "chat"] as const) {
      const catalog = setup({ api }, { env: { PERPLEXITY_API_KEY: "pplx-wrong-key-000000" } });
      const r = await catalog.call(TOOL, { query: SF }, session(api));
      expect(r.status, api).toBe("access_denied");
      expect(r.error).toMatchObject({ kind: "access_denied", retryable: false });
      expect(r.message).toMatch(/denied access \(HTTP 401\)/);
      expect(r.suggestion).toMatch(
        /Set it to a valid key \(they start with "pplx-"; create one at https:\/\/www\.perplexity\.ai\/account\/api\/keys\)/,
      );
      expect(r.metadata.attempts).toBe(1);
    }
  });

  it("429 is retried after Retry-After: the retry comes at least 1 s later (by the catalog's clock) and succeeds", async () => {
    up.fault(
      "POST",
      "/search",
      {
        kind: "status",
        status: 429,
        retryAfter: 1,
        body: JSON.stringify({
          error: { message: "Rate limit exceeded", type: "request_rate_limit_exceeded", code: 429 },
        }),
      },
      { times: 1 },
    );
    const time = await makeTestClock();
    const catalog = setup({}, { clock: time.clock });
    const started = time.now();
    const r = await time.advanceUntil(catalog.call(TOOL, { query: SF }, session()), 50);
    expect(r.status, r.message).toBe("success");
    expect(r.metadata.attempts).toBe(2);
    expect(up.requestsTo("POST", "/search")).toHaveLength(2);
    // Time moves only in the test's steps: the retry waited for a full second of the catalog's clock.
    expect(time.now() - started).toBeGreaterThanOrEqual(1_000);
  });

  it("429 with a Retry-After beyond the call's budget is rate_limited with retryAfterMs, at once", async () => {
    up.fault("POST", "/chat/completions", { kind: "status", status: 429, retryAfter: 90 });
    const catalog = setup({ api: "chat" });
    const r = await catalog.call(TOOL, { query: SF }, session());
    expect(r.status).toBe("error");
    expect(r.error).toMatchObject({ kind: "rate_limited", retryable: true, retryAfterMs: 90_000 });
    expect(r.message).toMatch(/retry after 90 s/);
    expect(r.metadata.attempts).toBe(1);
  });

  it("an unknown configured model (recorded 400 invalid_model) is invalid_input listing the Sonar models", async () => {
    const catalog = setup({ api: "chat", model: "llama-3.1-sonar-small-128k-online" });
    const r = await catalog.call(TOOL, { query: SF }, session());
    expect(r.status).toBe("error");
    expect(r.error?.kind).toBe("invalid_input");
    expect(r.message).toMatch(/Invalid model 'llama-3.1-sonar-small-128k-online'/);
    expect(r.suggestion).toMatch(/sonar, sonar-pro, sonar-reasoning-pro/);
  });
});

// Issue 25 item 10: the SDK types `ChatMessageOutput.content` as a string or a list of content chunks.
describe("chat answers whose content is a list of content chunks", () => {
  it("joins the text chunks into the answer, skipping chunks without text", async () => {
    up.route("POST", "/chat/completions", { json: CHAT_CHUNKED });
    const catalog = setup({ api: "chat" });
    const r = await catalog.call(TOOL, { query: SF }, session());
    expect(r.status, r.message).toBe("success");
    expect((r.data as { answer: string }).answer).toBe(CHAT.choices[0].message.content);
    expect((r.data as { citations: string[] }).citations).toEqual(CHAT.citations);
  });

  it("a chunk list with no text is no answer: an upstream error", async () => {
    up.route("POST", "/chat/completions", {
      json: {
        ...CHAT,
        choices: [
          {
            ...CHAT.choices[0],
            message: {
              role: "assistant",
              content: [{ type: "image_url", image_url: "https://a.dev/x.png" }],
            },
          },
        ],
      },
    });
    const catalog = setup({ api: "chat" }, { policies: { [TOOL]: { retry: false } } });
    const r = await catalog.call(TOOL, { query: SF }, session());
    expect(r.error?.kind, r.message).toBe("upstream");
    expect(r.message).toBe("Perplexity (sonar) returned no answer.");
  });
});

// Issue 25 item 9: sonar-deep-research researches for minutes; a non-streamed call was cut at 60 s
// and retried twice. The tool no longer offers it, and refuses it before any request.
describe("long-running models", () => {
  it("sonar-deep-research as the call's model is refused as input, with no request sent", async () => {
    const catalog = setup({ api: "chat" });
    const r = await catalog.call(TOOL, { query: SF, model: "sonar-deep-research" }, session());
    expect(r.status, r.message).toBe("error");
    expect(r.error?.kind).toBe("invalid_input");
    expect(r.message).toMatch(/model/);
    expect(up.requests).toHaveLength(0);
    expect(catalog.describe(TOOL)!.description + JSON.stringify(catalog.describe(TOOL))).not.toMatch(
      /sonar-deep-research/,
    );
  });

  it("sonar-deep-research as the configured model is refused at once, not retried, with the models to use", async () => {
    const catalog = setup({ api: "chat", model: "sonar-deep-research" });
    const r = await catalog.call(TOOL, { query: SF }, session());
    expect(r.status, r.message).toBe("error");
    expect(r.error).toMatchObject({ kind: "invalid_input", retryable: false });
    expect(r.message).toMatch(/researches for minutes/);
    expect(r.suggestion).toMatch(/sonar, sonar-pro, sonar-reasoning-pro/);
    expect(r.metadata.attempts).toBe(1);
    expect(up.requests).toHaveLength(0);
  });
});

describe("the Perplexity emulator refuses what the SDK's request types do not allow", () => {
  const post = async (path: string, body: unknown) => {
    const r = await fetch(`${up.url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: r.status, body: (await r.json()) as { error?: { param?: string; type?: string } } };
  };
  const messages = [{ role: "user", content: "hi" }];
  it.each([
    ["/search", {}, "query"],
    ["/search", { query: 42 }, "query"],
    ["/search", { query: "x", recency: "week" }, "recency"],
    ["/search", { query: "x", search_recency_filter: "decade" }, "search_recency_filter"],
    ["/search", { query: "x", max_results: "5" }, "max_results"],
    [
      "/search",
      { query: "x", search_domain_filter: Array.from({ length: 21 }, (_, i) => `d${i}.com`) },
      "search_domain_filter",
    ],
    ["/chat/completions", { messages }, "model"],
    ["/chat/completions", { model: "sonar" }, "messages"],
    [
      "/chat/completions",
      { model: "sonar", messages: [{ role: "robot", content: "hi" }] },
      "messages[0].role",
    ],
    ["/chat/completions", { model: "sonar", messages: [{ content: "hi" }] }, "messages[0].role"],
    ["/chat/completions", { model: "sonar", messages, max_results: 3 }, "max_results"],
  ])("POST %s %j → 400 naming %s", async (path, body, param) => {
    const r = await post(path, body);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ type: "invalid_request", param });
  });
});

describe("the API key never appears in a message or a log", () => {
  it("stays out of envelopes, catalog listings, health reports and the runtime's log, whatever fails", async () => {
    // Everything the runtime logs (the source never prints with console: biome's noConsole).
    const written: string[] = [];
    const log = (level: string, message: string) => written.push(`${level}: ${message}`);
    const seen: unknown[] = [];
    const echo = (status: number) => ({
      kind: "status" as const,
      status,
      body: JSON.stringify({
        error: { message: `bad key Bearer ${KEY} (${KEY})`, type: "x", code: status },
      }),
    });
    for (const [api, fault] of [
      ["search", echo(401)],
      ["chat", echo(403)],
      ["search", echo(400)],
      ["chat", echo(500)],
      ["search", echo(429)],
      ["chat", { kind: "reset" as const }],
      ["search", { kind: "htmlError" as const, body: `<html><title>${KEY}</title></html>` }],
    ] as const) {
      up.clearFaults();
      up.fault("POST", api === "search" ? "/search" : "/chat/completions", fault);
      const catalog = setup({ api }, { log, policies: { [TOOL]: { retry: { times: 1, base: "5ms" } } } });
      seen.push(await catalog.call(TOOL, { query: SF }, session(api)));
      seen.push(
        catalog.plugins(),
        catalog.list(),
        catalog.describe(TOOL),
        await catalog.health("perplexity"),
      );
    }
    const down = setup({ baseUrl: await closedUrl() }, { log });
    seen.push(await down.call(TOOL, { query: SF }, session()));
    const everything = JSON.stringify(seen) + written.join("\n");
    expect(everything).toContain("[REDACTED]");
    expect(everything).not.toContain(KEY);
    expect(everything).not.toContain("7f3a9c2e1b4d6f8a");
    const statuses = (seen as ToolResult[])
      .filter((s) => s && typeof s === "object" && "status" in s)
      .map((s) => s.status);
    expect(statuses).toEqual([
      "access_denied",
      "success", // the chat API's refusal (403) falls back to the Search API; its message is redacted too
      "error",
      "error",
      "error",
      "unavailable",
      "error",
      "unavailable",
    ]);
  });
});

describe("policies", () => {
  it("declares one rate limit and breaker keyed perplexity, a 15 min cache, 60 s timeout", () => {
    const policy = setup().describe(TOOL)!.policy;
    expect(policy.rateLimit).toMatchObject([{ key: "perplexity", limit: 50, windowMs: 60_000 }]);
    expect(policy.breaker).toMatchObject({ key: "perplexity", failures: 5 });
    expect(policy.cache?.ttlMs).toBe(15 * 60_000);
    expect(policy.timeoutMs).toBe(60_000);
    expect(policy.retry?.times).toBe(2);
  });

  it("the 51st call in a minute is rate_limited without reaching Perplexity", async () => {
    const catalog = setup();
    for (let i = 0; i < 50; i++)
      expect((await catalog.call(TOOL, { query: `q${i}` }, session())).status).toBe("success");
    const over = await catalog.call(TOOL, { query: "q50" }, session());
    expect(over.error?.kind).toBe("rate_limited");
    expect(over.error?.retryAfterMs).toBeGreaterThan(0);
    expect(up.requestsTo("POST", "/search")).toHaveLength(50);
  });

  it("the same search is served from the cache", async () => {
    const catalog = setup();
    await catalog.call(TOOL, { query: SF }, session());
    const again = await catalog.call(TOOL, { query: SF }, session());
    expect(again.metadata.cached).toBe(true);
    expect(up.requestsTo("POST", "/search")).toHaveLength(1);
  });

  it("unreachable twice in a session: unavailable with guidance, then escalate", async () => {
    const catalog = setup({ baseUrl: await closedUrl() }, { policies: { [TOOL]: { retry: false } } });
    const first = await catalog.call(TOOL, { query: SF }, session("down"));
    expect(first.status).toBe("unavailable");
    expect(first.guidance).toBe(UNAVAILABLE_GUIDANCE);
    expect(first.escalate).toBeUndefined();
    const second = await catalog.call(TOOL, { query: SF }, session("down"));
    expect(second.escalate).toBe(true);
  });
});

describe("health", () => {
  it("checks the key without running a search", async () => {
    const ok = await setup().health("perplexity");
    expect(ok).toMatchObject({ ok: true, message: expect.stringMatching(/accepted the API key.*HTTP 400/) });
    expect(up.requestsTo("POST", "/search")[0]?.json).toEqual({});
    const bad = await setup({}, { env: { PERPLEXITY_API_KEY: "pplx-wrong" } }).health("perplexity");
    expect(bad.ok).toBe(false);
    expect(bad.fix).toMatch(/PERPLEXITY_API_KEY/);
  });
});
