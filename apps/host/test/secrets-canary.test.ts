import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MATRIX_FAULTS, MATRIX_ROWS } from "./fault-matrix/cases.js";
import { type MatrixRun, runMatrix } from "./fault-matrix/run-matrix.js";
import { tracedCalls } from "./fault-matrix/traced-calls.js";

// Issue 13 item 5: a canary API key configured for every plugin that takes one never appears in any
// envelope, log line, metric, error, console API answer or cassette, across the whole fault matrix
// (run with --record). The bearer tokens of the host and guia's MongoDB password are canaries too.

/** Every canary contains this marker, so a partial leak (a prefix, a masked key) is caught too. */
const MARK = "qcanary7f3a";
const KEYS = {
  CONTEXT7_API_KEY: `ctx7sk-${MARK}-context7-91d0`,
  PERPLEXITY_API_KEY: `pplx-${MARK}-perplexity-5b2c`,
  RAG_API_KEY: `${MARK}-rag-service-0e4d`,
  LLM_API_KEY: `sk-${MARK}-llm-77aa`,
  OPENFDA_API_KEY: `${MARK}-openfda-31f6`,
  MONGODB_URI: `mongodb://quiver:${MARK}-mongo-password@127.0.0.1:9/quiver`,
};
const CANARIES = [
  ...Object.values(KEYS).map((k) => (k.startsWith("mongodb:") ? `${MARK}-mongo-password` : k)),
  MARK,
];

let run: MatrixRun;
let cassetteDir: string;
/** Every version of every cassette seen after a case (a later case of the same call overwrites it). */
const cassetteTexts = new Map<string, string>();

const readCassettes = (tool?: string) => {
  const dir = tool === undefined ? cassetteDir : join(cassetteDir, tool);
  if (!existsSync(dir)) return;
  for (const f of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    if (!f.endsWith(".json")) continue;
    const text = readFileSync(join(dir, f), "utf8");
    cassetteTexts.set(
      `${tool ?? ""}/${f} #${createHash("sha256").update(text).digest("hex").slice(0, 8)}`,
      text,
    );
  }
};
beforeAll(async () => {
  cassetteDir = mkdtempSync(join(tmpdir(), "quiver-canary-cassettes-"));
  run = await runMatrix({
    keys: KEYS,
    tokenPrefix: `${MARK}-token`,
    serveArgs: ["--record", cassetteDir],
    // guia with an unreachable MongoDB: its connection error must not carry the password.
    extraCalls: [{ tool: "guia_get_guide", input: { asignatura: "metaheuristicas", key: "evaluación" } }],
    extraGets: ["/console/api/stats", "/console/api/state", "/tools"],
    afterCase: (row) => readCassettes(row.tool),
    // Cancelled at shutdown, logged with their envelopes' messages (openFDA's URL carries its key).
    inflightAtShutdown: ["fda search (drugsfda)", "perplexity search"],
    // The same calls over MCP: the text summary and structuredContent of each failure.
    mcpFaults: [
      { kind: "status", status: 401 },
      { kind: "htmlError", status: 502 },
    ],
    env: { QUIVER_SHUTDOWN_TIMEOUT: "300ms" },
  });
  readCassettes();
  const guia = JSON.parse(run.extras[0] ?? "{}") as { status?: string; message?: string };
  console.log(
    `secrets canary: ${run.results.filter((r) => r.envelope).length} matrix calls, ${run.bodies.length} API answers, ` +
      `${run.stdout.length + run.stderr.length} bytes of serve output, ${run.metrics.length} bytes of /metrics, ` +
      `${run.mcpAnswers} MCP answers, ${cassetteTexts.size} cassette versions, ${run.upstreams.elsewhere.requests.length} requests to the other host; ` +
      `guia with an unreachable MongoDB: ${guia.status} (${guia.message})`,
  );
}, 300_000);
afterAll(async () => {
  await run?.upstreams.close();
  if (cassetteDir) rmSync(cassetteDir, { recursive: true, force: true });
});

/** The canaries found in a text, with some context around the first. */
const leaks = (text: string): string[] =>
  CANARIES.filter((c) => text.includes(c)).map((c) => {
    const at = text.indexOf(c);
    return `${c} in …${text.slice(Math.max(0, at - 80), at + c.length + 40)}…`;
  });

describe("secrets canary across the fault matrix", () => {
  it("ran the whole matrix with the canary keys and the upstreams received them", () => {
    expect(run.results.length).toBe(MATRIX_ROWS.length * MATRIX_FAULTS.length);
    const sent = (
      up: { requests: ReadonlyArray<{ headers: Record<string, unknown>; query: URLSearchParams }> },
      key: string,
    ) => up.requests.some((r) => JSON.stringify(r.headers).includes(key) || r.query.toString().includes(key));
    expect(sent(run.upstreams.context7, KEYS.CONTEXT7_API_KEY)).toBe(true);
    expect(sent(run.upstreams.perplexity, KEYS.PERPLEXITY_API_KEY)).toBe(true);
    expect(sent(run.upstreams.rag, KEYS.RAG_API_KEY)).toBe(true);
    expect(sent(run.upstreams.llm, KEYS.LLM_API_KEY)).toBe(true);
    expect(sent(run.upstreams.fda, KEYS.OPENFDA_API_KEY)).toBe(true);
    // The detector itself finds the keys where they belong: in what the upstreams received.
    const received = run.upstreams.all.flatMap((u) =>
      u.requests.map((r) => `${r.query} ${JSON.stringify(r.headers)}`),
    );
    expect(received.flatMap(leaks).length).toBeGreaterThan(0);
  });

  it("no envelope, error message, API or MCP answer carries a canary", () => {
    expect(run.mcpAnswers).toBe(MATRIX_ROWS.length * 2);
    expect(run.bodies.length).toBeGreaterThan(run.results.filter((r) => r.envelope).length);
    expect(run.bodies.flatMap(leaks)).toEqual([]);
  });

  it("no log line of the serve process carries a canary", () => {
    expect(run.stderr).toContain("recording every tool call to");
    expect(run.stderr).toContain("cancelled fda_search_drugs");
    expect(leaks(run.stdout)).toEqual([]);
    expect(leaks(run.stderr)).toEqual([]);
  });

  it("/metrics carries no canary", () => {
    expect(run.metrics).toContain("quiver_tool_calls_total");
    expect(leaks(run.metrics)).toEqual([]);
  });

  it("no cassette recorded with --record carries a canary", () => {
    // Each case's cassette is read right after its call, before a later case of the same call overwrites it.
    expect(cassetteTexts.size).toBeGreaterThan(MATRIX_ROWS.length * 5);
    expect([...cassetteTexts].flatMap(([file, text]) => leaks(text).map((l) => `${file}: ${l}`))).toEqual([]);
  });

  it("a redirect to another host never takes a key there", () => {
    const seen = run.upstreams.elsewhere.requests.map(
      (r) => `${r.path}?${r.query} ${JSON.stringify(r.headers)}`,
    );
    expect(seen.flatMap(leaks)).toEqual([]);
  });
});

describe("secrets canary in spans (in process: quiver serve installs no tracer)", () => {
  it("no span of a call under a fault (name, attributes, events, exit) carries a canary", async () => {
    const traced = await tracedCalls(run.upstreams, KEYS);
    console.log(`secrets canary, spans: ${traced.calls} calls under faults, ${traced.spans.length} spans`);
    expect(traced.spans.length).toBeGreaterThanOrEqual(traced.calls);
    expect(traced.spans.flatMap(leaks)).toEqual([]);
  }, 120_000);
});
