// SciFact (BEIR) ranking quality of @quiver/search: indexes the 5,183 abstracts, runs the 809 train queries
// (those in qrels/train.tsv) and reports nDCG@10 and recall@100 (BEIR definitions), index time and median
// query time, beside a plain FTS5 BM25 baseline measured in the same run (title + text in one column, porter
// tokenizer, the query's words OR-ed, bm25()). Target: nDCG@10 >= 0.71 without any ML model.
//
// Runs against the BUILT package: `pnpm --filter @quiver/search build` first. Standalone:
// `node bench/search/scifact.mjs`; through the runner: `pnpm bench search`. About 30-40 s on 2 cores.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath, pathToFileURL } from "node:url";
import { median, table } from "../lib/measure.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const TARGET = 0.71;

const loadSearch = async () => {
  const entry = join(root, "packages", "search", "dist", "index.js");
  if (!existsSync(entry))
    throw new Error("@quiver/search is not built: run `pnpm --filter @quiver/search build` first.");
  return import(pathToFileURL(entry).href);
};

const dataFolder = () => {
  const folder = [
    process.env.QUIVER_SHARED_DATA,
    join(root, "..", "shared", "data"),
    join(root, "shared", "data"),
  ]
    .filter(Boolean)
    .map((d) => join(d, "beir-scifact"))
    .find((d) => existsSync(join(d, "corpus.jsonl")));
  if (!folder)
    throw new Error("SciFact not found: set QUIVER_SHARED_DATA to the folder holding beir-scifact/");
  return folder;
};

const jsonLines = (file) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line));

/** The corpus, the train queries and their judgments (qrels/train.tsv has CRLF line ends). */
const loadSciFact = () => {
  const folder = dataFolder();
  const corpus = jsonLines(join(folder, "corpus.jsonl"));
  const queryText = new Map(jsonLines(join(folder, "queries.jsonl")).map((q) => [q._id, q.text]));
  const qrels = new Map();
  for (const line of readFileSync(join(folder, "qrels", "train.tsv"), "utf8")
    .split(/\r?\n/)
    .slice(1)) {
    const [query, doc, score] = line.split("\t");
    if (!query || !doc) continue;
    if (!qrels.has(query)) qrels.set(query, new Map());
    qrels.get(query).set(doc, Number(score));
  }
  const queries = [...qrels].map(([id, judged]) => ({ id, text: queryText.get(id), judged }));
  return { corpus, queries: queries.filter((q) => q.text !== undefined) };
};

/** Runs every query through `search` (-> ranked doc ids, best first) and averages the metrics. */
const evaluate = async (queries, search, { ndcgAt, recallAt }) => {
  let ndcg = 0;
  let recall = 0;
  const times = [];
  for (const query of queries) {
    const start = performance.now();
    const ranking = await search(query.text);
    times.push(performance.now() - start);
    ndcg += ndcgAt(ranking, query.judged, 10);
    recall += recallAt(ranking, query.judged, 100);
  }
  return { ndcg: ndcg / queries.length, recall: recall / queries.length, medianMs: median(times) };
};

/** The baseline: plain FTS5, title + text in one column, porter stemming, OR of the query's words, bm25(). */
const baseline = (corpus) => {
  const db = new DatabaseSync(":memory:");
  db.exec("CREATE VIRTUAL TABLE docs USING fts5 (id UNINDEXED, body, tokenize = 'porter unicode61')");
  const start = performance.now();
  const insert = db.prepare("INSERT INTO docs (id, body) VALUES (?, ?)");
  db.exec("BEGIN");
  for (const doc of corpus) insert.run(doc._id, `${doc.title} ${doc.text}`);
  db.exec("COMMIT");
  const indexMs = performance.now() - start;
  const select = db.prepare("SELECT id FROM docs WHERE docs MATCH ? ORDER BY bm25(docs) LIMIT 100");
  const search = (text) => {
    const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
    return words.length ? select.all(words.map((w) => `"${w}"`).join(" OR ")).map((r) => r.id) : [];
  };
  return { db, indexMs, search };
};

export async function run() {
  const search = await loadSearch();
  const { corpus, queries } = loadSciFact();

  const index = await search.openSearchIndex({ path: ":memory:" });
  const start = performance.now();
  const added = await index.add(corpus.map((d) => ({ id: d._id, title: d.title, text: d.text })));
  const indexMs = performance.now() - start;
  const stats = await index.stats();
  const ours = await evaluate(
    queries,
    async (text) => (await index.search(text, { topK: 100 })).results.map((r) => r.docId),
    search,
  );
  const noFeedback = await evaluate(
    queries,
    async (text) => (await index.search(text, { topK: 100, feedback: false })).results.map((r) => r.docId),
    search,
  );
  await index.close();

  const plain = baseline(corpus);
  const base = await evaluate(queries, async (text) => plain.search(text), search);
  plain.db.close();

  const f = (x) => x.toFixed(4);
  const rows = [
    {
      system: "@quiver/search (BM25 + feedback)",
      docs: added.added + added.replaced,
      chunks: stats.chunks,
      "index s": (indexMs / 1000).toFixed(2),
      "median query ms": ours.medianMs.toFixed(2),
      "nDCG@10": f(ours.ndcg),
      "recall@100": f(ours.recall),
      "vs baseline": `${(ours.ndcg / base.ndcg).toFixed(3)}x`,
    },
    {
      system: "@quiver/search, feedback: false",
      docs: added.added + added.replaced,
      chunks: stats.chunks,
      "index s": "(same)",
      "median query ms": noFeedback.medianMs.toFixed(2),
      "nDCG@10": f(noFeedback.ndcg),
      "recall@100": f(noFeedback.recall),
      "vs baseline": `${(noFeedback.ndcg / base.ndcg).toFixed(3)}x`,
    },
    {
      system: "plain FTS5 BM25 (baseline)",
      docs: corpus.length,
      chunks: corpus.length,
      "index s": (plain.indexMs / 1000).toFixed(2),
      "median query ms": base.medianMs.toFixed(2),
      "nDCG@10": f(base.ndcg),
      "recall@100": f(base.recall),
      "vs baseline": "1.000x",
    },
  ];
  const columns = Object.keys(rows[0]);
  return {
    title: "@quiver/search on BEIR SciFact, train queries",
    table: table(rows, columns),
    rows,
    notes: [
      `${queries.length} train queries; nDCG@10 target ${TARGET}: ${ours.ndcg >= TARGET ? "met" : "NOT met"} (${f(ours.ndcg)}).`,
      "Published BM25 on the test split: 0.665 (BEIR, multifield), 0.679 (Anserini, flat); test judgments are withheld here.",
      "Times are wall-clock on a shared machine: read them as +/-30 %.",
    ],
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const result = await run();
  console.log(`## ${result.title}\n\n${result.table}\n\n${result.notes.map((n) => `- ${n}`).join("\n")}`);
}
