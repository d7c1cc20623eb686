/**
 * Ranking: SQLite FTS5's BM25 picks candidate chunks; the best of them are scored again in JavaScript with
 * BM25 (same k1, b and title weight as FTS5, but Lucene's always-positive IDF) plus pseudo-relevance feedback. Every constant here is global (no per-query tuning); the README gives the
 * SciFact measurements behind them. Halving or doubling any one feedback constant moved train nDCG@10 by at
 * most 0.002 (0.709 to 0.714): the values sit on a plateau, not on a tuned peak.
 */

/**
 * BM25 term-frequency saturation and length normalisation: the classic values, which FTS5's `bm25()` also
 * fixes, so candidates are picked and scored alike.
 */
export const K1 = 1.2;
export const B = 0.75;

/**
 * Weight of a title occurrence relative to a body occurrence (FTS5 column weight). Titles state what a
 * document is about in few words; on SciFact 2 gained about 0.003 nDCG@10 over 1, and 3 was no better.
 */
export const TITLE_WEIGHT = 2;

/** First-pass chunks fetched: enough for the largest topK, and the count is exact below it. */
export const CANDIDATE_DEPTH = 1000;

/**
 * Candidate chunks scored in JavaScript (more when needed to fill topK documents). Scoring reads each chunk's
 * terms, the main cost of a query. On SciFact 300 ranks within 0.0004 nDCG@10 of 1000 at a third of the cost;
 * 100 loses recall@100 (0.928 vs 0.936).
 */
export const RERANK_DEPTH = 300;

/** Feedback documents: the best first-pass documents the expansion terms are drawn from. */
export const FEEDBACK_DOCS = 5;

/**
 * Each feedback document weighs exp((score - best) / T), a softmax over first-pass BM25 scores: BM25 read as a
 * log-likelihood, as relevance models weigh documents by query likelihood. With T = 1 a document that trails
 * the best by two points counts about a seventh as much, so a clear winner dominates the feedback.
 */
export const FEEDBACK_TEMPERATURE = 1;

/** Expansion terms kept: the heaviest in the weighted feedback vector (query terms included, so they are re-weighted). */
export const FEEDBACK_TERMS = 30;

/**
 * Weight of the expansion (heaviest term = 1) relative to the original query terms (1 each). Large enough to
 * re-order near-ties, too small to override the query.
 */
export const FEEDBACK_WEIGHT = 0.5;

/**
 * Lucene's BM25 IDF, ln(1 + (N - n + 0.5) / (n + 0.5)). FTS5's ln((N - n + 0.5) / (n + 0.5)) is floored at
 * zero for any term in half of the chunks: harmless in a large corpus, but in a ten-document repository it
 * makes a word found in five of them worthless. This one stays positive and is otherwise almost the same.
 */
export function idf(chunks: number, containing: number): number {
  return Math.log(1 + (chunks - containing + 0.5) / (containing + 0.5));
}

/** The term-frequency part of BM25 for one term in one chunk, as FTS5 computes it (multiply by IDF). */
export function saturation(titleTf: number, bodyTf: number, length: number, averageLength: number): number {
  const tf = TITLE_WEIGHT * titleTf + bodyTf;
  if (tf === 0) return 0;
  return (tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * length) / averageLength));
}

/** A candidate chunk's terms, counted per field. */
export interface TermCounts {
  readonly title: ReadonlyMap<string, number>;
  readonly body: ReadonlyMap<string, number>;
  /** Terms in title and body together, FTS5's document length. */
  readonly length: number;
}

/** Counts space-separated terms, as stored in the FTS5 columns. */
export function countTerms(title: string, body: string): TermCounts {
  const count = (text: string): [Map<string, number>, number] => {
    const counts = new Map<string, number>();
    if (!text) return [counts, 0];
    const terms = text.split(" ");
    for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
    return [counts, terms.length];
  };
  const [titleCounts, titleLength] = count(title);
  const [bodyCounts, bodyLength] = count(body);
  return { title: titleCounts, body: bodyCounts, length: titleLength + bodyLength };
}

/** A feedback document: its terms and first-pass score. */
export interface FeedbackDocument {
  readonly terms: TermCounts;
  readonly score: number;
}

/**
 * The expansion of a query from its best first-pass documents (a Rocchio / relevance-model blend): each
 * document contributes its length-normalised TF-IDF vector, (1 + ln tf) x idf over unit length, weighted by
 * the softmax of its score. Returns the heaviest terms with weights scaled so the heaviest is 1. Numbers and
 * one-letter terms are left out: they match by accident more often than by topic.
 */
export function expansionTerms(
  documents: readonly FeedbackDocument[],
  idfOf: (term: string) => number,
): Map<string, number> {
  const weights = new Map<string, number>();
  const best = Math.max(...documents.map((d) => d.score));
  for (const { terms, score } of documents) {
    const vector = new Map<string, number>();
    let norm = 0;
    const add = (term: string, tf: number) => vector.set(term, (vector.get(term) ?? 0) + tf);
    for (const [term, tf] of terms.title) add(term, TITLE_WEIGHT * tf);
    for (const [term, tf] of terms.body) add(term, tf);
    for (const [term, tf] of vector) {
      const w = (1 + Math.log(tf)) * idfOf(term);
      vector.set(term, w);
      norm += w * w;
    }
    if (norm === 0) continue;
    const scale = Math.exp((score - best) / FEEDBACK_TEMPERATURE) / Math.sqrt(norm);
    for (const [term, w] of vector) {
      if (term.length < 2 || /^\d+$/.test(term)) continue;
      weights.set(term, (weights.get(term) ?? 0) + w * scale);
    }
  }
  const top = [...weights].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, FEEDBACK_TERMS);
  const max = top[0]?.[1] ?? 0;
  return new Map(max > 0 ? top.map(([term, w]) => [term, w / max]) : []);
}
