/**
 * BM25's two formulas on their own, for code that ranks without an index (a host ranking its tools):
 * `@quiver/search/ranking` loads none of the index, the analyzer or SQLite.
 */
export { idf as bm25Idf, saturation as bm25Saturation } from "./internal/ranking.js";
