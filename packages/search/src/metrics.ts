/**
 * Relevance judgments of one query: document id -> graded relevance (0 = not relevant), as in TREC/BEIR qrels.
 */
export type Judgments = ReadonlyMap<string, number>;

/**
 * nDCG@k as BEIR (pytrec_eval's `ndcg_cut`) computes it: DCG = sum of rel_i / log2(i + 1) over ranks
 * i = 1..k with linear gains, divided by the DCG of the ideal ranking of the judged documents. Documents ranked
 * twice count once (first rank). A query without relevant documents scores 0.
 *
 * @example
 * ndcgAt(["d3", "d1"], new Map([["d1", 1]]), 10); // 1 / log2(3) = 0.631
 */
export function ndcgAt(ranking: readonly string[], judgments: Judgments, k: number): number {
  let dcg = 0;
  const seen = new Set<string>();
  let rank = 0;
  for (const id of ranking) {
    if (rank >= k) break;
    if (seen.has(id)) continue;
    seen.add(id);
    rank++;
    const gain = judgments.get(id) ?? 0;
    if (gain > 0) dcg += gain / Math.log2(rank + 1);
  }
  const ideal = [...judgments.values()]
    .filter((gain) => gain > 0)
    .sort((a, b) => b - a)
    .slice(0, k);
  const idcg = ideal.reduce((sum, gain, i) => sum + gain / Math.log2(i + 2), 0);
  return idcg > 0 ? dcg / idcg : 0;
}

/**
 * Recall@k: the share of relevant documents (relevance > 0) found in the first k of the ranking. A query
 * without relevant documents scores 0.
 *
 * @example
 * recallAt(["d3", "d1"], new Map([["d1", 1], ["d2", 1]]), 100); // 0.5
 */
export function recallAt(ranking: readonly string[], judgments: Judgments, k: number): number {
  const relevant = [...judgments].filter(([, gain]) => gain > 0).map(([id]) => id);
  if (relevant.length === 0) return 0;
  const top = new Set(ranking.slice(0, k));
  return relevant.filter((id) => top.has(id)).length / relevant.length;
}
