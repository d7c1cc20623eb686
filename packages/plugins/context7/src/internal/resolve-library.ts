import { fail, ToolFailure } from "@quiver/core";
import type { DocsClient, LibraryMatch } from "./docs-client.js";
import type { LibraryCache } from "./library-cache.js";
import { closest, label, looserNames, normalise, pickLibrary, topLibrary } from "./match-library.js";
import { NOT_FOUND_GUIDANCE } from "./policy.js";

/** The library a question is answered from, and how it was chosen. */
export interface Resolved {
  readonly library: LibraryMatch;
  /** Other candidates from the same search (for "wrong library? call again with ..."). */
  readonly alternatives: ReadonlyArray<LibraryMatch>;
  /** True when the id came from the library cache. */
  readonly cached: boolean;
}

/** Candidates for a name that matched nothing: the results themselves, else a search with looser names. */
export const candidatesFor = async (
  client: DocsClient,
  name: string,
  query: string,
  results: ReadonlyArray<LibraryMatch>,
  signal: AbortSignal,
): Promise<LibraryMatch[]> => {
  if (results.length > 0) return closest(name, results);
  for (const looser of looserNames(name).slice(0, 2)) {
    const found = await client.searchLibraries({ libraryName: looser, query }, { signal });
    if (found.length > 0) return closest(name, found);
  }
  return [];
};

/** The "library not found" failure: `invalid_input`, with the closest names Context7 knows. */
export const libraryNotFound = (name: string, candidates: ReadonlyArray<LibraryMatch>, detail?: string) =>
  fail.invalidInput(detail ?? `Context7 has no library named "${name}".`, {
    suggestion:
      candidates.length > 0
        ? `Closest Context7 libraries: ${candidates.map(label).join(", ")}. Call again with the id of the one you mean.`
        : "Check the spelling, or use the name the package is published under (npm, PyPI, crates.io ...).",
    guidance: NOT_FOUND_GUIDANCE,
  });

/**
 * Resolves a library name to the Context7 library meant, reusing ids resolved in the last
 * `libraryCacheTtl` (7 days by default). A name that matches no result well enough is not guessed:
 * it fails with the closest names.
 */
export const resolveByName = async (
  client: DocsClient,
  cache: LibraryCache,
  name: string,
  query: string,
  signal: AbortSignal,
): Promise<Resolved> => {
  const key = normalise(name);
  const hit = cache.get(key);
  if (hit) return { library: hit, alternatives: [], cached: true };
  const results = await client.searchLibraries({ libraryName: name, query }, { signal });
  const picked = pickLibrary(name, results);
  if (!picked) throw libraryNotFound(name, await candidatesFor(client, name, query, results, signal));
  cache.set(key, picked);
  return { library: picked, alternatives: others(results, picked), cached: false };
};

/** Up to four results besides `picked`, for "wrong library? call again with ...". */
const others = (results: ReadonlyArray<LibraryMatch>, picked: LibraryMatch) =>
  results.filter((r) => r.id !== picked.id).slice(0, 4);

/**
 * The library a question is about when it names none: Context7's top result for the question
 * itself; `invalid_input` asking for the library when there is none.
 */
export const inferLibrary = async (
  client: DocsClient,
  query: string,
  signal: AbortSignal,
): Promise<Resolved> => {
  const results = await client.searchLibraries({ libraryName: query, query }, { signal });
  const top = topLibrary(results);
  if (!top)
    throw fail.invalidInput("Context7 could not tell which library this question is about.", {
      suggestion: "Call again with library set to the library or framework name (e.g. 'react', 'django').",
    });
  return { library: top, alternatives: others(results, top), cached: false };
};

/**
 * Adds the closest names to a 404 for a library id (the id's repository segment is searched), so the
 * model can correct the id. Other failures pass through.
 */
export const explainMissingId = async (
  client: DocsClient,
  error: unknown,
  libraryId: string,
  query: string,
  signal: AbortSignal,
): Promise<unknown> => {
  if (!ToolFailure.isInstance(error) || error.kind !== "invalid_input" || error.status !== 404) return error;
  const name = libraryId.split(/[/@]/).filter((s) => s !== "")[1] ?? libraryId;
  const candidates = await client
    .searchLibraries({ libraryName: name, query }, { signal })
    .then((found) => candidatesFor(client, name, query, found, signal))
    // The suggestion is a courtesy: when it cannot be made, the original failure still stands.
    .catch((): LibraryMatch[] => []);
  return libraryNotFound(
    name,
    candidates.filter((c) => c.id !== libraryId),
    error.message,
  );
};
