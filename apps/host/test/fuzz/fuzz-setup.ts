import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Catalog } from "@quiver/core";
import { closedUrl } from "@quiver/testing";
import type { JsonSchema } from "./schema-arbitrary.js";

/** The eight first-party plugins, by id (package `@quiver/plugin-<id>`). */
export const PLUGIN_IDS = [
  "alphafold",
  "context7",
  "fda",
  "guia",
  "perplexity",
  "private-repo",
  "rag",
  "testgen",
] as const;

/** The workspace packages a `quiver serve` project links to serve every plugin. */
export const PLUGIN_PACKAGES = PLUGIN_IDS.map((id) => `@quiver/plugin-${id}`);

/**
 * Cases per tool: `QUIVER_FUZZ_RUNS` sets the catalog path's count (default 1,000, what CI runs);
 * the HTTP and MCP paths, each a real server round trip, run a fifth and a tenth of it (at least 50 and 25).
 */
export const fuzzRuns = (path: "catalog" | "http" | "mcp"): number => {
  const base = Number(process.env.QUIVER_FUZZ_RUNS) || 1_000;
  if (path === "catalog") return base;
  return path === "http" ? Math.max(50, Math.round(base / 5)) : Math.max(25, Math.round(base / 10));
};

/** The seed of this run: `QUIVER_FUZZ_SEED` to reproduce one, otherwise a fresh one, printed. */
export const fuzzSeed = (label: string): number => {
  const given = Number(process.env.QUIVER_FUZZ_SEED);
  const seed =
    Number.isInteger(given) && process.env.QUIVER_FUZZ_SEED
      ? given
      : (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
  console.log(`[fuzz] ${label}: seed ${seed} (reproduce with QUIVER_FUZZ_SEED=${seed})`);
  return seed;
};

/**
 * Every plugin's options for a fuzz run: each upstream on a closed port (a refused connection is
 * an envelope like any other), embedded stores in a fresh folder, a placeholder key where one is required.
 */
export const closedUpstreamOptions = async (): Promise<Record<string, Record<string, unknown>>> => {
  const closed = await closedUrl();
  const dir = mkdtempSync(join(tmpdir(), "quiver-fuzz-"));
  return {
    alphafold: { alphafoldUrl: closed, esmfoldUrl: closed, uniprotUrl: closed },
    context7: { baseUrl: closed },
    fda: { baseUrl: closed },
    guia: { guidesDir: join(dir, "guias") },
    perplexity: { apiKey: "fuzz-placeholder-key", baseUrl: closed },
    "private-repo": { indexPath: join(dir, "private-repo") },
    rag: { backend: "embedded", indexPath: join(dir, "rag-index.db") },
    testgen: { llmBaseUrl: closed, llmApiKey: "fuzz-placeholder-key", llmModel: "fuzz" },
  };
};

/** Policies for a fuzz run: no retries (a refused upstream answers at once), no rate limit or breaker (every case reaches the tool). */
export const FUZZ_POLICIES = { "*": { retry: false, rateLimit: false, breaker: false } } as const;

/** Each tool's name and MCP input schema. */
export const toolSchemas = (catalog: Catalog): Array<{ name: string; schema: JsonSchema }> =>
  catalog.list().map((t) => ({
    name: t.name,
    schema: (catalog.describe(t.name, "mcp")?.inputSchema ?? {}) as JsonSchema,
  }));

/** A test's time limit for `runs` cases per tool at about `msPerCase` each, fourteen tools, with room to spare. */
export const fuzzTimeout = (runs: number, msPerCase: number): number =>
  Math.max(120_000, runs * 13 * msPerCase * 4);
