import { fail, ToolFailure } from "@quiver/core";

/** The failure for a repository database that cannot be reached: retryable. */
export const databaseUnavailable = () =>
  fail.unavailable("The repository's database is unavailable; try again shortly.", {
    retryable: true,
    suggestion:
      "Call again in a little while; the operator should check that PostgreSQL (DATABASE_URL) is running.",
  });

/**
 * Runs work on the collections' indexes and turns a search-package error into a tool failure: bad
 * options are invalid input, an unreachable database is `unavailable` (retryable); nothing else leaks
 * details; a tool failure thrown by the work (a refused caller) passes as it is. @quiver/search's error class
 * is loaded on failure only: listing or answering needs none.
 */
export const readingIndexes = <T>(work: () => Promise<T>): Promise<T> =>
  work().catch(async (e: unknown) => {
    if (ToolFailure.isInstance(e)) throw e;
    const { SearchError } = await import("@quiver/search/errors");
    if (SearchError.isInstance(e) && e.code === "invalid_option") {
      const message = e.message.replace(/\bdateFrom\b/, "date_from").replace(/\bdateTo\b/, "date_to");
      throw fail.invalidInput(message, { suggestion: "Correct the filter and call again." });
    }
    if (SearchError.isInstance(e) && e.code === "unavailable") throw databaseUnavailable();
    throw fail.internal(
      "The repository index could not be read; ask the operator to check the repository folder.",
      { cause: e, retryable: false },
    );
  });
