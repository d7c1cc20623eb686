import { SearchError } from "../errors.js";
import type { ScopeOptions, SearchFilters } from "../types.js";
import { dateKey } from "./dates.js";
import { authorName, tagKey } from "./normalize.js";

/** SQL conditions on the `documents` table (alias `d`) with their parameters. */
export interface ScopeSql {
  readonly where: string;
  readonly params: string[];
}

const invalid = (message: string) => new SearchError("invalid_option", message);

/** JSON encoding of a metadata scalar, the form stored in `document_fields.value`. */
export function fieldValue(value: string | number | boolean): string {
  return JSON.stringify(value);
}

function list(name: string, value: unknown): readonly unknown[] {
  if (!Array.isArray(value)) throw invalid(`${name} must be an array`);
  return value;
}

function strings(name: string, value: unknown): string[] {
  const items = list(name, value);
  for (const item of items) {
    if (typeof item !== "string") throw invalid(`${name} must contain only strings`);
  }
  return items as string[];
}

/** Collections and filters, checked and normalised: what both stores translate into their SQL. */
export interface ParsedScope {
  readonly collections?: readonly string[];
  /** `YYYY-MM-DD` keys, inclusive. */
  readonly dateFrom?: string;
  readonly dateTo?: string;
  /** Compared full names and single last names. */
  readonly authors?: { readonly full: readonly string[]; readonly last: readonly string[] };
  /** Compared tag keys. */
  readonly tags?: readonly string[];
  /** Per metadata key, the stored (JSON) forms of the accepted values. */
  readonly metadata: readonly (readonly [string, readonly string[]])[];
}

/** Checks and normalises collections and filters, with the same messages for every store. */
export function parseScope(options: ScopeOptions): ParsedScope {
  const scope: {
    -readonly [K in keyof ParsedScope]: ParsedScope[K];
  } = { metadata: [] };
  if (options.collections !== undefined) scope.collections = strings("collections", options.collections);
  const filters: SearchFilters = options.filters ?? {};
  if (typeof filters !== "object" || filters === null) throw invalid("filters must be an object");
  if (filters.dateFrom !== undefined) {
    const key = typeof filters.dateFrom === "string" ? dateKey(filters.dateFrom, "start") : undefined;
    if (!key) throw invalid(`filters.dateFrom must be an ISO 8601 date, got ${String(filters.dateFrom)}`);
    scope.dateFrom = key;
  }
  if (filters.dateTo !== undefined) {
    const key = typeof filters.dateTo === "string" ? dateKey(filters.dateTo, "end") : undefined;
    if (!key) throw invalid(`filters.dateTo must be an ISO 8601 date, got ${String(filters.dateTo)}`);
    scope.dateTo = key;
  }
  if (filters.authors !== undefined) {
    const full: string[] = [];
    const last: string[] = [];
    for (const raw of strings("filters.authors", filters.authors)) {
      const author = authorName(raw);
      if (!author) continue;
      (author.name.includes(" ") ? full : last).push(author.name);
    }
    scope.authors = { full, last };
  }
  if (filters.tags !== undefined) scope.tags = strings("filters.tags", filters.tags).map(tagKey);
  if (filters.metadata !== undefined) {
    if (
      typeof filters.metadata !== "object" ||
      filters.metadata === null ||
      Array.isArray(filters.metadata)
    ) {
      throw invalid("filters.metadata must be an object");
    }
    const metadata: (readonly [string, readonly string[]])[] = [];
    for (const [key, expected] of Object.entries(filters.metadata)) {
      const values = Array.isArray(expected) ? expected : [expected];
      for (const value of values) {
        if (!["string", "number", "boolean"].includes(typeof value)) {
          throw invalid(`filters.metadata.${key} must be a string, number, boolean or a list of them`);
        }
      }
      metadata.push([key, values.map((value) => fieldValue(value as string | number | boolean))]);
    }
    scope.metadata = metadata;
  }
  return scope;
}

/**
 * Translates collections and filters into SQLite conditions. Every value travels as a bound parameter (lists
 * as one JSON array read with `json_each`), so no option can change the statement.
 */
export function scopeSql(options: ScopeOptions): ScopeSql {
  const scope = parseScope(options);
  const conditions: string[] = [];
  const params: string[] = [];
  if (scope.collections !== undefined) {
    conditions.push("d.collection IN (SELECT value FROM json_each(?))");
    params.push(JSON.stringify(scope.collections));
  }
  if (scope.dateFrom !== undefined) {
    conditions.push("d.date_key >= ?");
    params.push(scope.dateFrom);
  }
  if (scope.dateTo !== undefined) {
    conditions.push("d.date_key <= ?");
    params.push(scope.dateTo);
  }
  if (scope.authors !== undefined) {
    conditions.push(
      "d.rowid IN (SELECT doc FROM document_authors WHERE name IN (SELECT value FROM json_each(?)) OR last IN (SELECT value FROM json_each(?)))",
    );
    params.push(JSON.stringify(scope.authors.full), JSON.stringify(scope.authors.last));
  }
  if (scope.tags !== undefined) {
    conditions.push(
      "d.rowid IN (SELECT doc FROM document_tags WHERE tag IN (SELECT value FROM json_each(?)))",
    );
    params.push(JSON.stringify(scope.tags));
  }
  for (const [key, values] of scope.metadata) {
    conditions.push(
      "d.rowid IN (SELECT doc FROM document_fields WHERE key = ? AND value IN (SELECT value FROM json_each(?)))",
    );
    params.push(key, JSON.stringify(values));
  }
  return { where: conditions.length > 0 ? conditions.join(" AND ") : "1", params };
}
