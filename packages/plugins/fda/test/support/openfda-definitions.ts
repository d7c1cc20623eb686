import { loadJson } from "@quiver/testing";

/**
 * What openFDA's own server enforces, read from the facts kept in `test/fixtures/openfda-server/`
 * (copied from github.com/FDA/openfda, CC0; see the SOURCE.md there): the characters its `search`
 * accepts, its error bodies, and which fields of drugsfda and label are `keyword` (matched exactly,
 * case as stored) or analysed `text`.
 */

const fixture = (name: string) => new URL(`../fixtures/openfda-server/${name}`, import.meta.url);

interface FieldMapping {
  readonly type: string;
  readonly analyzer?: string;
  readonly fields?: Readonly<Record<string, string>>;
}

interface MappingFixture {
  readonly fields: Readonly<Record<string, FieldMapping>>;
}

interface SearchRules {
  readonly supportedSearch: string;
  readonly searchNotSupported: {
    readonly status: number;
    readonly code: string;
    readonly messagePrefix: string;
  };
  readonly expectedParams: ReadonlyArray<string>;
  readonly maxSearchLimit: number;
}

const rules = loadJson<SearchRules>(fixture("search-rules.json"));

/** openFDA's SUPPORTED_QUERY_RE: a `search` with any other character is refused with HTTP 400. */
export const SUPPORTED_SEARCH = new RegExp(rules.supportedSearch);

/** The query parameters openFDA's API accepts (`api_key` is taken by the gateway in front of it). */
export const EXPECTED_PARAMS: ReadonlyArray<string> = [...rules.expectedParams, "api_key"];

/** The largest `limit` of a search request. */
export const MAX_SEARCH_LIMIT = rules.maxSearchLimit;

/** escape-html, which openFDA runs over the refused search before quoting it back. */
const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** openFDA's 400 body for a search with a character it does not support. */
export const searchNotSupported = (search: string) => ({
  status: rules.searchNotSupported.status,
  json: {
    error: {
      code: rules.searchNotSupported.code,
      message: `${rules.searchNotSupported.messagePrefix}${escapeHtml(search)}`,
    },
  },
});

/** How openFDA matches a quoted phrase on a field: whole stored value, analysed words, or a date. */
export type FieldKind = "keyword" | "text" | "date" | "other";

const mappings = {
  drugsfda: loadJson<MappingFixture>(fixture("drugsfda-fields.json")).fields,
  label: loadJson<MappingFixture>(fixture("label-fields.json")).fields,
};

/** An openFDA endpoint the emulator serves. */
export type EmulatedEndpoint = keyof typeof mappings;

/**
 * The kind of a searched field per the endpoint's Elasticsearch mapping; `field.exact` is the
 * `keyword` sub-field. `undefined` for a field the mapping does not have (openFDA matches nothing).
 */
export const fieldKind = (endpoint: EmulatedEndpoint, field: string): FieldKind | undefined => {
  const exact = /^(.*)\.exact$/.exec(field);
  const mapping = mappings[endpoint][exact ? exact[1]! : field];
  if (!mapping) return undefined;
  const type = exact ? mapping.fields?.exact : mapping.type;
  if (type === undefined) return undefined;
  return type === "keyword" || type === "text" || type === "date" ? type : "other";
};
