import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addPapers } from "../../../packages/adapters/test/seeds/co-scientist-fixtures.js";
import { recordedEntry } from "../../../packages/plugins/alphafold/test/support/afdb-emulator.js";
import { P04637_SEQUENCE, pluginSettings, startUpstreams, type Upstreams } from "./fault-matrix/upstreams.js";
import { makeProject, type Project, type ServeProcess, startServe } from "./helpers.js";

// The AI co-scientist's External Tools Interface against `quiver serve --profile co-scientist`, over
// real sockets: AlphaFold DB, UniParc and openFDA emulated from the plugins' recorded answers, the
// scientist's repository filled with the plugin's own `add` command. Each request is in the spec's
// own shape (tool_type, tool_name, query, constraints, timeout_seconds) and each answer is checked
// against the spec's ExternalToolResponse, field by field.

const KEYS = {
  CONTEXT7_API_KEY: "c7-test",
  PERPLEXITY_API_KEY: "pplx-test",
  RAG_API_KEY: "rag-test",
  LLM_API_KEY: "llm-test",
  OPENFDA_API_KEY: "fda-test",
  MONGODB_URI: "mongodb://127.0.0.1:9/none",
};

let up: Upstreams;
let dir: string;
let project: Project;
let serve: ServeProcess;

beforeAll(async () => {
  up = await startUpstreams(KEYS);
  dir = mkdtempSync(join(tmpdir(), "quiver-co-scientist-host-"));
  expect(await addPapers(dir)).toBe(0);
  const settings = pluginSettings(up, KEYS);
  project = makeProject({
    workspace: ["@quiver/plugin-alphafold", "@quiver/plugin-fda", "@quiver/plugin-private-repo"],
    config: {
      name: "quiver.config.json",
      text: JSON.stringify({
        profile: "co-scientist",
        principal: "scientist-1",
        plugins: {
          fda: { options: settings.options.fda },
          alphafold: { options: settings.options.alphafold },
          "private-repo": { options: { indexPath: join(dir, "repo") } },
        },
      }),
    },
  });
  serve = await startServe([], { cwd: project.dir, env: { OPENFDA_API_KEY: KEYS.OPENFDA_API_KEY } });
}, 60_000);
afterAll(async () => {
  serve?.child.kill("SIGTERM");
  await serve?.exited;
  project?.cleanup();
  await up?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const execute = async (request: unknown) => {
  const res = await fetch(`${serve.url}/external-tools/execute`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(request),
  });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  return (await res.json()) as Record<string, any>;
};

const RESPONSE_KEYS = ["cached", "metadata", "results", "status", "tool_name"];

describe("POST /external-tools/execute: the spec's four scenarios", () => {
  it("protein query: AlphaFold answers confidence_scores (overall, per_residue) and PDB text", async () => {
    const r = await execute({
      tool_type: "SPECIALIZED_MODEL",
      tool_name: "AlphaFold",
      query: { sequence: P04637_SEQUENCE, structure_type: "pdb" },
    });
    expect(Object.keys(r).sort()).toEqual(RESPONSE_KEYS);
    expect(r.status, JSON.stringify(r.metadata)).toBe("SUCCESS");
    expect(r.tool_name).toBe("AlphaFold");
    expect(r.cached).toBe(false);
    expect(typeof r.results.confidence_scores.overall).toBe("number");
    expect(r.results.confidence_scores.per_residue).toHaveLength(P04637_SEQUENCE.length);
    expect(r.results.structure_data).toMatch(/^ATOM |\nATOM /);
    // Identical queries are cached.
    const again = await execute({
      tool_type: "SPECIALIZED_MODEL",
      tool_name: "AlphaFold",
      query: { sequence: P04637_SEQUENCE, structure_type: "pdb" },
    });
    expect(again.cached).toBe(true);
    expect(again.results).toEqual(r.results);
  });

  it("FDA query with an approval-year constraint {after: 2010}: DatabaseResult, every match after 2010", async () => {
    const r = await execute({
      tool_type: "SCIENTIFIC_DATABASE",
      tool_name: "FDA_Drug_Database",
      query: { search_criteria: { active_ingredient: "semaglutide" }, max_results: 20 },
      constraints: { approval_year: { after: 2010 } },
    });
    expect(Object.keys(r).sort()).toEqual(RESPONSE_KEYS);
    expect(r.status, JSON.stringify(r.metadata)).toBe("SUCCESS");
    expect(Object.keys(r.results).sort()).toEqual(["matches", "query_constraints_met", "total_count"]);
    expect(r.results.query_constraints_met).toBe(true);
    expect(r.results.total_count).toBeGreaterThanOrEqual(r.results.matches.length);
    expect(r.results.matches.length).toBeGreaterThan(0);
    for (const m of r.results.matches)
      expect(Number(String(m.original_approval_date ?? m.approval_date).slice(0, 4))).toBeGreaterThanOrEqual(
        2010,
      );
    expect(r.metadata.fully_searched).toBeTypeOf("boolean");
  });

  it("repository search with a date filter {publication_date: {after: 2020-01-01}}: RepositoryResult", async () => {
    const r = await execute({
      tool_type: "PRIVATE_REPOSITORY",
      tool_name: "glp1",
      query: {
        search_terms: ["semaglutide", "GLP-1"],
        filters: { publication_date: { after: "2020-01-01" } },
      },
    });
    expect(Object.keys(r).sort()).toEqual(RESPONSE_KEYS);
    expect(r.status, JSON.stringify(r.metadata)).toBe("SUCCESS");
    expect(Object.keys(r.results).sort()).toEqual(["documents", "relevance_scores"]);
    expect(r.results.documents.map((d: { date: string }) => d.date).sort()).toEqual([
      "2021-03-18",
      "2022-06-01",
      "2023-11-11",
    ]);
    expect(r.results.relevance_scores).toHaveLength(3);
    expect([...r.results.relevance_scores].sort((a, b) => b - a)).toEqual(r.results.relevance_scores);
  });

  it("tool unavailable: FAILURE, results null, metadata.error_type SERVICE_UNAVAILABLE and retry_after", async () => {
    up.fold.fault("*", /.*/, { kind: "status", status: 503, retryAfter: 1 });
    try {
      const r = await execute({
        tool_type: "SPECIALIZED_MODEL",
        tool_name: "ESMFold",
        query: { sequence: "MKTAYIAKQRQISFVKSHFSRQLEERLGLIEVQAPILSRVGDGTQDNLSGAEKAVQVKVKALPDAQ" },
        timeout_seconds: 30,
      });
      expect(Object.keys(r).sort()).toEqual(RESPONSE_KEYS);
      expect(r.status).toBe("FAILURE");
      expect(r.results).toBeNull();
      expect(r.metadata.error_type).toBe("SERVICE_UNAVAILABLE");
      expect(r.metadata.retry_after).toBe(1);
      expect(r.metadata.message).toEqual(expect.any(String));
    } finally {
      up.fold.clearFaults();
    }
  });
});

describe("the request as the spec states it", () => {
  it("an unknown name in a known category fails listing the known names", async () => {
    const r = await execute({
      tool_type: "SPECIALIZED_MODEL",
      tool_name: "RoseTTAFold",
      query: { sequence: "MKT" },
    });
    expect(r).toMatchObject({ status: "FAILURE", results: null, cached: false });
    expect(r.metadata.message).toContain("AlphaFold");
    expect(r.metadata.message).toContain("ESMFold");
  });

  it("timeout_seconds bounds the call; a timeout keeps what was found, marked incomplete", async () => {
    // AlphaFold DB answers the entry (with its global pLDDT), then the PDB file never comes.
    const entry = recordedEntry("P04637") as { pdbUrl: string };
    up.afdb.fault("GET", new URL(entry.pdbUrl).pathname, { kind: "hang" });
    try {
      const started = Date.now();
      const r = await execute({
        tool_type: "SPECIALIZED_MODEL",
        tool_name: "AlphaFold",
        query: { uniprot_accession: "P04637" },
        timeout_seconds: 1,
      });
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(r.status).toBe("TIMEOUT");
      expect(r.metadata.incomplete).toBe(true);
      expect(typeof r.results.confidence_scores.overall).toBe("number");
      expect(r.results.structure_data).toBe("");
    } finally {
      up.afdb.clearFaults();
    }
  });

  it("a timeout with nothing found: TIMEOUT, results null, error_type TIMEOUT", async () => {
    up.fold.fault("*", /.*/, { kind: "hang" });
    try {
      const r = await execute({
        tool_type: "SPECIALIZED_MODEL",
        tool_name: "ESMFold",
        query: { sequence: "MKTAYIAKQRQISFVKSHFSRQLEERLGLIEVQAPILSRVGDGTQDNLSGAEKAVQVKVKALPDAQW" },
        timeout_seconds: 1,
      });
      expect(r).toMatchObject({ status: "TIMEOUT", results: null, metadata: { error_type: "TIMEOUT" } });
    } finally {
      up.fold.clearFaults();
    }
  });

  it("another scientist's repository: ACCESS_DENIED, results null", async () => {
    const r = await execute({
      tool_type: "PRIVATE_REPOSITORY",
      tool_name: "scientist-2/notes",
      query: { search_terms: ["semaglutide"] },
    });
    expect(r).toMatchObject({
      status: "ACCESS_DENIED",
      results: null,
      metadata: { error_type: "ACCESS_DENIED" },
    });
    expect(r.metadata.message).toEqual(expect.any(String));
  });

  it("a body that is not JSON is 400; GET /external-tools lists the catalogue", async () => {
    const bad = await fetch(`${serve.url}/external-tools/execute`, { method: "POST", body: "{nope" });
    expect(bad.status).toBe(400);
    const list = (await (await fetch(`${serve.url}/external-tools`)).json()) as {
      tools: Array<Record<string, unknown>>;
    };
    expect(list.tools.map((t) => `${t.tool_type}/${t.tool_name}`)).toEqual(
      expect.arrayContaining([
        "SPECIALIZED_MODEL/AlphaFold",
        "SPECIALIZED_MODEL/ESMFold",
        "SCIENTIFIC_DATABASE/FDA_Drug_Database",
        "PRIVATE_REPOSITORY/private_repository",
      ]),
    );
    for (const t of list.tools)
      expect(t).toMatchObject({ description: expect.any(String), query_schema: expect.any(Object) });
  });
});

describe("over MCP: execute_external_tool takes the same request", () => {
  it("structuredContent is the ExternalToolResponse and the text its JSON", async () => {
    const client = new Client({ name: "co-scientist", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${serve.url}/mcp`)));
    try {
      const { tools } = await client.listTools();
      const tool = tools.find((t) => t.name === "execute_external_tool")!;
      expect(tool.inputSchema).toMatchObject({ required: ["tool_type", "tool_name", "query"] });
      const r = await client.callTool({
        name: "execute_external_tool",
        arguments: {
          tool_type: "PRIVATE_REPOSITORY",
          tool_name: "glp1",
          query: { search_terms: ["semaglutide"], filters: { publication_date: { after: "2020-01-01" } } },
        },
      });
      expect(r.isError).toBeFalsy();
      const response = r.structuredContent as Record<string, any>;
      expect(response).toMatchObject({ tool_name: "glp1", status: "SUCCESS", cached: false });
      expect(response.results.documents).toHaveLength(3);
      expect(JSON.parse((r.content as Array<{ text: string }>)[0]!.text)).toEqual(response);
    } finally {
      await client.close();
    }
  });
});
