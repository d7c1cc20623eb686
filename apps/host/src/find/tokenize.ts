import { analyze } from "@quiver/search/analyzer";

/**
 * Verbs people use for the same action, folded onto one word so "find" meets "search". This is the finder's
 * own: documents do not want "find" to mean "search", a request for a tool does. Folding, stop words and
 * stemming are @quiver/search's analyzer, so the finder and the index read words the same way.
 */
const SYNONYMS: Readonly<Record<string, string>> = {
  find: "search",
  look: "search",
  lookup: "search",
  seek: "search",
  query: "search",
  retrieve: "search",
  tally: "count",
  howmany: "count",
  number: "count",
};

/** The synonyms keyed and valued by their analysed terms ("queri" → "search"). */
const FOLDED: ReadonlyMap<string, string> = new Map(
  Object.entries(SYNONYMS).map(([word, meaning]) => [
    analyze(word)[0] ?? word,
    analyze(meaning)[0] ?? meaning,
  ]),
);

/**
 * Splits text into search terms with @quiver/search's analyzer (lower case, accents removed, split on
 * anything that is not a letter or digit, so `weather_get_forecast` and "NASA-approved" split too, English
 * stop words dropped, Porter stem), then folds common verb synonyms ("find" → "search", "how many" → "count").
 *
 * @example
 * tokenize("Find NASA-approved rocket engines") // ["search", "nasa", "approv", "rocket", "engin"]
 */
export const tokenize = (text: string): string[] =>
  analyze(text.replace(/how many/gi, "howmany")).map((term) => FOLDED.get(term) ?? term);
