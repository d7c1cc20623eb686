import { bm25Idf, bm25Saturation } from "@quiver/search/ranking";
import { tokenize } from "./tokenize.js";

/** What the ranker reads of a tool. */
export interface RankableTool {
  readonly name: string;
  readonly plugin: string;
  readonly title?: string;
  readonly description: string;
  readonly category: string;
  readonly available: boolean;
  readonly examples?: ReadonlyArray<{ readonly input: unknown; readonly description?: string }>;
}

/** One ranked tool. */
export interface ToolMatch {
  readonly name: string;
  readonly plugin: string;
  readonly description: string;
  readonly category: string;
  readonly available: boolean;
  /** BM25 score (higher is better; only comparable within one query). */
  readonly score: number;
  /** The query terms this tool matched. */
  readonly matched: ReadonlyArray<string>;
}

/** A BM25 index over a catalog's tools. */
export interface ToolIndex {
  rank(need: string, options?: { readonly limit?: number; readonly category?: string }): ToolMatch[];
}

// Field weights: repeating a field's terms is BM25F's weighting in its simplest form. The BM25
// arithmetic (IDF, saturation, k1, b) and the analyzer are @quiver/search's; only the verb synonyms are
// this finder's own (tokenize.ts folds "find" onto "search", which documents do not want).
const WEIGHTS = { name: 3, title: 2, category: 2, plugin: 2, description: 1, examples: 1 } as const;

const exampleText = (examples: RankableTool["examples"]) =>
  (examples ?? [])
    .map((e) => `${e.description ?? ""} ${JSON.stringify(e.input ?? {}).replace(/"[a-zA-Z_]+":/g, " ")}`)
    .join(" ");

/**
 * Builds a BM25 index over tools (name, title, category, plugin, description and examples, with
 * field weights) and ranks them for a need in words. Ties keep catalog order; tools that match no
 * term are left out.
 *
 * @example
 * const index = indexTools(catalog.export().tools)
 * index.rank("find FDA-approved kinase inhibitors")[0]?.name // "fda_search_drugs"
 */
export const indexTools = (tools: ReadonlyArray<RankableTool>): ToolIndex => {
  const docs = tools.map((t) => {
    const terms: string[] = [];
    const add = (text: string | undefined, weight: number) => {
      if (!text) return;
      const tokens = tokenize(text);
      for (let i = 0; i < weight; i++) terms.push(...tokens);
    };
    add(t.name, WEIGHTS.name);
    add(t.title, WEIGHTS.title);
    add(t.category, WEIGHTS.category);
    add(t.plugin, WEIGHTS.plugin);
    add(t.description, WEIGHTS.description);
    add(exampleText(t.examples), WEIGHTS.examples);
    const tf = new Map<string, number>();
    for (const term of terms) tf.set(term, (tf.get(term) ?? 0) + 1);
    return { tool: t, tf, length: terms.length };
  });
  const df = new Map<string, number>();
  for (const d of docs) for (const term of d.tf.keys()) df.set(term, (df.get(term) ?? 0) + 1);
  const avg = docs.reduce((s, d) => s + d.length, 0) / Math.max(1, docs.length);
  const n = docs.length;
  const idf = (term: string) => bm25Idf(n, df.get(term) ?? 0);
  return {
    rank: (need, options = {}) => {
      const query = [...new Set(tokenize(need))];
      const limit = options.limit ?? 5;
      const scored: ToolMatch[] = [];
      for (const d of docs) {
        if (options.category && d.tool.category !== options.category) continue;
        let score = 0;
        const matched: string[] = [];
        for (const term of query) {
          const f = d.tf.get(term);
          if (!f) continue;
          matched.push(term);
          score += idf(term) * bm25Saturation(0, f, d.length, avg);
        }
        if (score <= 0) continue;
        scored.push({
          name: d.tool.name,
          plugin: d.tool.plugin,
          description: d.tool.description,
          category: d.tool.category,
          available: d.tool.available,
          score: Math.round(score * 1000) / 1000,
          matched,
        });
      }
      return scored.sort((a, b) => b.score - a.score).slice(0, limit);
    },
  };
};
