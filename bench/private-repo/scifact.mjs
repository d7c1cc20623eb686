// SciFact (BEIR) loaded as one scientist's private repository, searched through the private-repo plugin's
// `private_repo_search` tool (full Quiver runtime, the scientist's principal on every call); reports nDCG@10 and
// recall@10 on the 809 train queries, with indexing and per-query times. Target: nDCG@10 ≥ 0.71 (the rag
// plugin's target; plain FTS5 BM25 over title + text scores about 0.70, published BM25 0.665–0.679).
//
// Both stores in the same run: the SQLite files (default) and PostgreSQL (DATABASE_URL, else the local server
// postgres://postgres@127.0.0.1:5432/test; a random schema, dropped at the end). Queries alternate between the
// two, so both see the same machine load. Target: PostgreSQL within 0.005 nDCG@10 of SQLite.
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createCatalog } from "@quiver/core";
import { median, table } from "../lib/measure.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const TARGET = 0.71;
const PG_TOLERANCE = 0.005;
const DATABASE_URL = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** The `pg` driver, from @quiver/search's dependencies (the bench does not depend on it). */
const pgDriver = () => createRequire(join(root, "packages", "search", "package.json"))("pg");

/** Runs SQL as the login role; undefined when the server cannot be reached. */
const adminQuery = async (sql) => {
  const { Client } = pgDriver();
  const client = new Client({ connectionString: DATABASE_URL, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    return await client.query(sql);
  } finally {
    await client.end().catch(() => {});
  }
};

/** A workspace package by name, or its built entry when the bench does not depend on it (yet). */
const load = async (name, folder) => {
  try {
    return await import(name);
  } catch {
    const entry = join(root, "packages", folder, "dist", "index.js");
    if (!existsSync(entry))
      throw new Error(`${name} is not built: run \`pnpm --filter ${name} build\` first.`);
    return import(pathToFileURL(entry).href);
  }
};

const sharedData = () =>
  [process.env.QUIVER_SHARED_DATA, join(root, "..", "shared", "data"), join(root, "shared", "data")].find(
    (d) => d && existsSync(join(d, "beir-scifact", "corpus.jsonl")),
  );

/** nDCG@k as BEIR computes it (linear gains; ideal from the judged documents). */
const ndcgAt = (ranking, judged, k) => {
  let dcg = 0;
  ranking.slice(0, k).forEach((id, i) => {
    dcg += (judged.get(id) ?? 0) / Math.log2(i + 2);
  });
  const ideal = [...judged.values()]
    .filter((g) => g > 0)
    .sort((a, b) => b - a)
    .slice(0, k);
  const idcg = ideal.reduce((s, g, i) => s + g / Math.log2(i + 2), 0);
  return idcg > 0 ? dcg / idcg : 0;
};

const recallAt = (ranking, judged, k) => {
  const relevant = [...judged].filter(([, g]) => g > 0).map(([id]) => id);
  const top = new Set(ranking.slice(0, k));
  return relevant.length ? relevant.filter((id) => top.has(id)).length / relevant.length : 0;
};

export async function run({ limit } = {}) {
  const data = sharedData();
  if (!data) {
    return {
      title: "Private repository: SciFact nDCG@10",
      table: "skipped",
      notes: ["skipped: ../shared/data/beir-scifact not found (set QUIVER_SHARED_DATA)"],
    };
  }
  const { createPrivateRepoPlugin } = await load("@quiver/plugin-private-repo", "plugins/private-repo");
  const dir = join(data, "beir-scifact");
  const queries = new Map(
    readFileSync(join(dir, "queries.jsonl"), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .map((q) => [q._id, q.text]),
  );
  const qrels = new Map();
  for (const line of readFileSync(join(dir, "qrels", "train.tsv"), "utf8")
    .split(/\r?\n/)
    .slice(1)) {
    const [q, d, s] = line.split("\t");
    if (!q || !d) continue;
    if (!qrels.has(q)) qrels.set(q, new Map());
    qrels.get(q).set(d, Number(s));
  }

  const schema = `quiver_bench_${randomBytes(4).toString("hex")}`;
  let pgProblem;
  try {
    await adminQuery("SELECT 1");
  } catch (error) {
    pgProblem = error instanceof Error ? error.message : String(error);
  }
  const stores = [
    { label: "SQLite", options: {} },
    ...(pgProblem
      ? []
      : [{ label: "PostgreSQL", options: { databaseUrl: DATABASE_URL, databaseSchema: schema } }]),
  ];
  const opened = [];
  try {
    for (const store of stores) {
      const indexPath = mkdtempSync(join(tmpdir(), "quiver-bench-repo-"));
      const catalog = createCatalog({ env: {} });
      opened.push({ ...store, indexPath, catalog });
      const t0 = performance.now();
      // Loaded through the plugin's own `add` command (what `quiver private-repo add` runs).
      const plugin = createPrivateRepoPlugin();
      catalog.register(plugin, { indexPath, ...store.options });
      const { config, resources } = await catalog.open(plugin.id);
      const add = plugin.commands.find((c) => c.name === "add");
      await add.run({
        args: [join(dir, "corpus.jsonl")],
        flags: { owner: "scientist", collection: "scifact" },
        config,
        resources,
        cwd: process.cwd(),
        env: {},
        json: true,
        signal: new AbortController().signal,
        print: () => {},
        printJson: (value) => {
          store.added = value;
        },
        warn: () => {},
        progress: () => {},
      });
      store.indexMs = performance.now() - t0;
      Object.assign(store, { catalog, ndcg: [], recall: [], times: [], rankings: [], failures: 0 });
    }
    const session = { session: { id: "bench", principal: "scientist" } };

    const ids = [...qrels.keys()].slice(0, limit ?? undefined);
    for (const id of ids) {
      for (const store of stores) {
        const start = performance.now();
        const r = await store.catalog.call(
          "private_repo_search",
          { search_terms: queries.get(id), max_results: 10 },
          session,
        );
        store.times.push(performance.now() - start);
        if (r.status !== "success") {
          store.failures++;
          store.ndcg.push(0);
          store.recall.push(0);
          store.rankings.push("failed");
          continue;
        }
        const ranking = r.data.results.map((x) => x.id);
        store.rankings.push(ranking.join(" "));
        store.ndcg.push(ndcgAt(ranking, qrels.get(id), 10));
        store.recall.push(recallAt(ranking, qrels.get(id), 10));
      }
    }
    const mean = (xs) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
    const rows = stores.map((store) => ({
      store: store.label,
      dataset: "SciFact train",
      documents: store.added.documents,
      queries: ids.length,
      "nDCG@10": mean(store.ndcg).toFixed(4),
      "recall@10": mean(store.recall).toFixed(4),
      "index s": (store.indexMs / 1000).toFixed(1),
      "query ms (median)": median(store.times).toFixed(2),
      "query ms (p95)": [...store.times]
        .sort((a, b) => a - b)
        [Math.floor(store.times.length * 0.95)]?.toFixed(2),
    }));
    const score = mean(stores[0].ndcg);
    const notes = [
      `nDCG@10 = ${score.toFixed(4)} (target ≥ ${TARGET}: ${score >= TARGET ? "met" : "NOT met"}); ${stores.map((s) => `${s.label} ${s.failures} failed calls`).join(", ")}`,
      "BM25 with pseudo-relevance feedback from @quiver/search; one index per collection; full runtime per query.",
    ];
    let pgPass = false;
    if (stores[1]) {
      const gap = Math.abs(mean(stores[1].ndcg) - score);
      pgPass = gap <= PG_TOLERANCE;
      notes.push(
        `PG within ${PG_TOLERANCE} nDCG@10 of SQLite: ${gap <= PG_TOLERANCE ? "PASS" : "FAIL"} (difference ${gap.toFixed(4)}; identical top 10 for ${ids.filter((_, i) => stores[0].rankings[i] === stores[1].rankings[i]).length} of ${ids.length} queries)`,
      );
    } else {
      notes.push(`PG within ${PG_TOLERANCE} nDCG@10 of SQLite: FAIL (PostgreSQL not measured: ${pgProblem})`);
    }
    return {
      title:
        "Private repository: SciFact as one scientist's collection, through private_repo_search (SQLite and PostgreSQL stores)",
      table: table(rows, Object.keys(rows[0])),
      notes,
      rows,
      targets: [{ line: notes.at(-1), pass: pgPass }],
    };
  } finally {
    for (const store of opened) {
      await store.catalog.close();
      rmSync(store.indexPath, { recursive: true, force: true });
    }
    if (!pgProblem) await adminQuery(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const out = await run();
  console.log(`${out.title}\n\n${out.table}\n\n${out.notes.join("\n")}`);
}
