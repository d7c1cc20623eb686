import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { SearchDocument } from "../src/index.js";

// A SciFact subset: the documents judged relevant for the first 50 train queries plus 1,000 others, in corpus
// order (fixtures/scifact-subset/SOURCE.md says how it was cut).
const folder = join(import.meta.dirname, "fixtures", "scifact-subset");

const jsonLines = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Record<string, string>);

/** The subset's documents, its first 50 train queries and their judgments. */
export function scifactSubset(): {
  docs: SearchDocument[];
  queries: Map<string, string>;
  judgments: Map<string, Map<string, number>>;
} {
  const judgments = new Map<string, Map<string, number>>();
  for (const line of readFileSync(join(folder, "qrels", "train.tsv"), "utf8")
    .split(/\r?\n/)
    .slice(1)) {
    const [query, doc, score] = line.split("\t");
    if (!query || !doc) continue;
    if (!judgments.has(query) && judgments.size === 50) continue;
    if (!judgments.has(query)) judgments.set(query, new Map());
    judgments.get(query)!.set(doc, Number(score));
  }
  const relevant = new Set([...judgments.values()].flatMap((j) => [...j.keys()]));
  let others = 0;
  const docs = jsonLines(join(folder, "corpus.jsonl"))
    .filter((d) => relevant.has(d._id!) || (others < 1000 && ++others > 0))
    .map((d) => ({ id: d._id!, title: d.title!, text: d.text! }));
  const queries = new Map(jsonLines(join(folder, "queries.jsonl")).map((q) => [q._id!, q.text!]));
  return { docs, queries, judgments };
}
