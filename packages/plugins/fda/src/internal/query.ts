import { fail } from "@quiver/core";
import { type Criteria, TEXT_CRITERIA, type TextCriterion } from "./criteria.js";

/**
 * The characters openFDA accepts in `search`, and nothing else: its API server tests every search
 * against `SUPPORTED_QUERY_RE` (github.com/FDA/openfda, api/faers/elasticsearch_query.js) and answers
 * any other character (accents, `®`, `™`, `?`, `!`, `#`, `;`, tabs) with HTTP 400 "Search not supported".
 */
const REFUSED_BY_OPENFDA = /[^&0-9a-zA-Z@%/\\',._:()"[\]{}\-+><=* ]/g;

/**
 * Latin letters that Unicode decomposition leaves whole, spelt as English-language FDA text spells
 * them (capitals as the capitals of the same spelling). Written by hand: transliteration libraries
 * spell by language (German `ö` → `oe`), and FDA text writes `Sjogren`, not `Sjoegren`;
 * decomposition plus this short table gives that spelling.
 */
const ASCII_SPELLING: Readonly<Record<string, string | undefined>> = Object.fromEntries(
  "ß:ss æ:ae œ:oe ø:o đ:d ð:d þ:th ł:l ı:i".split(" ").map((pair) => pair.split(":")),
);

/** A letter of {@link ASCII_SPELLING} in ASCII, a capital in capitals; any other character a space. */
const spell = (c: string): string => {
  const lower = ASCII_SPELLING[c.toLowerCase()];
  return lower === undefined ? " " : c === c.toLowerCase() ? lower : lower.toUpperCase();
};

/**
 * Makes a user value safe inside an openFDA phrase (`field:"…"`) and acceptable to openFDA.
 *
 * - Accented and compatibility letters become their ASCII letters (`Sjögren` → `Sjogren`,
 *   full-width `Ａ` → `A`): openFDA accepts only ASCII letters in a search.
 * - Symbols (`®`, `™`, `©`, `°`) and any other character openFDA refuses become spaces, as do `"`
 *   (which would close the phrase) and `\` (which would escape the closing quote); the analyzer
 *   splits words on all of them anyway, so the match is unchanged.
 * - `AND`, `OR`, `+`, `:`, `(`, `)`, `*`, `[`, `]` stay literal text of the phrase. Whitespace is collapsed.
 *
 * @example
 * phraseText("Ozempic®") // "Ozempic"
 * phraseText("Sjögren's syndrome") // "Sjogren's syndrome"
 */
export const phraseText = (value: string): string =>
  value
    // Symbols first: compatibility decomposition would spell `™` as "TM" and `℃` as "°C".
    .replace(/[\p{So}\p{Sc}\p{Sk}]/gu, " ")
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    // Typographic apostrophes and dashes: the analyzer keeps `crohn's` as one word, so `’` stays an apostrophe.
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[\u2010\u2011\u2013\u2014]/g, "-")
    .replace(/[^\x20-\x7e]/g, spell)
    .replace(REFUSED_BY_OPENFDA, " ")
    .replace(/["\\]/g, " ")
    .replace(/\s+/g, " ")
    .trim();

/** The two openFDA endpoints the plugin searches. */
export type Endpoint = "drugsfda" | "label";

/** What to ask openFDA: an endpoint and its `search` expression (none: every record). */
export type Query = { readonly endpoint: Endpoint; readonly search?: string | undefined };

/** A quoted openFDA phrase for a user value; an empty value after cleaning is invalid input. */
export const quote = (value: string, criterion: string): string => {
  const cleaned = phraseText(value);
  if (!/[\p{L}\p{N}]/u.test(cleaned)) {
    const message = `search_criteria.${criterion} has no letters or digits to search for (openFDA searches Latin letters and digits only).`;
    const suggestion = `Give ${criterion} as words in Latin letters, e.g. a drug or company name.`;
    throw fail.invalidInput(message, { suggestion });
  }
  return `"${cleaned}"`;
};

/** openFDA's pharmacologic classes: established (EPC), mechanism, physiologic effect, chemical structure. */
const PHARM_CLASS_FIELDS = ["epc", "moa", "pe", "cs"].map((kind) => `openfda.pharm_class_${kind}`);

/** Fields searched for each criterion on each endpoint (several fields are OR-ed). */
export const FIELDS: Readonly<Record<Endpoint, Partial<Record<TextCriterion, ReadonlyArray<string>>>>> = {
  drugsfda: {
    active_ingredient: ["products.active_ingredients.name", "openfda.substance_name"],
    brand_name: ["products.brand_name", "openfda.brand_name"],
    generic_name: ["openfda.generic_name"],
    pharmacologic_class: PHARM_CLASS_FIELDS,
    // sponsor_name is a keyword holding Drugs@FDA's short form ("NOVO", "ELI LILLY AND CO"): only that
    // exact value matches it. openfda.manufacturer_name is analysed text ("Novo Nordisk"), so the
    // name people use matches there (records without an openfda block have only sponsor_name).
    sponsor: ["sponsor_name", "openfda.manufacturer_name"],
    route: ["products.route", "openfda.route"],
  },
  label: {
    indication: ["indications_and_usage"],
    active_ingredient: ["openfda.substance_name", "openfda.generic_name"],
    brand_name: ["openfda.brand_name"],
    generic_name: ["openfda.generic_name"],
    pharmacologic_class: PHARM_CLASS_FIELDS,
    route: ["openfda.route"],
  },
};

/**
 * Fields openFDA indexes as `keyword` holding upper-case values (schemas/drugsfda_mapping.json of
 * github.com/FDA/openfda): a phrase on them matches the whole stored value, case included, so the
 * value is sent in upper case. Every other searched field is analysed text (words, any case).
 */
export const UPPER_CASE_KEYWORDS: ReadonlySet<string> = new Set(["sponsor_name"]);

/** The Drugs@FDA date field holding each submission's status date (YYYYMMDD). */
export const SUBMISSION_DATE_FIELD = "submissions.submission_status_date";

/** `field:"v"` or `(f1:"v" OR f2:"V")`, the phrase in upper case for an upper-case keyword field. */
const clause = (fields: ReadonlyArray<string>, phrase: string): string => {
  const terms = fields.map((f) => `${f}:${UPPER_CASE_KEYWORDS.has(f) ? phrase.toUpperCase() : phrase}`);
  return terms.length === 1 ? terms[0]! : `(${terms.join(" OR ")})`;
};

/**
 * Translates criteria into an openFDA `search` expression: one clause per criterion joined with
 * AND, every user value quoted as a phrase, so no value can add an operator, a field or a group.
 * The endpoint is drug labels when an indication is asked for, else Drugs@FDA. On the drugsfda
 * endpoint the approval-year range narrows candidates by submission date (the exact original-approval
 * year is checked afterwards); on the label endpoint sponsor and approval year are checked afterwards
 * through Drugs@FDA. `search` is undefined for no criteria (spaces stay spaces: the URL encoder turns
 * them into `+`); `deferred` names the criteria checked after the response, `fields` the openFDA fields
 * each text criterion in `search` is matched on.
 */
export const buildSearch = (c: Criteria, endpoint: Endpoint = c.indication ? "label" : "drugsfda") => {
  const clauses: string[] = [];
  const deferred: string[] = [];
  const searched: Record<string, string[]> = {};
  for (const k of TEXT_CRITERIA) {
    const fields = FIELDS[endpoint][k];
    const value = c[k];
    if (fields === undefined || value === undefined) continue;
    clauses.push(clause(fields, quote(value, k)));
    searched[k] = [...fields];
  }
  if (endpoint === "label" && c.sponsor !== undefined) {
    quote(c.sponsor, "sponsor");
    deferred.push("sponsor");
  }
  const { after, before } = c.approval_year ?? {};
  if (after !== undefined && before !== undefined && after > before) {
    const message = `search_criteria.approval_year.after (${after}) is later than approval_year.before (${before}).`;
    const suggestion = `Swap them: { "after": ${before}, "before": ${after} }.`;
    throw fail.invalidInput(message, { suggestion });
  }
  if (after !== undefined || before !== undefined) deferred.push("approval_year");
  // On Drugs@FDA (where only the year is deferred) the range narrows the candidates by submission date.
  if (endpoint === "drugsfda" && deferred.length > 0) {
    const to = before ?? new Date().getUTCFullYear() + 1;
    clauses.push(`${SUBMISSION_DATE_FIELD}:[${after ?? 1900}0101 TO ${to}1231]`);
  }
  return { endpoint, search: clauses.join(" AND ") || undefined, deferred, fields: searched };
};

/** What {@link buildSearch} made of the criteria. */
export type Search = ReturnType<typeof buildSearch>;

/**
 * How an answer was searched, for the envelope's `metadata`: the endpoint, the `query` sent (empty:
 * every record), `searched_fields` (the openFDA fields each text criterion was matched on; a match in
 * any one counts) and `data_last_updated` (when openFDA last refreshed the endpoint).
 */
export const searchedMetadata = (built: Omit<Search, "deferred">, lastUpdated: string | undefined) => ({
  endpoint: built.endpoint,
  query: built.search ?? "",
  searched_fields: built.fields,
  ...(lastUpdated ? { data_last_updated: lastUpdated } : {}),
});

/** `application_number:("NDA021588" OR "ANDA209824")` for up-to-100 application numbers. */
export const applicationNumbersSearch = (numbers: ReadonlyArray<string>): string =>
  `application_number:(${numbers.map((n) => quote(n, "application_number")).join(" OR ")})`;
