import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ToolResult } from "@quiver/core";
import { type SeededRandom, seededRandom } from "@quiver/testing";
import { describe, expect, it } from "vitest";
import { readAuditLog, shareCollection } from "../src/index.js";
import { addDocuments } from "../src/internal/add-documents.js";
import { repoCatalog, tempDir } from "./support/repo.js";

const SCIENTISTS = ["ann", "ben", "cho", "dev", "eli", "fay"];
const OUTSIDER = "zed"; // has nothing and is shared nothing
const NAMES = ["notes", "papers", "lab", "drafts", "refs"];
const VOCAB =
  "protein kinase inhibitor binding assay tumour growth receptor signalling mouse model vitamin bone density gut microbiome insulin telomere aging neuron synapse plasticity membrane lipid".split(
    " ",
  );
const AUTHORS = [
  "Ada Byron",
  "Carl Gauss",
  "Emmy Noether",
  "Alan Turing",
  "Marie Curie",
  "Rosalind Franklin",
];
const TAGS = ["oncology", "neuro", "nutrition", "methods", "review"];

interface Doc {
  readonly id: string;
  readonly title: string;
  readonly text: string;
  readonly authors: string[];
  readonly date: string;
  readonly tags: string[];
  readonly secret: string;
}
interface Coll {
  readonly owner: string;
  readonly name: string;
  readonly docs: Doc[];
  readonly grantees: string[];
}

type Rng = SeededRandom;
const letters = (r: Rng, n: number) =>
  Array.from({ length: n }, () => String.fromCharCode(97 + r.int(26))).join("");
const words = (r: Rng, n: number) => Array.from({ length: n }, () => r.pick(VOCAB)).join(" ");
const some = <T>(r: Rng, xs: ReadonlyArray<T>, p: number) => xs.filter(() => r.next() < p);

/** A random world: scientists, their collections of documents (each with a unique secret word), and shares. */
const world = (r: Rng): Coll[] => {
  const colls: Coll[] = [];
  for (const owner of SCIENTISTS) {
    const names = some(r, NAMES, 0.4);
    if (names.length === 0) names.push(r.pick(NAMES));
    for (const name of names) {
      const docs: Doc[] = Array.from({ length: 2 + r.int(6) }, (_, i) => {
        const secret = `zq${letters(r, 8)}`;
        return {
          id: `${name}-${i}`,
          title: `${words(r, 3)} ${secret}`,
          text: `${words(r, 10 + r.int(20))} ${secret} ${words(r, 5)}`,
          authors: some(r, AUTHORS, 0.3),
          date: `${2000 + r.int(24)}-0${1 + r.int(9)}`,
          tags: some(r, TAGS, 0.3),
          secret,
        };
      });
      colls.push({
        owner,
        name,
        docs,
        grantees: some(
          r,
          SCIENTISTS.filter((s) => s !== owner),
          0.25,
        ),
      });
    }
  }
  return colls;
};

let sessions = 0;
/** A fresh conversation per call, so escalation (per session) never differs between the two repositories. */
const as = (principal: string) => ({ session: { id: `c${sessions++}`, principal } });

const readableBy = (colls: ReadonlyArray<Coll>, p: string) =>
  colls.filter((c) => c.owner === p || c.grantees.includes(p));

/** Builds a repository holding `colls` (documents written as JSON Lines and added like `quiver private-repo add`). */
const materialise = async (colls: ReadonlyArray<Coll>, grantsFor?: string) => {
  const indexPath = tempDir("quiver-prop-");
  const src = tempDir("quiver-prop-src-");
  for (const c of colls) {
    const file = join(src, `${c.owner}-${c.name}.jsonl`);
    writeFileSync(file, c.docs.map(({ secret: _s, ...d }) => JSON.stringify(d)).join("\n"));
    await addDocuments({ indexPath, owner: c.owner, collection: c.name, files: file });
    for (const g of c.grantees) {
      // A reference repository holds only what one principal may read, with the shares that concern them.
      if (grantsFor === undefined || c.owner === grantsFor || g === grantsFor) {
        await shareCollection({ indexPath, owner: c.owner, collection: c.name, grantee: g });
      }
    }
  }
  return indexPath;
};

/** What the model sees, without the per-call fields (call id, duration, cache flag). */
const visible = (r: ToolResult) => {
  const { metadata: _m, ...rest } = r;
  return rest;
};

describe("property: no result, count, error or suggestion reveals another scientist's documents", () => {
  it("matches, for every principal and random query, what a repository holding only that principal's readable collections answers — cached results included", async () => {
    const seed = Number(process.env.REPO_PROPERTY_SEED ?? 6_060_606);
    console.log(`property seed ${seed} (set REPO_PROPERTY_SEED to replay)`);
    const r = seededRandom(seed);
    const colls = world(r);
    const fullIndexPath = await materialise(colls);
    const full = repoCatalog(fullIndexPath, { policies: { "*": { cache: { ttl: "1h" } } } });
    const principals = [...SCIENTISTS, OUTSIDER];
    const reference = new Map<string, ReturnType<typeof repoCatalog>>();
    for (const p of principals) reference.set(p, repoCatalog(await materialise(readableBy(colls, p), p)));

    const allRefs = colls.map((c) => `${c.owner}/${c.name}`);
    const secrets = colls.flatMap((c) => c.docs.map((d) => ({ owner: c.owner, coll: c, secret: d.secret })));
    const randomInput = (p: string): { tool: string; input: Record<string, unknown> } => {
      if (r.next() < 0.12)
        return { tool: "private_repo_list_collections", input: { scope: r.pick(["all", "own", "shared"]) } };
      const terms: string[] = [];
      for (let k = 0; k < 1 + r.int(3); k++) {
        const roll = r.next();
        terms.push(
          roll < 0.45
            ? r.pick(secrets).secret
            : roll < 0.85
              ? r.pick(VOCAB)
              : r.pick(['"', "OR", "*", "NEAR(", ")", "ann/notes"]),
        );
      }
      const filters: Record<string, unknown> = {};
      if (r.next() < 0.2) filters.tags = some(r, TAGS, 0.4);
      if (r.next() < 0.2) filters.authors = [r.pick(AUTHORS).split(" ")[r.int(2)]];
      if (r.next() < 0.2) filters.date_from = String(2000 + r.int(24));
      if (r.next() < 0.3) {
        const own = colls.filter((c) => c.owner === p).map((c) => c.name);
        filters.collections = Array.from({ length: 1 + r.int(2) }, () => {
          const roll = r.next();
          return roll < 0.4 && own.length
            ? r.pick(own)
            : roll < 0.85
              ? r.pick(allRefs)
              : `${r.pick(SCIENTISTS)}/${r.pick(NAMES)}x`;
        });
      }
      return {
        tool: "private_repo_search",
        input: {
          search_terms: terms.join(" "),
          ...(Object.keys(filters).length ? { filters } : {}),
          max_results: 1 + r.int(12),
        },
      };
    };

    const RUNS = 250;
    let cachedHits = 0;
    let denials = 0;
    let nonEmpty = 0;
    const deniedBy = new Map<string, number>();
    for (let run = 0; run < RUNS; run++) {
      const p = r.pick(principals);
      const q = r.pick(principals.filter((x) => x !== p));
      const { tool, input } = randomInput(p);
      const context = `run ${run} ${p} ${tool} ${JSON.stringify(input)}`;
      const got = await full.call(tool, input, as(p));
      const want = await reference.get(p)!.call(tool, input, as(p));
      expect(visible(got), context).toEqual(visible(want));

      // The same input again (a cache hit when it succeeded), and from another principal right after.
      const again = await full.call(tool, input, as(p));
      expect(visible(again), `${context} (repeat)`).toEqual(visible(want));
      if (again.metadata.cached) cachedHits++;
      const other = await full.call(tool, input, as(q));
      expect(visible(other), `${context} (as ${q})`).toEqual(
        visible(await reference.get(q)!.call(tool, input, as(q))),
      );

      // Directly: nothing outside the principal's readable collections appears in what the model sees.
      const readable = new Set(readableBy(colls, p).map((c) => `${c.owner}/${c.name}`));
      const asked = JSON.stringify(input);
      const shown = JSON.stringify({ data: got.data, suggestion: got.suggestion, error: got.error?.message });
      for (const s of secrets) {
        if (!readable.has(`${s.coll.owner}/${s.coll.name}`) && !asked.includes(s.secret)) {
          expect(shown.includes(s.secret), `${context} leaks ${s.secret}`).toBe(false);
        }
      }
      for (const c of colls) {
        const ref = `${c.owner}/${c.name}`;
        if (!readable.has(ref) && !asked.includes(ref))
          expect(shown.includes(ref), `${context} names ${ref}`).toBe(false);
      }
      if (got.status === "access_denied") {
        denials++;
        deniedBy.set(p, (deniedBy.get(p) ?? 0) + 2); // the repeat is denied (and logged) too
      }
      if (other.status === "access_denied") deniedBy.set(q, (deniedBy.get(q) ?? 0) + 1);
      if (got.status === "success" && ((got.data as { results?: unknown[] }).results?.length ?? 0) > 0)
        nonEmpty++;
    }
    console.log(
      `${RUNS} runs: ${nonEmpty} with results, ${denials} denied, ${cachedHits} repeats served from the cache`,
    );
    expect(nonEmpty).toBeGreaterThan(RUNS * 0.3);
    expect(denials).toBeGreaterThan(5);
    expect(cachedHits).toBeGreaterThan(RUNS * 0.5);
    // Every denied call was logged as an attempt, against the right principal.
    const log = (await readAuditLog({ indexPath: fullIndexPath, limit: 100_000 })).filter(
      (e) => e.outcome === "denied",
    );
    for (const p of principals)
      expect(log.filter((e) => e.principal === p).length, p).toBe(deniedBy.get(p) ?? 0);
  }, 120_000);
});
