import { createContext7Plugin } from "@quiver/plugin-context7";
import { createPerplexityPlugin } from "@quiver/plugin-perplexity";
import { closedUrl, type Emulator, startEmulator, useCatalog } from "@quiver/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routeContext7 } from "../../../plugins/context7/test/context7-upstream.js";
import { CHAT, routePerplexity, SEARCH } from "../../../plugins/perplexity/test/perplexity-upstream.js";
import { createCodeAgentTools, toCodeAgentDocumentation } from "../../src/seeds.js";

// The code agent's own examples (its ExternalToolsMixin tests: documentation success, Context7
// unavailable, web search success, no API key, upstream error), run through its mapping against the
// real Context7 and Perplexity plugins served by emulators with their recorded answers.

const KEY = "pplx-seed-test";
let context7: Emulator;
let perplexity: Emulator;
beforeAll(async () => {
  [context7, perplexity] = await Promise.all([startEmulator(), startEmulator()]);
  routeContext7(context7);
  routePerplexity(perplexity, KEY);
});
afterAll(async () => {
  await Promise.all([context7.close(), perplexity.close()]);
});

const makeCatalog = useCatalog();

const agentTools = (
  o: { context7Url?: string; perplexity?: Record<string, unknown>; env?: Record<string, string> } = {},
) => {
  const catalog = makeCatalog({ env: o.env ?? { PERPLEXITY_API_KEY: KEY } });
  catalog.register(createContext7Plugin(), { baseUrl: o.context7Url ?? `${context7.url}/api` });
  catalog.register(createPerplexityPlugin(), { baseUrl: perplexity.url, ...o.perplexity });
  return createCodeAgentTools(catalog, { session: { id: "agent-1", principal: "dev" } });
};

describe("code agent: search_documentation(query, library?)", () => {
  it('answers exactly {"success": True, "documentation": ...}', async () => {
    const r = await agentTools().searchDocumentation("authentication check in middleware", "next.js");
    expect(Object.keys(r).sort()).toEqual(["documentation", "success"]);
    expect(r.success).toBe(true);
    expect(r.documentation).toContain("### Middleware Authentication Example");
    expect(r.documentation).toContain(
      "Source: https://github.com/vercel/next.js/blob/canary/docs/middleware.mdx",
    );
  });

  it('Context7 down: documentation "", the agent\'s error string, guidance with "embedded knowledge"', async () => {
    const r = await agentTools({ context7Url: await closedUrl() }).searchDocumentation(
      "authentication check in middleware",
      "next.js",
    );
    expect(r.success).toBe(false);
    expect(r.unavailable).toBe(true);
    expect(r.documentation).toBe("");
    expect(r.error).toBe("Context7 not available. Use your embedded knowledge for this pattern.");
    expect(r.guidance).toContain("embedded knowledge");
    expect(r.guidance).toContain("escalate");
  });

  it("an unknown library is an error, not unavailable, with the closest names", async () => {
    const r = await agentTools().searchDocumentation("routing", "reactt-routerr-domm");
    expect(r.success).toBe(false);
    expect(r.unavailable).toBeUndefined();
    expect(r.documentation).toBe("");
    expect(r.error).toEqual(expect.any(String));
  });

  it("a stale answer (Context7 down, asked before) is a success", () => {
    const r = toCodeAgentDocumentation({
      status: "partial",
      message: "Context7 is unavailable; the last known result (2 h old).",
      data: { library_id: "/vercel/next.js", documentation: "docs", sources: [] },
      error: { kind: "unavailable", message: "down", retryable: true },
      metadata: {
        tool: "context7_search_documentation",
        plugin: "context7",
        callId: "c",
        durationMs: 1,
        attempts: 1,
        cached: false,
        truncated: false,
        stale: true,
        staleAgeMs: 7_200_000,
      },
    });
    expect(r).toEqual({ success: true, documentation: "docs" });
  });
});

describe("code agent: search_web(query, options?)", () => {
  const SF = "What is the current population of San Francisco?";

  it("chat API: {success, answer} with Perplexity's written answer and its sources", async () => {
    const r = await agentTools({ perplexity: { api: "chat" } }).searchWeb(SF);
    expect(Object.keys(r).sort()).toEqual(["answer", "success"]);
    expect(r.answer.startsWith(CHAT.choices[0].message.content)).toBe(true);
    expect(r.answer).toContain(`[1] ${CHAT.citations[0]}`);
  });

  it("Search API (the default): answer holds the numbered sources and says no answer was written", async () => {
    const r = await agentTools().searchWeb(SF, { max_results: 3 });
    expect(r.success).toBe(true);
    expect(r.answer).toMatch(/^Perplexity's Search API returned sources without a written answer/);
    const first = SEARCH.results[0] as { title: string; url: string };
    expect(r.answer).toContain(`[1] ${first.title}`);
    expect(r.answer).toContain(first.url);
    expect(r.answer).toContain("[3] ");
    expect(r.answer).not.toContain("[4] ");
  });

  it("no API key: success false and the error names PERPLEXITY_API_KEY", async () => {
    const r = await agentTools({ env: {} }).searchWeb(SF);
    expect(r).toMatchObject({ success: false, answer: "" });
    expect(r.error).toContain("PERPLEXITY_API_KEY");
  });

  it('an upstream error: success false with the error, answer ""', async () => {
    const r = await agentTools({ perplexity: { apiKey: "pplx-wrong" }, env: {} }).searchWeb(SF);
    expect(r.success).toBe(false);
    expect(r.answer).toBe("");
    expect(r.error).toMatch(/key/i);
  });
});
