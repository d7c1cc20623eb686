import type { ParsedScope } from "../internal/scope.js";

/** PostgreSQL conditions on `documents` (alias `d`), each starting with ` AND `, with their parameters. */
export interface PgScope {
  readonly where: string;
  readonly params: unknown[];
}

/** PostgreSQL text cannot hold NUL; stored strings have it as U+FFFD, and so do the values compared to them. */
export const noNul = (text: string): string =>
  text.includes("\u0000") ? text.replaceAll("\u0000", "\uFFFD") : text;

/** A metadata pair as stored in `documents.fields`: the JSON of `[key, stored value]`. */
export const fieldPair = (key: string, value: string): string => JSON.stringify([noNul(key), value]);

/**
 * Translates a parsed scope into conditions whose parameters are numbered from `$first`. Lists travel as one
 * array parameter each, so no option can change the statement.
 */
export function pgScope(scope: ParsedScope, first: number): PgScope {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown): string => {
    params.push(value);
    return `$${first + params.length - 1}`;
  };
  if (scope.collections !== undefined)
    conditions.push(`d.collection = ANY(${param(scope.collections.map(noNul))}::text[])`);
  if (scope.dateFrom !== undefined) conditions.push(`d.date_key >= ${param(scope.dateFrom)}`);
  if (scope.dateTo !== undefined) conditions.push(`d.date_key <= ${param(scope.dateTo)}`);
  if (scope.authors !== undefined) {
    conditions.push(
      `(d.author_names && ${param(scope.authors.full)}::text[] OR d.author_lasts && ${param(scope.authors.last)}::text[])`,
    );
  }
  if (scope.tags !== undefined) conditions.push(`d.tag_keys && ${param(scope.tags.map(noNul))}::text[]`);
  for (const [key, values] of scope.metadata) {
    conditions.push(`d.fields && ${param(values.map((value) => fieldPair(key, value)))}::text[]`);
  }
  return { where: conditions.map((c) => ` AND ${c}`).join(""), params };
}
