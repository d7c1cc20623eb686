import { SearchError } from "../errors.js";
import type {
  AddOptions,
  MetadataValue,
  SearchDocument,
  SearchHit,
  SearchOptions,
  TextRange,
} from "../types.js";
import { analyze, matchingWords } from "./analyzer.js";
import {
  countTerms,
  expansionTerms,
  FEEDBACK_DOCS,
  FEEDBACK_WEIGHT,
  K1,
  RERANK_DEPTH,
  saturation,
  type TermCounts,
} from "./ranking.js";
import { collectionProblem, documentProblem } from "./validate.js";

/**
 * What every store shares around its storage: query analysis, option checks, the JavaScript re-scoring with
 * feedback, and the shape of a hit. The SQLite and PostgreSQL stores differ only in how they fetch rows, so
 * both rank with this one code.
 */

/** The collection of documents added without one. */
export const DEFAULT_COLLECTION = "default";
/** Documents per transaction in `add`; the event loop gets a turn between batches. */
export const BATCH_SIZE = 200;
/** Distinct query terms used; a pasted page should not become a thousand-term OR. */
const MAX_QUERY_TERMS = 100;
const MAX_TOP_K = 1000;

/** A first-pass result: a chunk, its document and its score. */
export interface Candidate {
  readonly chunk: number;
  readonly doc: number;
  score: number;
}

/** A chunk's analysed terms as stored: title and body, space-separated. */
export interface ChunkTerms {
  readonly title: string;
  readonly body: string;
}

/** Search terms of a query: analysed, de-duplicated (a query is a set of terms), at most MAX_QUERY_TERMS. */
export function queryTerms(query: string): string[] {
  return [...new Set(analyze(query))].slice(0, MAX_QUERY_TERMS);
}

/** Checks a search's query and topK, returning topK. */
export function checkSearch(query: unknown, options: SearchOptions): number {
  if (typeof query !== "string") throw new SearchError("invalid_option", "query must be a string");
  const topK = options.topK ?? 10;
  if (!Number.isInteger(topK) || topK < 1 || topK > MAX_TOP_K) {
    throw new SearchError("invalid_option", `topK must be an integer from 1 to ${MAX_TOP_K}, got ${topK}`);
  }
  return topK;
}

/** Checks a collection name and returns it. */
export function checkCollection(name: string | undefined): string {
  const collection = name ?? DEFAULT_COLLECTION;
  const problem = collectionProblem(collection);
  if (problem) throw new SearchError("invalid_option", problem);
  return collection;
}

/** Checks the documents and collection of an `add` call before anything is written. */
export function checkAdd(
  documents: Iterable<SearchDocument>,
  options: AddOptions,
): { collection: string; docs: SearchDocument[] } {
  const collection = checkCollection(options.collection);
  const docs = Array.from(documents);
  docs.forEach((doc, i) => {
    const why = documentProblem(doc);
    if (why) {
      const id = typeof doc?.id === "string" ? ` (id ${JSON.stringify(doc.id)})` : "";
      throw new SearchError("invalid_document", `document ${i}${id} ${why}`);
    }
  });
  return { collection, docs };
}

/** The number of first-pass candidates to score: at least RERANK_DEPTH, and enough to fill `topK`. */
export function rerankDepth(candidates: readonly Candidate[], topK: number, group: boolean): number {
  let depth = Math.min(RERANK_DEPTH, candidates.length);
  if (group) {
    const docs = new Set<number>();
    for (let i = 0; i < candidates.length && docs.size < topK; i++) {
      docs.add(candidates[i]!.doc);
      depth = Math.max(depth, i + 1);
    }
  } else depth = Math.max(depth, Math.min(topK, candidates.length));
  return depth;
}

/** The feedback documents: the best first-pass chunk of each of the best FEEDBACK_DOCS documents. */
export function feedbackDocuments(
  scored: readonly Candidate[],
  termsOf: ReadonlyMap<number, ChunkTerms>,
): { terms: TermCounts; score: number }[] {
  const feedbackDocs: { terms: TermCounts; score: number }[] = [];
  const seen = new Set<number>();
  for (const candidate of scored) {
    if (seen.has(candidate.doc)) continue;
    seen.add(candidate.doc);
    const row = termsOf.get(candidate.chunk);
    if (row) feedbackDocs.push({ terms: countTerms(row.title, row.body), score: candidate.score });
    if (feedbackDocs.length === FEEDBACK_DOCS) break;
  }
  return feedbackDocs;
}

/**
 * Scores the first `depth` candidates in JavaScript: BM25 of the query terms plus, with feedback, the weighted
 * BM25 of expansion terms drawn from the best first-pass documents (see ranking.ts); the rest keep their
 * first-pass order below. `idfOf` must answer for every query term and every term of the feedback documents.
 * Returns the highest score the query could reach (every term saturated: BM25's term-frequency part tends to
 * k1 + 1).
 */
export function rescore(
  candidates: Candidate[],
  depth: number,
  termsOf: ReadonlyMap<number, ChunkTerms>,
  terms: readonly string[],
  idfOf: (term: string) => number,
  averageLength: number,
  feedback: boolean,
): number {
  const scored = candidates.slice(0, depth);
  // Term weights: IDF for each query term, plus the feedback share for expansion terms.
  const weight = new Map(terms.map((term) => [term, idfOf(term)]));
  if (feedback) {
    for (const [term, w] of expansionTerms(feedbackDocuments(scored, termsOf), idfOf)) {
      weight.set(term, (weight.get(term) ?? 0) + FEEDBACK_WEIGHT * w * idfOf(term));
    }
  }

  const counts = new Map<string, [number, number]>();
  const tally = (text: string, field: 0 | 1): number => {
    if (!text) return 0;
    const words = text.split(" ");
    for (const term of words) {
      if (!weight.has(term)) continue;
      const entry = counts.get(term);
      if (entry) entry[field]++;
      else counts.set(term, field === 0 ? [1, 0] : [0, 1]);
    }
    return words.length;
  };
  let lowest = Number.POSITIVE_INFINITY;
  for (const candidate of scored) {
    const row = termsOf.get(candidate.chunk);
    counts.clear();
    const length = row ? tally(row.title, 0) + tally(row.body, 1) : 0;
    let score = 0;
    for (const [term, [titleTf, bodyTf]] of counts) {
      score += weight.get(term)! * saturation(titleTf, bodyTf, length, averageLength);
    }
    candidate.score = score;
    lowest = Math.min(lowest, score);
  }
  scored.sort((a, b) => b.score - a.score || a.chunk - b.chunk);
  candidates.splice(0, scored.length, ...scored);
  // Unscored candidates stay below, with scores that do not claim otherwise.
  for (let i = scored.length; i < candidates.length; i++)
    candidates[i]!.score = Math.min(candidates[i]!.score, lowest);
  let bound = 0;
  for (const w of weight.values()) bound += w * (K1 + 1);
  return bound;
}

/** The candidates returned: the first `topK`, one per document when grouping. */
export function pick(candidates: readonly Candidate[], topK: number, group: boolean): Candidate[] {
  const picked: Candidate[] = [];
  const seen = new Set<number>();
  for (const candidate of candidates) {
    if (group) {
      if (seen.has(candidate.doc)) continue;
      seen.add(candidate.doc);
    }
    picked.push(candidate);
    if (picked.length === topK) break;
  }
  return picked;
}

/** A stored chunk with its document's fields, as both stores read it for a hit. */
export interface HitRow {
  readonly chunk: number;
  readonly ord: number;
  readonly text: string;
  readonly id: string;
  readonly collection: string;
  readonly title: string | null;
  readonly date: string | null;
  readonly doi: string | null;
  readonly authors: string | null;
  readonly tags: string | null;
  readonly metadata: string;
  readonly chunks: number;
}

/** The hits of the picked candidates, in their order, from their rows. */
export function toHits(
  picked: readonly Candidate[],
  rows: readonly HitRow[],
  bound: number,
  terms: ReadonlySet<string>,
): SearchHit[] {
  const byChunk = new Map(rows.map((row) => [Number(row.chunk), row]));
  return picked.flatMap((candidate) => {
    const row = byChunk.get(candidate.chunk);
    if (!row) return [];
    const highlights: TextRange[] = matchingWords(row.text, terms);
    const hit: SearchHit = {
      id: `${row.id}#${row.ord}`,
      docId: row.id,
      collection: row.collection,
      chunk: Number(row.ord),
      chunks: Number(row.chunks),
      ...(row.title === null ? {} : { title: row.title }),
      text: row.text,
      score: bound > 0 ? Math.min(1, Math.max(0, candidate.score / bound)) : 0,
      metadata: JSON.parse(row.metadata) as Record<string, MetadataValue>,
      ...(row.authors === null ? {} : { authors: JSON.parse(row.authors) as string[] }),
      ...(row.date === null ? {} : { date: row.date }),
      ...(row.tags === null ? {} : { tags: JSON.parse(row.tags) as string[] }),
      ...(row.doi === null ? {} : { doi: row.doi }),
      highlights,
    };
    return [hit];
  });
}
