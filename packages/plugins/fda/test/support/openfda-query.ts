import type { FieldKind } from "./openfda-definitions.js";

/**
 * A strict parser for the openFDA search expressions the plugin may send, written for the tests
 * independently of the plugin's builder. Anything outside this grammar throws:
 *
 *   query  := group (" AND " group)*
 *   group  := term | "(" term (" OR " term)+ ")"
 *   term   := FIELD ":" (phrase | range | "(" phrase (" OR " phrase)* ")")
 *   phrase := '"' [^"\\]* '"'          range := "[" YYYYMMDD " TO " YYYYMMDD "]"
 */
export type Term =
  | { readonly field: string; readonly kind: "phrase"; readonly values: ReadonlyArray<string> }
  | { readonly field: string; readonly kind: "range"; readonly from: string; readonly to: string };

/** One AND-ed group: its terms are OR-ed. */
export type Group = ReadonlyArray<Term>;

/** Parses a search expression of the grammar above; throws on anything outside it. */
export const parseSearch = (q: string): Group[] => {
  let i = 0;
  const fail = (what: string): never => {
    throw new Error(`unexpected ${what} at ${i} in ${JSON.stringify(q)}`);
  };
  const eat = (s: string) => {
    if (q.startsWith(s, i)) {
      i += s.length;
      return true;
    }
    return false;
  };
  const phrase = (): string => {
    if (!eat('"')) fail("missing opening quote");
    const end = q.indexOf('"', i);
    if (end < 0) fail("unterminated phrase");
    const body = q.slice(i, end);
    if (body.includes("\\")) fail("backslash inside a phrase");
    i = end + 1;
    return body;
  };
  const term = (): Term => {
    const m = /^[a-z_]+(?:\.[a-z_]+)*/.exec(q.slice(i));
    if (!m) return fail("field name");
    const field = m[0];
    i += field.length;
    if (!eat(":")) fail("missing colon");
    if (eat("[")) {
      const r = /^(\d{8}) TO (\d{8})\]/.exec(q.slice(i));
      if (!r) return fail("range");
      i += r[0].length;
      return { field, kind: "range", from: r[1]!, to: r[2]! };
    }
    if (eat("(")) {
      const values = [phrase()];
      while (eat(" OR ")) values.push(phrase());
      if (!eat(")")) fail("missing closing parenthesis of a value list");
      return { field, kind: "phrase", values };
    }
    return { field, kind: "phrase", values: [phrase()] };
  };
  const group = (): Group => {
    if (eat("(")) {
      const terms = [term()];
      while (eat(" OR ")) terms.push(term());
      if (!eat(")")) fail("missing closing parenthesis");
      if (terms.length < 2) fail("a one-term group");
      return terms;
    }
    return [term()];
  };
  const groups = [group()];
  while (eat(" AND ")) groups.push(group());
  if (i !== q.length) fail("trailing text");
  return groups;
};

/**
 * Lower-case words, as Elasticsearch's standard analyzer (the one openFDA's `text` fields use) splits
 * text: runs of Unicode letters and digits, an apostrophe inside a word kept (`crohn's`), everything
 * else a separator.
 */
export const words = (s: string): string[] =>
  s
    .toLowerCase()
    .split(/[^\p{L}\p{N}']+/u)
    .map((w) => w.replace(/^'+|'+$/g, ""))
    .filter(Boolean);

/** Every value at a dotted path, arrays flattened. */
export const valuesAt = (record: unknown, path: string): unknown[] => {
  let current: unknown[] = [record];
  for (const key of path.split(".")) {
    const next: unknown[] = [];
    for (const v of current) {
      const child = v && typeof v === "object" ? (v as Record<string, unknown>)[key] : undefined;
      if (Array.isArray(child)) next.push(...child);
      else if (child !== undefined) next.push(child);
    }
    current = next;
  }
  return current;
};

const phraseIn = (text: string, phrase: string) => {
  const t = words(text);
  const p = words(phrase);
  if (p.length === 0) return false;
  for (let k = 0; k + p.length <= t.length; k++) if (p.every((w, j) => t[k + j] === w)) return true;
  return false;
};

/** How a field is matched: its kind in openFDA's mapping, `undefined` for a field it does not have. */
export type KindOf = (field: string) => FieldKind | undefined;

const termMatches = (record: unknown, t: Term, kindOf: KindOf): boolean => {
  const kind = kindOf(t.field);
  // A field the mapping lacks matches nothing in Elasticsearch (no error): the same here.
  if (kind === undefined) return false;
  const values = valuesAt(record, t.field.replace(/\.exact$/, "")).map(String);
  if (t.kind === "range") return kind === "date" && values.some((v) => v >= t.from && v <= t.to);
  // A phrase on a keyword field is one term: the whole stored value, case included.
  if (kind === "keyword") return t.values.some((p) => values.includes(p));
  if (kind === "text") return t.values.some((p) => values.some((v) => phraseIn(v, p)));
  return false;
};

/**
 * Whether a record satisfies a parsed query, each field matched as openFDA's mapping says: keyword
 * = the exact stored value, text = the phrase's words in order (any case), date = inclusive range.
 */
export const matches = (record: unknown, groups: ReadonlyArray<Group>, kindOf: KindOf): boolean =>
  groups.every((g) => g.some((t) => termMatches(record, t, kindOf)));
