import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Catalog, createCatalog, type ToolResult } from "@quiver/core";
import { createAlphafoldPlugin } from "@quiver/plugin-alphafold";
import { createFdaPlugin } from "@quiver/plugin-fda";
import { createPrivateRepoPlugin } from "@quiver/plugin-private-repo";
import { type Emulator, makeTestClock, seededRandom, startEmulator } from "@quiver/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { q7z6m3, startAfdbEmulator } from "../../../plugins/alphafold/test/support/afdb-emulator.js";
import { startOpenFdaEmulator } from "../../../plugins/fda/test/support/openfda-emulator.js";
import {
  createExternalToolExecutor,
  type ExternalToolExecutor,
  type ExternalToolRequest,
  type ExternalToolResponse,
  type ToolCaller,
} from "../../src/seeds.js";
import { addPapers, REQUESTS } from "./co-scientist-fixtures.js";

// The AI co-scientist's external tools interface, run with its own requests through its mapping
// against the real AlphaFold, FDA and private-repository plugins: openFDA and AlphaFold DB emulated
// from their recorded answers, the repository filled with the plugin's own `add` command. The MUST
// lines on constraints (honour every specified constraint; explain which failed) each have a test
// below that fails when the mapping drops a constraint.

let fda: Emulator;
let afdb: Emulator;
let hanging: Emulator;
let dir: string;
let catalog: Catalog;
let tools: ExternalToolExecutor;

beforeAll(async () => {
  [{ up: fda }, { up: afdb }, hanging] = await Promise.all([
    startOpenFdaEmulator(),
    startAfdbEmulator(),
    startEmulator(),
  ]);
  hanging.fault("*", /.*/, { kind: "hang" });
  dir = mkdtempSync(join(tmpdir(), "quiver-co-scientist-"));
  expect(await addPapers(dir)).toBe(0);
  catalog = createCatalog({ env: {}, policies: { "*": { cache: false } } });
  catalog.register(createFdaPlugin(), { baseUrl: fda.url });
  catalog.register(createAlphafoldPlugin(), {
    alphafoldUrl: afdb.url,
    esmfoldUrl: afdb.url,
    uniprotUrl: afdb.url,
  });
  catalog.register(createPrivateRepoPlugin(), { indexPath: join(dir, "repo") });
  tools = createExternalToolExecutor(catalog, { session: { id: "hypothesis-7", principal: "scientist-1" } });
});
afterAll(async () => {
  await catalog?.close();
  await Promise.all([fda?.close(), afdb?.close(), hanging?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

/**
 * A response seen through its parts: the records (matches, documents, or the one structure), the
 * constraint report and the failure message, wherever the spec puts them.
 */
interface View {
  readonly raw: ExternalToolResponse;
  readonly status: ExternalToolResponse["status"];
  readonly results: Array<Record<string, any>>;
  readonly query_constraints_met: boolean;
  readonly unmet_constraints: string[];
  readonly error_message: string | undefined;
  readonly metadata: Record<string, any>;
  readonly relevance_scores: number[] | undefined;
}

const view = (r: ExternalToolResponse): View => {
  const res = (r.results ?? {}) as Record<string, any>;
  return {
    raw: r,
    status: r.status,
    results: res.matches ?? res.documents ?? (r.results ? [res] : []),
    query_constraints_met: r.metadata.query_constraints_met === true,
    unmet_constraints: (r.metadata.unmet_constraints as string[] | undefined) ?? [],
    error_message: r.metadata.message as string | undefined,
    metadata: r.metadata,
    relevance_scores: res.relevance_scores,
  };
};

const run = async (request: ExternalToolRequest) => view(await tools.execute(request));
const without = ({ constraints: _, ...request }: ExternalToolRequest): ExternalToolRequest => request;
const dates = (r: View) => r.results.map((x) => String(x.date));

/**
 * Constraints are accounted for: met means no unmet line; not met means at least one line, and each
 * line names one of the request's constraints.
 */
const accountedFor = (request: ExternalToolRequest, r: View) => {
  const keys = Object.keys(request.constraints ?? {});
  if (r.query_constraints_met) expect(r.unmet_constraints).toEqual([]);
  else expect(r.unmet_constraints.length).toBeGreaterThan(0);
  for (const line of r.unmet_constraints)
    expect(
      keys.some((k) => line.startsWith(`${k}:`)),
      line,
    ).toBe(true);
};

describe("MUST honour all specified constraints", () => {
  it("fda: route oral is applied (the unconstrained search also finds injectables)", async () => {
    const r = await run(REQUESTS.fdaOral);
    expect(r.status, r.error_message).toBe("SUCCESS");
    expect(r.query_constraints_met).toBe(true);
    expect(r.unmet_constraints).toEqual([]);
    expect(r.results.length).toBeGreaterThan(0);
    for (const m of r.results) expect((m.routes as string[]).map((x) => x.toLowerCase())).toContain("oral");
    const all = await run(without(REQUESTS.fdaOral));
    expect(all.results.length).toBeGreaterThan(r.results.length);
    expect(all.results.some((m) => !(m.routes as string[]).some((x) => /oral/i.test(x)))).toBe(true);
  });

  it("fda: approval_year {after} is applied to the original approval", async () => {
    const r = await run(REQUESTS.fdaApprovedSince);
    expect(r.status, r.error_message).toBe("SUCCESS");
    expect(r.query_constraints_met).toBe(true);
    for (const m of r.results)
      expect(Number(String(m.original_approval_date).slice(0, 4))).toBeGreaterThanOrEqual(2019);
    const all = await run(without(REQUESTS.fdaApprovedSince));
    expect(all.results.some((m) => Number(String(m.original_approval_date).slice(0, 4)) < 2019)).toBe(true);
  });

  it("private repository: publication_date {after: 2020-01-01} is applied (the spec's own filter)", async () => {
    const r = await run(REQUESTS.repoSince2020);
    expect(r.status, r.error_message).toBe("SUCCESS");
    expect(r.query_constraints_met).toBe(true);
    expect(dates(r).sort()).toEqual(["2021-03-18", "2022-06-01", "2023-11-11"]);
    const all = await run(without(REQUESTS.repoSince2020));
    expect(dates(all)).toContain("2016-11-10");
    expect(all.results.length).toBeGreaterThan(r.results.length);
  });

  it("alphafold: min_plddt is checked against the model's mean pLDDT", async () => {
    const strict = await run({ ...REQUESTS.alphafold, constraints: { min_plddt: 95 } });
    expect(strict.status).toBe("PARTIAL_SUCCESS");
    expect(strict.query_constraints_met).toBe(false);
    expect(strict.unmet_constraints).toEqual([
      expect.stringMatching(/^min_plddt: the model's mean pLDDT is 74\.5\d*, below the required 95$/),
    ]);
    const met = await run({ ...REQUESTS.alphafold, constraints: { min_plddt: 70 } });
    expect(met.status).toBe("SUCCESS");
    expect(met.query_constraints_met).toBe(true);
  });

  it("alphafold: both confidence constraints are checked, and one that is not a pLDDT is reported", async () => {
    const r = await run({ ...REQUESTS.alphafold, constraints: { min_plddt: 70, min_confidence: 80 } });
    expect(r.unmet_constraints).toEqual([
      expect.stringMatching(/^min_confidence: the model's mean pLDDT is 74\.5/),
    ]);
    const bad = await run({ ...REQUESTS.alphafold, constraints: { min_plddt: "high" } });
    expect(bad.status).toBe("PARTIAL_SUCCESS");
    expect(bad.unmet_constraints).toEqual([
      'min_plddt: "high" is not a pLDDT (a number from 0 to 100), so it was not applied',
    ]);
  });

  it("a constraint contradicting a parameter is refused before any call, never silently overridden", async () => {
    const before = fda.requests.length;
    const r = await run({
      tool_type: "SCIENTIFIC_DATABASE",
      tool_name: "FDA_Drug_Database",
      query: { search_criteria: { active_ingredient: "semaglutide", route: "subcutaneous" } },
      constraints: { route: "oral" },
    });
    expect(r.status).toBe("FAILURE");
    expect(r.raw.results).toBeNull();
    expect(r.metadata.error_type).toBe("INVALID_INPUT");
    expect(r.error_message).toMatch(/^route: the constraint "oral" contradicts/);
    expect(fda.requests.length).toBe(before);
  });
});

describe("MUST explain which constraints failed", () => {
  it("fda: mechanism cannot be filtered on: PARTIAL_SUCCESS naming it and the closest criterion", async () => {
    const r = await run(REQUESTS.fdaMechanism);
    expect(r.status).toBe("PARTIAL_SUCCESS");
    expect(r.query_constraints_met).toBe(false);
    expect(r.unmet_constraints).toHaveLength(1);
    expect(r.unmet_constraints[0]).toMatch(
      /^mechanism: openFDA cannot filter on "mechanism" \("SGLT2 inhibitor"\)/,
    );
    expect(r.unmet_constraints[0]).toContain("closest: pharmacologic_class");
    expect(r.results.length).toBeGreaterThan(0);
    expect(r.raw.results).toMatchObject({ query_constraints_met: false });
  });

  it("private repository: a filter it does not have fails the request and is named", async () => {
    const r = await run(REQUESTS.repoImpactFactor);
    expect(r.status).toBe("FAILURE");
    expect(r.query_constraints_met).toBe(false);
    expect(r.raw.results).toBeNull();
    const line = r.unmet_constraints.find((l) => l.startsWith("impact_factor:"));
    expect(line).toMatch(/impact_factor/);
    expect(r.error_message).toMatch(/impact_factor/);
    expect(r.metadata.error_type).toBe("INVALID_INPUT");
  });

  it("alphafold: a constraint it cannot apply is named with the ones it can", async () => {
    const r = await run(REQUESTS.alphafoldConfident);
    expect(r.status).toBe("PARTIAL_SUCCESS");
    expect(r.unmet_constraints).toEqual([
      expect.stringMatching(
        /^organism: AlphaFold cannot apply "organism" \("Homo sapiens"\); constraints it applies: min_plddt/,
      ),
      expect.stringMatching(/^min_plddt: /),
    ]);
  });

  it("an unknown database fails listing the known names; a failed call lists every constraint as not applied", async () => {
    const unknown = await run({ ...REQUESTS.fdaOral, tool_name: "no_such_database" });
    expect(unknown.status).toBe("FAILURE");
    expect(unknown.raw.results).toBeNull();
    expect(unknown.error_message).toContain("no_such_database");
    expect(unknown.error_message).toContain("FDA_Drug_Database");
    const failed = await run({ ...REQUESTS.repoSince2020, query: { search_terms: [] } });
    expect(failed.status).toBe("FAILURE");
    expect(failed.unmet_constraints).toEqual([
      expect.stringMatching(/^publication_date: not applied, the call failed/),
    ]);
  });

  it("every one of the co-scientist's requests accounts for each of its constraints", async () => {
    for (const request of Object.values(REQUESTS) as ExternalToolRequest[]) {
      const r = await run(request);
      if (r.status !== "FAILURE" || r.unmet_constraints.length > 0) accountedFor(request, r);
    }
  });
});

describe("ExternalToolResponse shapes", () => {
  it("alphafold: ProteinStructureResult {confidence_scores: {overall, per_residue}, structure_data}", async () => {
    const r = await run(REQUESTS.alphafold);
    expect(r.status, r.error_message).toBe("SUCCESS");
    expect(Object.keys(r.raw).sort()).toEqual(["cached", "metadata", "results", "status", "tool_name"]);
    const p = r.raw.results as Record<string, any>;
    expect(p.confidence_scores.overall).toBeCloseTo(74.53, 2);
    expect(p.confidence_scores.per_residue.length).toBeGreaterThan(0);
    // The model (226 kB) is far over the tool's budget: its link was read back, the file whole.
    expect(p.structure_data).toBe(q7z6m3().pdb);
    expect(r.metadata).toMatchObject({
      quiver_tool: "alphafold_predict_structure",
      timeout_seconds: 300,
      model: "AlphaFold",
      uniprot_accession: "Q7Z6M3",
      model_id: "AF-Q7Z6M3-F1",
      structure_format: "pdb",
      query_constraints_met: true,
    });
    expect(r.metadata.regions.length).toBeGreaterThan(0);
  });

  it("private repository: relevance_scores follow the results, best first", async () => {
    const r = await run(REQUESTS.repoSince2020);
    expect(r.relevance_scores).toEqual(r.results.map((x) => x.score));
    expect([...r.relevance_scores!].sort((a, b) => b - a)).toEqual(r.relevance_scores);
    for (const s of r.relevance_scores!) expect(s).toBeGreaterThan(0);
  });

  it("timeout_seconds bounds the call: a hanging upstream answers TIMEOUT", async () => {
    const slow = createCatalog({ env: {} });
    slow.register(createFdaPlugin(), { baseUrl: hanging.url });
    try {
      const r = view(
        await createExternalToolExecutor(slow).execute({ ...REQUESTS.fdaOral, timeout_seconds: 0.3 }),
      );
      expect(r.status).toBe("TIMEOUT");
      expect(r.raw.results).toBeNull();
      expect(r.metadata).toMatchObject({ timeout_seconds: 0.3, error_type: "TIMEOUT" });
      expect(r.unmet_constraints).toEqual([expect.stringMatching(/^route: not applied, the call failed/)]);
    } finally {
      await slow.close();
    }
  });

  it("a request that is not one is refused without a call", async () => {
    const r = await run({
      tool_type: "SCIENTIFIC_DATABASE",
      tool_name: "FDA_Drug_Database",
      query: {},
      timeout_seconds: -1,
    });
    expect(r).toMatchObject({ status: "FAILURE", error_message: expect.stringMatching(/timeout_seconds/) });
    expect(r.raw.results).toBeNull();
    const legacy = await run({ tool_name: "fda_drug_database", parameters: 3 } as never);
    expect(legacy.error_message).toMatch(/query must be an object/);
  });
});

describe("MUST honour all specified constraints: any mix of them", () => {
  // Constraints a co-scientist may put on an FDA search: some openFDA applies, some it cannot.
  const POOL: ReadonlyArray<readonly [string, unknown]> = [
    ["route", "oral"],
    ["route", "subcutaneous"],
    ["approval_year", { after: 2019 }],
    ["approval_year", { before: 2018 }],
    ["sponsor", "Novo Nordisk"],
    ["pharmacologic_class", "GLP-1 Receptor Agonist"],
    ["mechanism", "SGLT2 inhibitor"],
    ["dosage", "7 mg"],
    ["half_life", { min_hours: 100 }],
  ];
  const UNFILTERABLE = new Set(["mechanism", "dosage", "half_life"]);

  it("each constraint is applied to every result or named in unmet_constraints (40 seeded mixes)", async () => {
    const random = seededRandom(16);
    const year = (m: Record<string, unknown>) => Number(String(m.original_approval_date).slice(0, 4));
    const holds: Record<string, (m: Record<string, unknown>, v: any) => boolean> = {
      route: (m, v) => (m.routes as string[]).some((x) => x.toLowerCase() === v),
      approval_year: (m, v) =>
        (v.after === undefined || year(m) >= v.after) && (v.before === undefined || year(m) <= v.before),
      // Drugs@FDA stores the sponsor as "NOVO"; the labeler (openFDA manufacturer_name) spells it out.
      sponsor: (m) => /^NOVO\b/.test(String(m.sponsor)) || /novo nordisk/i.test(String(m.labeler)),
      pharmacologic_class: (m) => (m.pharmacologic_classes as string[]).some((c) => /GLP-1/i.test(c)),
    };
    let withResults = 0;
    for (let i = 0; i < 40; i++) {
      const constraints: Record<string, unknown> = {};
      for (let n = 1 + random.int(3); n > 0; n--) {
        const [key, value] = random.pick(POOL);
        constraints[key] = value;
      }
      const request = {
        ...REQUESTS.fdaOral,
        query: { search_criteria: { active_ingredient: "semaglutide" } },
        constraints,
      };
      const r = await run(request);
      if (r.results.length > 0) withResults++;
      const label = `${JSON.stringify(constraints)} → ${r.status}: ${r.unmet_constraints.join(" | ")}`;
      expect(r.status, label).not.toBe("FAILURE");
      accountedFor(request, r);
      const reported = (key: string) => r.unmet_constraints.some((l) => l.startsWith(`${key}:`));
      for (const [key, value] of Object.entries(constraints)) {
        if (UNFILTERABLE.has(key)) {
          expect(reported(key), label).toBe(true);
          expect(r.query_constraints_met, label).toBe(false);
        } else {
          expect(reported(key), label).toBe(false);
          for (const m of r.results)
            expect(holds[key]!(m, value), `${label}: ${key} on ${m.application_number}`).toBe(true);
        }
      }
    }
    // Not vacuous: most mixes still match drugs.
    expect(withResults).toBeGreaterThanOrEqual(10);
  });
});

describe("use cached results if available when a tool is down", () => {
  it("a stale answer is PARTIAL_SUCCESS marked stale with its age, its constraint still applied", async () => {
    const { up } = await startOpenFdaEmulator();
    const time = await makeTestClock();
    const down = createCatalog({ env: {}, clock: time.clock });
    down.register(createFdaPlugin(), { baseUrl: up.url });
    const executor = createExternalToolExecutor(down, { session: { id: "h", principal: "scientist-1" } });
    const execute = async (request: ExternalToolRequest) => view(await executor.execute(request));
    try {
      const fresh = await execute(REQUESTS.fdaOral);
      expect(fresh.status, fresh.error_message).toBe("SUCCESS");
      // Two hours later (past the one-hour cache), openFDA answers 503 (unavailable) to everything.
      await time.advance(2 * 3_600_000);
      up.fault("*", /.*/, { kind: "status", status: 503 });
      const r = await time.advanceUntil(execute(REQUESTS.fdaOral), 100);
      expect(r.status).toBe("PARTIAL_SUCCESS");
      expect(r.results).toEqual(fresh.results);
      expect(r.metadata).toMatchObject({ stale: true });
      expect(r.metadata.stale_age_seconds).toBeGreaterThanOrEqual(7_200);
      expect(r.query_constraints_met).toBe(true);
      expect(r.error_message).toMatch(/last known result/);
    } finally {
      await down.close();
      await up.close();
    }
  });
});

describe("the status table", () => {
  const answering = (r: Partial<ToolResult>): ToolCaller => ({
    call: async (name) =>
      ({
        message: `${r.status} message`,
        metadata: {
          tool: name,
          plugin: "p",
          callId: "c",
          durationMs: 3,
          attempts: 1,
          cached: false,
          truncated: false,
        },
        ...r,
      }) as ToolResult,
  });
  const statusOf = async (r: Partial<ToolResult>) =>
    createExternalToolExecutor({ ...answering(r), has: (n) => n === "some_tool" }).execute({
      tool_type: "COMPUTATIONAL_SERVICE",
      tool_name: "some_tool",
      query: {},
    });

  it("maps every envelope status to the interface's upper-case ones", async () => {
    expect((await statusOf({ status: "success", data: { x: 1 } })).status).toBe("SUCCESS");
    expect((await statusOf({ status: "partial", data: { x: 1 } })).status).toBe("PARTIAL_SUCCESS");
    expect(
      (await statusOf({ status: "timeout", error: { kind: "timeout", message: "t", retryable: true } }))
        .status,
    ).toBe("TIMEOUT");
    expect(
      (
        await statusOf({
          status: "access_denied",
          error: { kind: "access_denied", message: "a", retryable: false },
        })
      ).status,
    ).toBe("ACCESS_DENIED");
    const down = await statusOf({
      status: "unavailable",
      error: { kind: "unavailable", message: "u", retryable: true },
    });
    expect(down).toMatchObject({
      status: "FAILURE",
      results: null,
      metadata: { error_type: "SERVICE_UNAVAILABLE", message: "unavailable message" },
    });
    const limited = await statusOf({
      status: "error",
      error: { kind: "rate_limited", message: "r", retryable: true, retryAfterMs: 29_500 },
    });
    expect(limited).toMatchObject({
      status: "FAILURE",
      results: null,
      metadata: { error_type: "RATE_LIMITED", retry_after: 30 },
    });
  });
});
