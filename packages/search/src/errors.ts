const marker = Symbol.for("@quiver/search/SearchError");

/**
 * What went wrong: a document that cannot be indexed (nothing of that `add` call is written), an invalid
 * option, an index file written by an incompatible version, a call on a closed index, or (PostgreSQL) a
 * database that cannot be reached or answered too late (`unavailable`: try again later).
 */
export type SearchErrorCode =
  | "invalid_document"
  | "invalid_option"
  | "incompatible_index"
  | "closed"
  | "unavailable";

/**
 * The error of every `@quiver/search` failure the caller can act on. Use `SearchError.isInstance` rather than
 * `instanceof`, which fails across duplicate installs.
 *
 * @example
 * try { await index.search(q, { topK: 5000 }); }
 * catch (e) { if (SearchError.isInstance(e) && e.code === "invalid_option") console.warn(e.message); }
 */
export class SearchError extends Error {
  override readonly name = "SearchError";
  readonly [marker] = true;

  constructor(
    readonly code: SearchErrorCode,
    message: string,
  ) {
    super(message);
  }

  /** True for a SearchError from any copy of @quiver/search. */
  static isInstance(u: unknown): u is SearchError {
    return typeof u === "object" && u !== null && (u as Record<symbol, unknown>)[marker] === true;
  }
}
