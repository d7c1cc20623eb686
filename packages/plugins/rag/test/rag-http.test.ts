import {
  closedUrl,
  describeFaultMatrix,
  describePluginConformance,
  describePluginPackage,
  startEmulator,
  useCatalog,
  usePluginOnEmulator,
} from "@quiver/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import ragDefault, { createRagPlugin, type RagOutput } from "../src/index.js";

const { up, catalog } = usePluginOnEmulator({
  plugin: createRagPlugin,
  start: startEmulator,
  options: (up) => ({ serviceUrl: up.url }),
  catalog: { env: {} },
});
afterEach(() => up.reset());
const makeCatalog = useCatalog();

const ORIGINAL = {
  query: "q",
  total_results: 2,
  results: [
    {
      content: "La evaluación ordinaria consta de un examen final (50%) y prácticas (50%).",
      metadata: { source: "guia.pdf", asignatura: "metaheuristicas" },
      score: 0.83,
    },
    {
      content: "Los algoritmos genéticos mantienen una población.",
      metadata: { source: "tema5.pdf", asignatura: "metaheuristicas" },
      score: 0.41,
    },
  ],
};

describePluginPackage(new URL("..", import.meta.url));
describePluginConformance(ragDefault, {
  options: () => {
    up.route("POST", "/search", { json: ORIGINAL });
    return { serviceUrl: up.url };
  },
  downOptions: async () => ({ serviceUrl: await closedUrl() }),
});

const open = (options: Record<string, unknown> = {}) => catalog(options);
const data = (r: { data?: unknown }) => r.data as RagOutput;

describe("rag_search over an HTTP RAG service", () => {
  it("POSTs {query, asignatura, tipo_documento, top_k} to {RAG_SERVICE_URL}/search with the key, and returns the original's shape", async () => {
    up.route("POST", "/search", { json: ORIGINAL });
    const r = await open({ apiKey: "rag-key-123456789" }).call("rag_search", {
      query: "¿cómo se evalúa?",
      asignatura: "metaheuristicas",
      tipo_documento: "guia_docente",
      top_k: 2,
    });
    expect(r.status, r.message).toBe("success");
    expect(data(r)).toEqual({
      query: "q",
      total_results: 2,
      results: [
        {
          content: ORIGINAL.results[0]!.content,
          metadata: { source: "guia.pdf", asignatura: "metaheuristicas" },
          score: 0.83,
        },
        {
          content: ORIGINAL.results[1]!.content,
          metadata: { source: "tema5.pdf", asignatura: "metaheuristicas" },
          score: 0.41,
        },
      ],
    });
    const [sent] = up.requestsTo("POST", "/search");
    expect(sent?.json).toEqual({
      query: "¿cómo se evalúa?",
      asignatura: "metaheuristicas",
      tipo_documento: "guia_docente",
      top_k: 2,
    });
    expect(sent?.headers.authorization).toBe("Bearer rag-key-123456789");
    expect(r.message).toBe(
      'Found 2 passages for "¿cómo se evalúa?" in subject metaheuristicas, type guia_docente.',
    );
    expect(r.metadata.source).toBe(`RAG service ${up.url}`);
  });

  it("a base URL with a path and a trailing slash still reaches /search under it", async () => {
    up.route("POST", "/rag/search", { json: ORIGINAL });
    const r = await open({ serviceUrl: `${up.url}/rag/` }).call("rag_search", { query: "x" });
    expect(r.status, r.message).toBe("success");
  });

  it("Qdrant's points/query answer is normalised", async () => {
    up.route("POST", "/search", {
      json: {
        result: {
          points: [
            {
              id: 1,
              version: 0,
              score: 0.9,
              payload: { text: "Q", metadata: { source: "q.md", asignatura: "mac" } },
            },
          ],
        },
        status: "ok",
        time: 0.001,
      },
    });
    const r = await open().call("rag_search", { query: "x" });
    expect(data(r).results).toEqual([
      { content: "Q", metadata: { source: "q.md", asignatura: "mac" }, score: 0.9 },
    ]);
  });

  it("default top_k is 5 (RAG_TOP_K changes it)", async () => {
    up.route("POST", "/search", { json: ORIGINAL });
    await open().call("rag_search", { query: "x" });
    await open({ defaultTopK: 8 }).call("rag_search", { query: "x" });
    expect(up.requestsTo("POST", "/search").map((r) => (r.json as { top_k: number }).top_k)).toEqual([5, 8]);
  });

  it("no results: success with a message saying the material does not cover it", async () => {
    up.route("POST", "/search", { json: { results: [] } });
    const r = await open().call("rag_search", { query: "astrofísica" });
    expect(r.status).toBe("success");
    expect(r.message).toBe('No course material matches "astrofísica".');
  });
});

// Issue 25 item 7: under HTTP 200, only a real list of results (even an empty one) is an answer.
describe("a 200 that is not a list of results is an upstream error, never 'no material'", () => {
  const unusable = [
    "null",
    "{}",
    '"ok"',
    "true",
    "0",
    '{"results":null}',
    '{"status":"ok"}',
    '{"message":"Service Unavailable"}',
    '{"result":[{"id":4,"score":1.362,"payload":null,"version":0}],"status":"ok","time":0.0001}',
  ];
  it.each(unusable)("%s: error, kind upstream, naming the service", async (body) => {
    up.route("POST", "/search", { body, headers: { "content-type": "application/json" } });
    const r = await open().call("rag_search", { query: "algoritmos genéticos" });
    expect(r.status, r.message).toBe("error");
    expect(r.error?.kind).toBe("upstream");
    expect(r.message).toContain(`The RAG service at ${up.url} answered HTTP 200`);
    expect(r.message).not.toContain("No course material");
    expect(r.data).toBeUndefined();
  });

  const empty = [
    '{"results":[]}',
    "[]",
    '{"result":{"points":[]},"status":"ok","time":0.0001}',
    '{"result":[],"status":"ok","time":0.0001}',
    '{"hits":{"total":{"value":0},"hits":[]}}',
    '{"ids":[[]],"documents":[[]],"metadatas":[[]],"distances":[[]]}',
  ];
  it.each(empty)("%s: a real empty list is success with no material", async (body) => {
    up.route("POST", "/search", { body, headers: { "content-type": "application/json" } });
    const r = await open().call("rag_search", { query: "astrofísica" });
    expect(r.status, r.message).toBe("success");
    expect(data(r).results).toEqual([]);
    expect(r.message).toBe('No course material matches "astrofísica".');
  });
});

describe("the session's asignatura", () => {
  it("default mode: fills the filter when the model leaves it out; an explicit value wins", async () => {
    up.route("POST", "/search", { json: ORIGINAL });
    const c = open();
    await c.call(
      "rag_search",
      { query: "x" },
      { session: { id: "s", values: { asignatura: "metaheuristicas" } } },
    );
    await c.call(
      "rag_search",
      { query: "x", asignatura: "mac" },
      { session: { id: "s", values: { asignatura: "metaheuristicas" } } },
    );
    await c.call("rag_search", { query: "x" });
    expect(
      up.requestsTo("POST", "/search").map((r) => (r.json as { asignatura?: string }).asignatura),
    ).toEqual(["metaheuristicas", "mac", undefined]);
    expect(
      Object.keys((c.describe("rag_search", "openai")!.inputSchema as { properties: object }).properties),
    ).toContain("asignatura");
  });

  it("override mode: hidden from the model and the session value always wins", async () => {
    up.route("POST", "/search", { json: ORIGINAL });
    const c = makeCatalog({ env: {} });
    c.register(createRagPlugin({ sessionAsignatura: "override" }), { serviceUrl: up.url });
    expect(
      Object.keys((c.describe("rag_search", "openai")!.inputSchema as { properties: object }).properties),
    ).not.toContain("asignatura");
    await c.call(
      "rag_search",
      { query: "x", asignatura: "mac" },
      { session: { values: { asignatura: "metaheuristicas" } } },
    );
    expect((up.requestsTo("POST", "/search")[0]!.json as { asignatura: string }).asignatura).toBe(
      "metaheuristicas",
    );
  });
});

describe("timeout, connection refused and bad status are distinct errors", () => {
  it("timeout: status timeout, kind timeout, a message about the deadline", async () => {
    up.fault("POST", "/search", { kind: "hang" });
    const r = await open({ timeoutMs: 250 }).call("rag_search", { query: "x" });
    expect(r.status).toBe("timeout");
    expect(r.error?.kind).toBe("timeout");
    expect(r.message).toContain(`The RAG service at ${up.url} did not answer within 250 ms`);
    expect(r.suggestion).toContain("RAG_TIMEOUT_MS");
  });

  it("connection refused: status unavailable, kind unavailable, pointing at RAG_SERVICE_URL, with fallback guidance", async () => {
    const down = await closedUrl();
    const r = await open({ serviceUrl: down }).call("rag_search", { query: "x" });
    expect(r.status).toBe("unavailable");
    expect(r.error?.kind).toBe("unavailable");
    expect(r.message).toContain(`Cannot connect to the RAG service at ${down}`);
    expect(r.suggestion).toContain("RAG_SERVICE_URL");
    expect(r.guidance).toContain("could not check the course material");
  });

  it("bad status (500): status error, kind upstream, naming the status; retried twice", async () => {
    up.fault("POST", "/search", { kind: "status", status: 500 });
    const r = await open().call("rag_search", { query: "x" });
    expect(r.status).toBe("error");
    expect(r.error?.kind).toBe("upstream");
    expect(r.message).toContain("answered with a bad status (HTTP 500)");
    expect(r.metadata.attempts).toBe(3);
  });

  it("a 503 twice, then OK: the policy's third attempt answers", async () => {
    up.route("POST", "/search", { json: ORIGINAL });
    up.fault("POST", "/search", { kind: "status", status: 503 }, { times: 2 });
    const r = await open().call("rag_search", { query: "x" });
    expect(r.status, r.message).toBe("success");
    expect(r.metadata.attempts).toBe(3);
  });

  it("a 503 that persists: unavailable and retryable, not a connection problem", async () => {
    up.fault("POST", "/search", { kind: "status", status: 503 });
    const r = await open().call("rag_search", { query: "x" });
    expect(r.status).toBe("unavailable");
    expect(r.error).toMatchObject({ kind: "unavailable", retryable: true });
    expect(r.message).toContain(`The RAG service at ${up.url} is unavailable`);
    expect(r.message).not.toContain("Cannot connect");
    expect(r.suggestion).not.toContain("RAG_SERVICE_URL");
    expect(r.metadata.attempts).toBe(3);
  });

  it.each([
    ["an error object", { kind: "errorObject", message: "collection not loaded" }, /collection not loaded/],
    ["FastAPI's detail", { kind: "status", status: 200, body: { detail: "index missing" } }, /index missing/],
  ] as const)("HTTP 200 with %s is an upstream error, never 0 results", async (_name, fault, message) => {
    up.fault("POST", "/search", fault);
    const r = await open().call("rag_search", { query: "evaluación" });
    expect(r.status, r.message).toBe("error");
    expect(r.error).toMatchObject({ kind: "upstream", retryable: true });
    expect(r.message).toMatch(message);
    expect(r.message).toContain("answered HTTP 200 with an error instead of results");
    expect(r.message).not.toContain("unusable answer");
    expect(r.suggestion).toContain("not an empty result");
  });

  it("oversized response headers: upstream, never retried, not a connection problem", async () => {
    up.route("POST", "/search", { json: ORIGINAL });
    const fault = up.fault("POST", "/search", { kind: "oversizedHeaders" });
    const r = await open().call("rag_search", { query: "x" });
    expect(r.status).toBe("error");
    expect(r.error).toMatchObject({ kind: "upstream", retryable: false });
    expect(r.message).not.toContain("UND_ERR");
    expect(r.message).not.toContain("Cannot connect");
    expect(r.suggestion).toBeTruthy();
    expect(fault.hits).toBe(1);
  });

  it("a gzip-encoded answer is decoded", async () => {
    up.route("POST", "/search", { json: ORIGINAL });
    up.fault("POST", "/search", { kind: "encoded", encoding: "gzip" });
    const r = await open().call("rag_search", { query: "x" });
    expect(r.status, r.message).toBe("success");
    expect(data(r).results).toHaveLength(2);
  });

  it("a 503 once then OK: the retry answers", async () => {
    up.route("POST", "/search", { json: ORIGINAL });
    up.fault("POST", "/search", { kind: "status", status: 503 }, { times: 1 });
    const r = await open().call("rag_search", { query: "x" });
    expect(r.status).toBe("success");
    expect(r.metadata.attempts).toBe(2);
  });

  it("404: not retried, and the suggestion says RAG_SERVICE_URL is wrong", async () => {
    const r = await open().call("rag_search", { query: "x" });
    expect(r.error?.kind).toBe("upstream");
    expect(r.error?.retryable).toBe(false);
    expect(r.message).toContain("has no /search endpoint (HTTP 404)");
    expect(r.metadata.attempts).toBe(1);
  });

  it("429: rate_limited with the Retry-After delay", async () => {
    up.fault("POST", "/search", { kind: "status", status: 429, retryAfter: 7 });
    const r = await catalog({}, { policies: { rag_search: { retry: false } } }).call("rag_search", {
      query: "x",
    });
    expect(r.error?.kind).toBe("rate_limited");
    expect(r.error?.retryAfterMs).toBe(7000);
  });

  it("401: access_denied naming RAG_API_KEY, and the key is redacted", async () => {
    up.fault("POST", "/search", {
      kind: "status",
      status: 401,
      body: { error: "bad key rag-key-abcdefghi" },
    });
    const r = await open({ apiKey: "rag-key-abcdefghi" }).call("rag_search", { query: "x" });
    expect(r.status).toBe("access_denied");
    expect(`${r.message} ${r.suggestion}`).toContain("RAG_API_KEY");
    expect(JSON.stringify(r)).not.toContain("rag-key-abcdefghi");
  });

  it("400: invalid_input with the service's own message", async () => {
    up.fault("POST", "/search", { kind: "status", status: 400, body: { detail: "top_k too large" } });
    const r = await open().call("rag_search", { query: "x" });
    expect(r.error?.kind).toBe("invalid_input");
    expect(r.message).toContain("top_k too large");
  });
});

describe("every other fault kind", () => {
  beforeEach(() => {
    up.route("POST", "/search", { json: ORIGINAL });
  });

  describeFaultMatrix({
    name: "the matrix on POST /search",
    emulator: () => up,
    plugin: createRagPlugin,
    // The service's own deadline (1 s) ends a body that trickles in, before the policy's.
    settings: () => ({ serviceUrl: up.url, timeoutMs: 1_000 }),
    policy: { timeout: "3s", retry: { times: 2, base: "10ms" } },
    calls: [{ method: "POST", path: "/search", tool: "rag_search", input: { query: "x" } }],
    faults: {
      slowBody: { kind: "slowBody", chunkBytes: 8, intervalMs: 100 },
      status: { kind: "status", status: 503 },
      htmlError: { kind: "htmlError", status: 502 },
      oversized: { kind: "oversized", bytes: 8 * 1024 * 1024 },
    },
    expect: {
      delay: { status: "success" },
      hang: { status: "timeout", kind: "timeout" },
      slowBody: { status: "timeout", kind: "timeout" },
      reset: {
        status: "unavailable",
        kind: "unavailable",
        check: (r) => {
          expect(r.message).not.toContain("Cannot connect");
          expect(r.suggestion).toBeTruthy();
        },
      },
      status: { status: "unavailable", kind: "unavailable", retryable: true },
      invalidJson: { status: "error", kind: "upstream", message: /sent an unusable answer/ },
      htmlError: { status: "error", kind: "upstream", message: /HTTP 502/ },
      oversized: { status: "error", kind: "upstream" },
      wrongContentType: { status: "success", check: (r) => expect(data(r).results).toHaveLength(2) },
    },
  });

  it("reset mid-body: an error envelope, retryable", async () => {
    up.fault("POST", "/search", { kind: "reset", phase: "midBody" });
    const mid = await open().call("rag_search", { query: "x" });
    expect(["unavailable", "error"]).toContain(mid.status);
    expect(mid.error?.retryable).toBe(true);
  });
});

describe("settings", () => {
  it("RAG_BACKEND=http without RAG_SERVICE_URL: unconfigured, naming the variable", async () => {
    const catalog = makeCatalog({ env: { RAG_BACKEND: "http" } });
    catalog.register(createRagPlugin());
    expect(catalog.plugins()[0]).toMatchObject({ status: "unconfigured", missing: ["RAG_SERVICE_URL"] });
  });

  it("RAG_SERVICE_URL from the environment selects the http backend", async () => {
    up.route("POST", "/search", { json: ORIGINAL });
    const catalog = makeCatalog({ env: { RAG_SERVICE_URL: up.url } });
    catalog.register(createRagPlugin());
    expect((await catalog.call("rag_search", { query: "x" })).status).toBe("success");
  });

  it("health: ok when the service answers, not ok when it is down", async () => {
    up.route("POST", "/search", { json: ORIGINAL });
    expect((await open().health("rag")).ok).toBe(true);
    expect((await open({ serviceUrl: await closedUrl() }).health("rag")).ok).toBe(false);
  });
});
