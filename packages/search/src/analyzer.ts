/**
 * The analyzer the index turns text into terms with (Lucene-style folding, the English stop words, the Porter
 * stemmer), for code that ranks small in-memory sets with the same words as the index (a host ranking its
 * tools): `@quiver/search/analyzer` loads none of the index or SQLite.
 *
 * @example
 * import { analyze } from "@quiver/search/analyzer"
 * analyze("The Cells were DIVIDING") // ["cell", "were", "divid"]
 */
export { analyze } from "./internal/analyzer.js";
