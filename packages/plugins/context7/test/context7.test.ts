import type { Catalog, CatalogOptions } from "@quiver/core";
import {
  closedUrl,
  describePluginConformance,
  describePluginPackage,
  makeTestClock,
  useCatalog,
} from "@quiver/testing";
import { describe, expect, it } from "vitest";
import { createContext7Plugin } from "../src/index.js";
import { NOT_FOUND_GUIDANCE, UNAVAILABLE_GUIDANCE } from "../src/internal/policy.js";
import { useContext7Emulator } from "./context7-emulator.js";
import {
  CONTEXT_TXT,
  documented,
  documentedStatuses,
  RATE_LIMIT_BODY,
  REDIRECT_BODY,
} from "./context7-upstream.js";

const emu = useContext7Emulator();
const base = () => `${emu.up.url}/api`;
const SEARCH = "/api/v2/libs/search";
const CONTEXT = "/api/v2/context";

const makeCatalog = useCatalog({ env: {} });

/** A catalog with the Context7 plugin pointed at the emulator (or `options.baseUrl`). */
const setup = (
  options: Record<string, unknown> = {},
  catalogOptions: CatalogOptions = {},
  plugin = createContext7Plugin(),
) => {
  const catalog = makeCatalog(catalogOptions);
  catalog.register(plugin, { baseUrl: base(), ...options });
  return catalog;
};
const session = (id = "s1") => ({ session: { id, principal: "alice" } });
/** Two quick retries, for faults that must be retried. */
const QUICK_RETRIES: CatalogOptions = { policies: { "*": { retry: { times: 2, base: "10ms" } } } };
/** `context7_get_library_docs` for the Next.js middleware question. */
const nextDocs = (catalog: Catalog) =>
  catalog.call(
    "context7_get_library_docs",
    { library_id: "/vercel/next.js", query: "middleware" },
    session(),
  );

describePluginPackage(new URL("..", import.meta.url));
describePluginConformance(createContext7Plugin(), {
  options: () => ({ baseUrl: base() }),
  downOptions: async () => ({ baseUrl: await closedUrl() }),
});

// Equivalents of the five tests in GAIA's specification of ExternalToolsMixin. The two Context7
// ones are here; test_search_web_success, test_search_web_no_api_key and the web-search upstream
// error test are in packages/plugins/perplexity/test/perplexity.test.ts.
describe("GAIA equivalents (Context7)", () => {
  // GAIA: test_search_documentation_success
  it("documentation search resolves the library, then returns its documentation, the id used and the sources", async () => {
    const catalog = setup();
    const r = await catalog.call(
      "context7_search_documentation",
      { query: "authentication check in middleware", library: "next.js" },
      session(),
    );
    expect(r.status, r.message).toBe("success");
    const data = r.data as Record<string, any>;
    expect(data.library_id).toBe("/vercel/next.js");
    expect(data.library_title).toBe("Next.js");
    expect(data.documentation).toContain("### Middleware Authentication Example");
    expect(data.documentation).toContain(
      "Source: https://github.com/vercel/next.js/blob/canary/docs/middleware.mdx#_snippet_0",
    );
    expect(data.documentation).toContain("```typescript\nimport { NextResponse } from 'next/server'");
    expect(data.documentation).toContain("Middleware allows you to run code before a request is completed");
    expect(data.sources).toEqual([
      { url: "https://github.com/vercel/next.js/blob/canary/docs/middleware.mdx", title: "Middleware" },
    ]);
    expect(data.snippets).toBe(2);
    expect(r.message).toContain("Next.js (/vercel/next.js)");
    expect(r.instruction).toMatch(/cite the source links/);
    expect(r.metadata.source).toBe("Context7 /vercel/next.js");

    const [search] = emu.up.requestsTo("GET", SEARCH);
    expect(search?.query.get("libraryName")).toBe("next.js");
    expect(search?.query.get("query")).toBe("authentication check in middleware");
    const [context] = emu.up.requestsTo("GET", CONTEXT);
    expect(context?.query.get("libraryId")).toBe("/vercel/next.js");
    expect(context?.query.get("query")).toBe("authentication check in middleware");
    expect(context?.query.get("type")).toBe("json");
    expect(context?.headers.authorization).toBeUndefined();
  });

  // GAIA: test_context7_unavailable (guidance, then escalation after two failed attempts)
  it("Context7 unreachable: unavailable with guidance; the second failure in a session escalates", async () => {
    const catalog = setup({ baseUrl: await closedUrl() });
    const input = { query: "authentication check in middleware", library: "next.js" };
    const first = await catalog.call("context7_search_documentation", input, session("down"));
    expect(first.status).toBe("unavailable");
    expect(first.error?.kind).toBe("unavailable");
    expect(first.error?.retryable).toBe(true);
    expect(first.message).toMatch(/refused the connection/);
    expect(first.guidance).toBe(UNAVAILABLE_GUIDANCE);
    expect(first.guidance).toMatch(/what you already know/);
    expect(first.guidance).toMatch(/standard, long-documented approach/);
    expect(first.escalate).toBeUndefined();
    expect(first.metadata.attempts).toBe(3);

    const second = await catalog.call("context7_search_documentation", input, session("down"));
    expect(second.status).toBe("unavailable");
    expect(second.escalate).toBe(true);
    expect(second.instruction).toMatch(/failed 2 times in a row.*tell the user/);
    expect(second.guidance).toBe(UNAVAILABLE_GUIDANCE);

    const otherSession = await catalog.call("context7_search_documentation", input, session("other"));
    expect(otherSession.escalate).toBeUndefined();
  });
});

describe("unavailable: 5xx after retries, breaker open", () => {
  it("a 5xx that persists through the retries is unavailable (not a generic error), with the guidance", async () => {
    emu.up.fault("GET", CONTEXT, {
      kind: "status",
      status: 503,
      body: '{"error":"search_failed","message":"Search failed"}',
    });
    const catalog = setup();
    const r = await catalog.call(
      "context7_get_library_docs",
      { library_id: "/vercel/next.js", query: "middleware" },
      session(),
    );
    expect(r.status).toBe("unavailable");
    expect(r.error).toMatchObject({ kind: "unavailable", retryable: true });
    expect(r.message).toMatch(/Context7 is unavailable: .*HTTP 503.*Search failed/);
    expect(r.guidance).toBe(UNAVAILABLE_GUIDANCE);
    expect(r.metadata.attempts).toBe(3);
    expect(emu.up.requestsTo("GET", CONTEXT)).toHaveLength(3);
  });

  it("a host name that does not resolve (DNS failure) is unavailable, with the guidance", async () => {
    // `.invalid` never resolves (RFC 6761), so no request leaves the machine.
    const catalog = setup(
      { baseUrl: "http://context7.invalid/api" },
      { policies: { "*": { retry: false } } },
    );
    const r = await catalog.call(
      "context7_resolve_library_id",
      { library_name: "react", query: "hooks" },
      session(),
    );
    expect(r.status).toBe("unavailable");
    expect(r.message).toMatch(/Could not resolve the host name|context7\.invalid/);
    expect(r.guidance).toBe(UNAVAILABLE_GUIDANCE);
  });

  it("a 5xx that clears before the retries run out is a success", async () => {
    emu.up.fault("GET", CONTEXT, { kind: "status", status: 502 }, { times: 1 });
    const catalog = setup();
    const r = await catalog.call(
      "context7_get_library_docs",
      { library_id: "/vercel/next.js", query: "middleware" },
      session(),
    );
    expect(r.status).toBe("success");
    expect(r.metadata.attempts).toBe(2);
  });

  it("after three failed calls the breaker opens: the next call is unavailable at once, without reaching Context7", async () => {
    emu.up.fault("GET", SEARCH, { kind: "status", status: 500 });
    const catalog = setup({}, { policies: { "*": { retry: false } } });
    for (let i = 0; i < 3; i++) {
      const r = await catalog.call(
        "context7_resolve_library_id",
        { library_name: `lib${i}`, query: "hooks" },
        session(),
      );
      expect(r.status).toBe("unavailable");
    }
    expect(emu.up.requestsTo("GET", SEARCH)).toHaveLength(3);
    // The breaker is keyed "context7": the documentation tools share it.
    const r = await catalog.call(
      "context7_search_documentation",
      { query: "middleware", library: "next.js" },
      session("fresh"),
    );
    expect(r.status).toBe("unavailable");
    expect(r.message).toMatch(/paused after repeated upstream failures/);
    expect(r.guidance).toBe(UNAVAILABLE_GUIDANCE);
    expect(r.error?.retryAfterMs).toBeGreaterThan(50_000);
    expect(emu.up.requestsTo("GET", SEARCH)).toHaveLength(3);
  });
});

describe("library not found", () => {
  it("a name that matches no library well is an error listing the closest names, and no documentation is fetched", async () => {
    const catalog = setup();
    const r = await catalog.call(
      "context7_search_documentation",
      { query: "login views", library: "flask-security-too" },
      session(),
    );
    expect(r.status).toBe("error");
    expect(r.error?.kind).toBe("invalid_input");
    expect(r.message).toBe('Context7 has no library named "flask-security-too".');
    expect(r.suggestion).toBe(
      "Closest Context7 libraries: Flask (/pallets/flask). Call again with the id of the one you mean.",
    );
    expect(r.guidance).toBe(NOT_FOUND_GUIDANCE);
    expect(emu.up.requestsTo("GET", CONTEXT)).toHaveLength(0);
  });

  it("with no result at all, looser names are searched for the suggestion", async () => {
    emu.up.route("GET", SEARCH, (req) => ({
      json: {
        results:
          req.query.get("libraryName") === "react-hooks-kit"
            ? [{ id: "/facebook/react", title: "React" }]
            : [],
        searchFilterApplied: false,
      },
    }));
    const catalog = setup();
    const r = await catalog.call(
      "context7_search_documentation",
      { query: "hooks", library: "react-hooks-kit v2" },
      session(),
    );
    expect(r.error?.kind).toBe("invalid_input");
    expect(r.suggestion).toContain("React (/facebook/react)");
    expect(emu.up.requestsTo("GET", SEARCH).map((q) => q.query.get("libraryName"))).toEqual([
      "react-hooks-kit v2",
      "react-hooks-kit",
    ]);
  });

  it("with nothing close, the suggestion says how to name the library", async () => {
    const catalog = setup();
    const r = await catalog.call(
      "context7_resolve_library_id",
      { library_name: "zzqqxx", query: "hooks" },
      session(),
    );
    expect(r.status).toBe("error");
    expect(r.error?.kind).toBe("invalid_input");
    expect(r.suggestion).toMatch(/published under/);
  });

  it("an unknown library id (404 library_not_found) is an error with the closest names", async () => {
    const catalog = setup();
    for (const [tool, input] of [
      ["context7_get_library_docs", { library_id: "/vercel/nextjs", query: "middleware" }],
      ["context7_search_documentation", { library: "/vercel/nextjs", query: "middleware" }],
    ] as const) {
      const r = await catalog.call(tool, input, session(tool));
      expect(r.status, tool).toBe("error");
      expect(r.error?.kind).toBe("invalid_input");
      expect(r.message).toContain('Library "/vercel/nextjs" not found');
      expect(r.suggestion).toContain("Next.js (/vercel/next.js)");
      expect(r.guidance).toBe(NOT_FOUND_GUIDANCE);
      expect(r.escalate).toBeUndefined();
    }
  });

  it("a typo close to a known name resolves to it", async () => {
    const catalog = setup();
    const r = await catalog.call(
      "context7_search_documentation",
      { query: "state hook", library: "reactt" },
      session(),
    );
    expect(r.status, r.message).toBe("success");
    expect((r.data as { library_id: string }).library_id).toBe("/facebook/react");
  });
});

describe("caching: library ids for days, documentation for hours", () => {
  it("declares the policies: ids 7 d, docs 6 h, one rate limit and one breaker keyed context7", () => {
    const catalog = setup();
    const resolve = catalog.describe("context7_resolve_library_id")!.policy;
    const docs = catalog.describe("context7_get_library_docs")!.policy;
    const search = catalog.describe("context7_search_documentation")!.policy;
    expect(resolve.cache?.ttlMs).toBe(7 * 24 * 3_600_000);
    expect(docs.cache?.ttlMs).toBe(6 * 3_600_000);
    expect(search.cache?.ttlMs).toBe(6 * 3_600_000);
    for (const p of [resolve, docs, search]) {
      expect(p.rateLimit).toMatchObject([
        { key: "context7", limit: 60, windowMs: 60_000, perPrincipal: false },
      ]);
      expect(p.breaker).toMatchObject({ key: "context7", failures: 3, openForMs: 60_000 });
      expect(p.fallback?.guidance).toBe(UNAVAILABLE_GUIDANCE);
    }
  });

  it("a resolved library id is reused for other questions about the same library", async () => {
    const catalog = setup();
    const a = await catalog.call(
      "context7_search_documentation",
      { query: "middleware", library: "next.js" },
      session(),
    );
    const b = await catalog.call(
      "context7_search_documentation",
      { query: "cookies in middleware", library: "Next.js" },
      session(),
    );
    expect(a.status).toBe("success");
    expect(b.status).toBe("success");
    expect(a.metadata.libraryIdCached).toBe(false);
    expect(b.metadata.libraryIdCached).toBe(true);
    expect(b.message).toContain("Library id from cache.");
    expect(b.metadata.cached).toBe(false);
    expect(emu.up.requestsTo("GET", SEARCH)).toHaveLength(1);
    expect(emu.up.requestsTo("GET", CONTEXT)).toHaveLength(2);
  });

  it("context7_resolve_library_id fills the same cache", async () => {
    const catalog = setup();
    await catalog.call("context7_resolve_library_id", { library_name: "react", query: "hooks" }, session());
    const r = await catalog.call(
      "context7_search_documentation",
      { query: "useState", library: "react" },
      session(),
    );
    expect(r.metadata.libraryIdCached).toBe(true);
    expect(emu.up.requestsTo("GET", SEARCH)).toHaveLength(1);
  });

  it("a cached id expires after libraryCacheTtl, on the catalog's clock", async () => {
    const time = await makeTestClock();
    const catalog = setup({ libraryCacheTtl: "1h" }, { clock: time.clock });
    await catalog.call("context7_search_documentation", { query: "one", library: "next.js" }, session());
    await time.advance(3_600_000);
    const kept = await catalog.call(
      "context7_search_documentation",
      { query: "two", library: "next.js" },
      session(),
    );
    expect(kept.metadata.libraryIdCached).toBe(true);
    await time.advance(1);
    const r = await catalog.call(
      "context7_search_documentation",
      { query: "three", library: "next.js" },
      session(),
    );
    expect(r.metadata.libraryIdCached).toBe(false);
    expect(emu.up.requestsTo("GET", SEARCH)).toHaveLength(2);
  });

  it("the same documentation question is answered from the cache", async () => {
    const catalog = setup();
    const input = { library_id: "/vercel/next.js", query: "middleware" };
    await catalog.call("context7_get_library_docs", input, session());
    const again = await catalog.call("context7_get_library_docs", input, session());
    expect(again.status).toBe("success");
    expect(again.metadata.cached).toBe(true);
    expect(emu.up.requestsTo("GET", CONTEXT)).toHaveLength(1);
  });
});

describe("rate limits", () => {
  it("one budget of 60 calls a minute for the whole plugin (key context7); the 61st call is rate_limited", async () => {
    const catalog = setup();
    for (let i = 0; i < 60; i++) {
      const r = await catalog.call(
        "context7_resolve_library_id",
        { library_name: "react", query: `q${i}` },
        session(),
      );
      expect(r.status, `call ${i}`).toBe("success");
    }
    const over = await catalog.call(
      "context7_resolve_library_id",
      { library_name: "react", query: "q60" },
      session(),
    );
    expect(over.status).toBe("error");
    expect(over.error?.kind).toBe("rate_limited");
    expect(over.error?.retryAfterMs).toBeGreaterThan(0);
    const docs = await catalog.call(
      "context7_get_library_docs",
      { library_id: "/facebook/react", query: "hooks" },
      session(),
    );
    expect(docs.error?.kind).toBe("rate_limited");
    expect(emu.up.requestsTo("GET", SEARCH)).toHaveLength(60);
    expect(emu.up.requestsTo("GET", CONTEXT)).toHaveLength(0);
  });

  it("Context7's 429 is retried after its Retry-After", async () => {
    emu.up.fault(
      "GET",
      SEARCH,
      { kind: "status", status: 429, retryAfter: 1, body: JSON.stringify({ error: "rate_limit_exceeded" }) },
      { times: 1 },
    );
    const time = await makeTestClock();
    const catalog = setup({}, { clock: time.clock });
    const started = time.now();
    const r = await time.advanceUntil(
      catalog.call("context7_resolve_library_id", { library_name: "react", query: "hooks" }, session()),
      50,
    );
    expect(r.status).toBe("success");
    expect(r.metadata.attempts).toBe(2);
    expect(emu.up.requestsTo("GET", SEARCH)).toHaveLength(2);
    // Time moves only in the test's steps: the retry waited for a full second of the catalog's clock.
    expect(time.now() - started).toBeGreaterThanOrEqual(1_000);
  });

  it("a Retry-After longer than the call's time budget is returned as rate_limited at once", async () => {
    emu.up.fault("GET", SEARCH, {
      kind: "status",
      status: 429,
      retryAfter: 120,
      body: JSON.stringify(RATE_LIMIT_BODY),
    });
    const catalog = setup();
    const r = await catalog.call(
      "context7_resolve_library_id",
      { library_name: "react", query: "hooks" },
      session(),
    );
    expect(r.status).toBe("error");
    expect(r.error).toMatchObject({ kind: "rate_limited", retryable: true, retryAfterMs: 120_000 });
    expect(r.message).toMatch(
      /rate_limit_exceeded: Rate limit exceeded\. Please try again later\.; retry after 120 s/,
    );
    expect(r.metadata.attempts).toBe(1);
  });
});

describe("Context7 HTTP details", () => {
  it("sends CONTEXT7_API_KEY as a Bearer token and keeps it out of every envelope", async () => {
    const key = "ctx7sk-test-0123456789abcdef";
    const catalog = setup({}, { env: { CONTEXT7_API_KEY: key } });
    const ok = await catalog.call(
      "context7_resolve_library_id",
      { library_name: "react", query: "hooks" },
      session(),
    );
    expect(ok.status).toBe("success");
    expect(emu.up.requestsTo("GET", SEARCH)[0]?.headers.authorization).toBe(`Bearer ${key}`);

    emu.up.fault("GET", CONTEXT, {
      kind: "status",
      status: 401,
      body: JSON.stringify({ error: "invalid_api_key", message: `Invalid API key ${key}` }),
    });
    const denied = await catalog.call(
      "context7_get_library_docs",
      { library_id: "/facebook/react", query: "hooks" },
      session(),
    );
    expect(denied.status).toBe("access_denied");
    expect(denied.error?.kind).toBe("access_denied");
    expect(denied.suggestion).toMatch(/Check CONTEXT7_API_KEY: Context7 keys start with "ctx7sk"/);
    expect(JSON.stringify(denied)).not.toContain("0123456789abcdef");
    expect(denied.message).toContain("[REDACTED]");
  });

  it("follows a library redirect (301 library_redirected) and says so", async () => {
    emu.up.route(
      "GET",
      CONTEXT,
      { status: 301, json: { ...(REDIRECT_BODY as object), redirectUrl: "/vercel/next.js" } },
      { query: { libraryId: "/zeit/next.js" } },
    );
    const catalog = setup();
    const r = await catalog.call(
      "context7_get_library_docs",
      { library_id: "/zeit/next.js", query: "middleware" },
      session(),
    );
    expect(r.status, r.message).toBe("success");
    expect(r.data).toMatchObject({ library_id: "/vercel/next.js", redirected_from: "/zeit/next.js" });
    expect(r.message).toContain("/zeit/next.js has moved to /vercel/next.js");
  });

  it("a library still being indexed (202) is an error that says to try later", async () => {
    emu.up.route("GET", CONTEXT, {
      status: 202,
      json: { error: "library_not_finalized", message: "Library is being processed" },
    });
    const catalog = setup();
    const r = await catalog.call(
      "context7_get_library_docs",
      { library_id: "/vercel/next.js", query: "middleware" },
      session(),
    );
    expect(r.status).toBe("error");
    expect(r.error).toMatchObject({ kind: "upstream", retryable: false });
    expect(r.message).toMatch(/still indexing/);
    expect(r.suggestion).toMatch(/few minutes/);
  });

  // type=json is asked for: a text/plain 200 is not the documentation (issue 25, item 5).
  it.each([
    ["Internal Server Error", "Internal Server Error"],
    ["a rate-limit notice", "Rate limit exceeded. Please try again later."],
    ["the txt rendering", CONTEXT_TXT],
  ])(
    "a text/plain 200 (%s) when JSON was asked for is an upstream fault, never the documentation",
    async (_name, text) => {
      emu.up.route("GET", CONTEXT, { text });
      const r = await nextDocs(setup({}, QUICK_RETRIES));
      expect(r.status, r.message).toBe("error");
      expect(r.error).toMatchObject({ kind: "upstream", retryable: true });
      expect(r.message).toMatch(/text\/plain instead of the JSON documentation/);
      expect(r.data).toBeUndefined();
      expect(r.metadata.upstreamStatus).toBe(200);
      expect(r.metadata.attempts).toBe(3);
    },
  );

  // 422 (docs/openapi.json UnprocessableEntityError, issue 25 item 6): a clear kind, not retried.
  it.each([
    ["noCode", "out_of_domain", /no or too few code snippets/, /another Context7 library/],
    ["tooLarge", "constraint_violation", /too large for it to process/, /Pin a version/],
  ] as const)("422 %s is %s with a fix, and is not retried", async (example, kind, message, suggestion) => {
    emu.up.route("GET", CONTEXT, documented("/v2/context", 422, example));
    const r = await nextDocs(setup({}, QUICK_RETRIES));
    expect(r.status, r.message).toBe("error");
    expect(r.error).toMatchObject({ kind, retryable: false });
    expect(r.message).toMatch(message);
    expect(r.suggestion).toMatch(suggestion);
    expect(r.metadata.upstreamStatus).toBe(422);
    expect(r.metadata.attempts).toBe(1);
    expect(emu.up.requestsTo("GET", CONTEXT)).toHaveLength(1);
  });

  // Every status docs/openapi.json documents for /v2/context, with its documented body.
  const EXPECTED: Record<number, string> = {
    202: "upstream",
    301: "upstream",
    400: "invalid_input",
    401: "access_denied",
    402: "access_denied",
    403: "access_denied",
    404: "invalid_input",
    422: "*",
    429: "rate_limited",
    500: "unavailable",
  };
  it.each(documentedStatuses("/v2/context").filter((d) => d.status !== 200))(
    "the documented answer %o is a failure of its own kind, never documentation",
    async ({ status, example }) => {
      emu.up.route("GET", CONTEXT, documented("/v2/context", status, example));
      const r = await nextDocs(setup({}, { policies: { "*": { retry: false } } }));
      expect(r.status, r.message).not.toBe("success");
      const kind = example === "noSnippetsFound" ? "out_of_domain" : EXPECTED[status];
      if (kind !== "*") expect(r.error?.kind, r.message).toBe(kind);
    },
  );

  it.each([
    ["an empty body", { kind: "emptyBody" }, /empty body/],
    [
      "an error object",
      { kind: "errorObject", message: "index unavailable" },
      /error instead of documentation.*index unavailable/,
    ],
    [
      "a bare error string",
      { kind: "status", status: 200, body: { error: "search_failed", message: "Search failed" } },
      /search_failed: Search failed/,
    ],
  ] as const)(
    "HTTP 200 with %s is an upstream fault with the real status, never out_of_domain",
    async (_name, fault, message) => {
      const catalog = setup({}, { policies: { "*": { retry: { times: 2, base: "10ms" } } } });
      emu.up.fault("GET", CONTEXT, fault);
      const r = await catalog.call(
        "context7_get_library_docs",
        { library_id: "/vercel/next.js", query: "middleware" },
        session(),
      );
      expect(r.status, r.message).toBe("error");
      expect(r.error).toMatchObject({ kind: "upstream", retryable: true });
      expect(r.message).toMatch(message);
      expect(r.metadata.upstreamStatus).toBe(200);
      expect(r.metadata.attempts).toBe(3);
      expect(r.suggestion).toMatch(/not a lack of documentation/);
    },
  );

  it("no documentation for the query (no snippets, or no_snippets_found) is out_of_domain with a hint", async () => {
    const catalog = setup();
    emu.up.route("GET", CONTEXT, { json: { codeSnippets: [], infoSnippets: [] } });
    const empty = await catalog.call(
      "context7_get_library_docs",
      { library_id: "/vercel/next.js", query: "quantum knitting" },
      session(),
    );
    expect(empty.error?.kind).toBe("out_of_domain");
    expect(empty.suggestion).toMatch(/concrete API/);
    expect(empty.metadata.upstreamStatus).toBe(200);
    emu.up.route("GET", CONTEXT, {
      status: 404,
      json: { error: "no_snippets_found", message: "No snippets found" },
    });
    const none = await catalog.call(
      "context7_get_library_docs",
      { library_id: "/vercel/next.js", query: "quantum crochet" },
      session(),
    );
    expect(none.error?.kind).toBe("out_of_domain");
  });

  it("infers the library from the question when none is named, and says it did", async () => {
    const catalog = setup();
    const r = await catalog.call(
      "context7_search_documentation",
      { query: "How do I use the useState hook in React?" },
      session(),
    );
    expect(r.status, r.message).toBe("success");
    expect((r.data as { library_id: string }).library_id).toBe("/facebook/react");
    expect(r.message).toMatch(/library inferred from the question/);
    expect(emu.up.requestsTo("GET", SEARCH)[0]?.query.get("libraryName")).toBe(
      "How do I use the useState hook in React?",
    );
  });

  it("when no library can be inferred, asks for one", async () => {
    const catalog = setup();
    const r = await catalog.call(
      "context7_search_documentation",
      { query: "what is the meaning of life" },
      session(),
    );
    expect(r.error?.kind).toBe("invalid_input");
    expect(r.suggestion).toMatch(/library set to/);
  });

  it("resolve_library_id lists candidates with scores and versions, best match first", async () => {
    const catalog = setup();
    const r = await catalog.call(
      "context7_resolve_library_id",
      { library_name: "react", query: "hooks" },
      session(),
    );
    expect(r.status).toBe("success");
    const data = r.data as { best: string; libraries: Array<Record<string, unknown>> };
    expect(data.best).toBe("/facebook/react");
    expect(data.libraries[0]).toEqual({
      id: "/facebook/react",
      title: "React",
      description: "A JavaScript library for building user interfaces",
      trust_score: 10,
      benchmark_score: 95.5,
      snippets: 2500,
      versions: ["v18.2.0", "v17.0.2"],
      last_updated: "2025-01-15T10:30:00.000Z",
      state: "finalized",
    });
    expect(emu.up.requestsTo("GET", SEARCH)[0]?.query.get("query")).toBe("hooks");
  });
});

describe("what the model is told", () => {
  it("resolving needs the task (query), which Context7 ranks the candidates by", async () => {
    const r = await setup().call("context7_resolve_library_id", { library_name: "react" }, session());
    expect(r.error?.kind).toBe("invalid_input");
    expect(emu.up.requests).toHaveLength(0);
  });

  it("the official server's names (alias set context7-mcp) map onto the tools' own parameters", () => {
    const catalog = setup();
    const [official] = catalog.plugins()[0]?.slots?.aliasSets ?? [];
    expect(official?.tools.map((a) => [a.alias, Object.keys(a.parameters ?? {})])).toEqual([
      ["resolve-library-id", ["libraryName", "query"]],
      ["query-docs", ["libraryId", "query"]],
    ]);
    for (const alias of official?.tools ?? []) {
      const schema = catalog.describe(alias.tool)?.inputSchema as { properties: object; required: string[] };
      expect(Object.values(alias.parameters ?? {}).sort()).toEqual(Object.keys(schema.properties).sort());
      expect(schema.required.sort()).toEqual(Object.keys(schema.properties).sort());
    }
  });
});

describe("an injected transport", () => {
  it("an injected docsClient replaces the HTTP transport; its plain errors count as unavailable", async () => {
    let fail = false;
    const docsClient = {
      searchLibraries: async () => [{ id: "/facebook/react", title: "React" }],
      getContext: async ({ libraryId }: { libraryId: string }) => {
        if (fail) throw new Error("socket hang up");
        return {
          libraryId,
          text: "### useState\n\nSource: https://react.dev/reference/react/useState\n\n...",
          sources: [{ url: "https://react.dev/reference/react/useState" }],
        };
      },
    };
    const catalog = setup({}, {}, createContext7Plugin({ docsClient }));
    const r = await catalog.call(
      "context7_search_documentation",
      { query: "useState", library: "react" },
      session(),
    );
    expect(r.status).toBe("success");
    expect(r.data).toMatchObject({
      library_id: "/facebook/react",
      sources: [{ url: "https://react.dev/reference/react/useState" }],
    });
    fail = true;
    const down = await catalog.call(
      "context7_get_library_docs",
      { library_id: "/facebook/react", query: "useEffect" },
      session(),
    );
    expect(down.status).toBe("unavailable");
    expect(down.message).toMatch(/injected transport\) failed: socket hang up/);
    expect(emu.up.requests).toHaveLength(0);
  });
});

describe("health", () => {
  it("reports ok when a library search answers, and a fix when Context7 is unreachable", async () => {
    const ok = setup();
    expect(await ok.health("context7")).toMatchObject({
      ok: true,
      message: expect.stringMatching(/anonymously/),
    });
    const down = setup({ baseUrl: await closedUrl() });
    const report = await down.health("context7");
    expect(report.ok).toBe(false);
    expect(report.message).toMatch(/refused the connection/);
    expect(report.fix).toBeTruthy();
  });
});

describe("every documented /v2/libs/search answer", () => {
  const EXPECTED: Record<number, string> = {
    400: "invalid_input",
    401: "access_denied",
    402: "access_denied",
    404: "invalid_input",
    429: "rate_limited",
    500: "unavailable",
    503: "unavailable",
  };
  it.each(documentedStatuses("/v2/libs/search").filter((d) => d.status !== 200))(
    "%o is a failure of its own kind, never a list of libraries",
    async ({ status, example }) => {
      emu.up.route("GET", SEARCH, documented("/v2/libs/search", status, example));
      const r = await setup({}, { policies: { "*": { retry: false } } }).call(
        "context7_resolve_library_id",
        { library_name: "react", query: "hooks" },
        session(),
      );
      expect(r.status, r.message).not.toBe("success");
      expect(r.error?.kind, r.message).toBe(EXPECTED[status]);
    },
  );
});

describe("the Context7 emulator refuses what the API refuses (docs/openapi.json parameters)", () => {
  const get = (path: string) =>
    fetch(`${emu.up.url}/api${path}`).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as { error?: string; message?: unknown },
    }));
  it.each([
    ["/v2/libs/search?query=hooks", "validation_error"],
    ["/v2/libs/search?libraryName=react", "validation_error"],
    [`/v2/libs/search?libraryName=react&query=${"q".repeat(501)}`, "validation_error"],
    ["/v2/libs/search?libraryName=react&query=hooks&fast=yes", "validation_error"],
    ["/v2/context?query=middleware", "validation_error"],
    ["/v2/context?libraryId=%2Fvercel%2Fnext.js", "validation_error"],
    ["/v2/context?libraryId=vercel%2Fnext.js&query=middleware", "invalid_library_id"],
    ["/v2/context?libraryId=%2Fnext.js&query=middleware", "invalid_library_id"],
    ["/v2/context?libraryId=%2Fvercel%2Fnext.js&query=middleware&type=xml", "validation_error"],
  ])("GET %s → 400 %s", async (path, error) => {
    const r = await get(path);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error });
    expect(typeof r.body.message).toBe("string");
  });

  it("answers the plugin's own requests (which it would refuse otherwise)", async () => {
    const catalog = setup();
    const r = await catalog.call(
      "context7_search_documentation",
      { query: `middleware ${"x".repeat(489)}`, library: "next.js" },
      session(),
    );
    expect(r.status, r.message).toBe("success");
    for (const req of emu.up.requests) expect(req.path).toMatch(/^\/api\/v2\//);
  });
});
