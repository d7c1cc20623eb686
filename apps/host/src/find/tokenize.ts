const STOPWORDS = new Set(
  (
    "a an the and or of for to in on at by with from about into over as is are was were be been it its this that " +
    "these those i me my we our you your he she they them what which who whom how when where why can could " +
    "would should will shall do does did please some any all me tool tools need want using use something thing " +
    "el la los las de del y o en un una para por con que"
  ).split(" "),
);

/** Verbs people use for the same action, folded onto one word so "find" meets "search". */
const SYNONYMS: Readonly<Record<string, string>> = {
  find: "search",
  look: "search",
  lookup: "search",
  seek: "search",
  query: "search",
  retrieve: "search",
  searching: "search",
  tally: "count",
  howmany: "count",
  number: "count",
};

const stem = (t: string): string => {
  if (t.length > 4 && t.endsWith("ies")) return `${t.slice(0, -3)}y`;
  if (t.length > 4 && t.endsWith("ing")) return t.slice(0, -3);
  if (t.length > 3 && t.endsWith("s") && !t.endsWith("ss") && !t.endsWith("us")) return t.slice(0, -1);
  return t;
};

/**
 * Splits text into search terms: lower case, accents removed, split on anything that is not a letter
 * or digit (so `weather_get_forecast` and "NASA-approved" split too), stop words dropped, a light stem,
 * and common verb synonyms folded ("find" → "search", "how many" → "count").
 *
 * @example
 * tokenize("Find NASA-approved rocket engines") // ["search", "nasa", "approved", "rocket", "engine"]
 */
export const tokenize = (text: string): string[] => {
  const words = text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/how many/g, "howmany")
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1);
  const out: string[] = [];
  for (const w of words) {
    const folded = SYNONYMS[w] ?? w;
    if (STOPWORDS.has(folded)) continue;
    out.push(SYNONYMS[stem(folded)] ?? stem(folded));
  }
  return out;
};
