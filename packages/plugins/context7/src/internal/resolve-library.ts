import { fail, type ToolContext, ToolFailure } from "@quiver/core";
import type { Context7Config } from "../config.js";
import type { Context7Resources } from "../setup.js";
import type { LibraryMatch } from "./docs-client.js";
import { closest, label, looserNames, normalise, pickLibrary, topLibrary } from "./match-library.js";
import { NOT_FOUND_GUIDANCE } from "./policy.js";

/** A Context7 tool's context. */
type ToolCtx = ToolContext<Context7Config, Context7Resources>;
/** What resolving reads of it: the transport, the library cache and the signal. */
type Call = Pick<ToolCtx, "resources" | "signal">;

/** Context7's libraries named like `libraryName`, ranked for the task in `query`. */
export const search = ({ resources, signal }: Call, libraryName: string, query: string) =>
  resources.docs.searchLibraries({ libraryName, query }, { signal });

/** Candidates for a name that matched nothing: the results themselves, else a search with looser names. */
export const candidatesFor = async (
  call: Call,
  name: string,
  query: string,
  results: ReadonlyArray<LibraryMatch>,
): Promise<LibraryMatch[]> => {
  if (results.length > 0) return closest(name, results);
  for (const looser of looserNames(name).slice(0, 2)) {
    const found = await search(call, looser, query);
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

/** Up to four results besides `picked`, for "wrong library? call again with ...". */
const others = (results: ReadonlyArray<LibraryMatch>, picked: LibraryMatch) =>
  results.filter((r) => r.id !== picked.id).slice(0, 4);

/**
 * Resolves a library name to the Context7 library meant (with the other candidates, and whether the
 * id came from the library cache), reusing ids resolved in the last `libraryCacheTtl` (7 days by
 * default). A name that matches no result well enough is not guessed: it fails with the closest names.
 */
export const resolveByName = async (call: Call, name: string, query: string) => {
  const cache = call.resources.libraries;
  const key = normalise(name);
  const hit = cache.get(key);
  if (hit) return { library: hit, alternatives: [], cached: true };
  const results = await search(call, name, query);
  const picked = pickLibrary(name, results);
  if (!picked) throw libraryNotFound(name, await candidatesFor(call, name, query, results));
  cache.set(key, picked);
  return { library: picked, alternatives: others(results, picked), cached: false };
};

/**
 * The library a question is about when it names none: Context7's top result for the question
 * itself; `invalid_input` asking for the library when there is none.
 */
export const inferLibrary = async (call: Call, query: string) => {
  const results = await search(call, query, query);
  const top = topLibrary(results);
  if (!top)
    throw fail.invalidInput("Context7 could not tell which library this question is about.", {
      suggestion: "Call again with library set to the library or framework name (e.g. 'react', 'django').",
    });
  return { library: top, alternatives: others(results, top), cached: false };
};

/**
 * The documentation of `libraryId` for `query`, its id remembered as one the caller resolved. A 404
 * for an id the caller gave (`givenId`) comes with the closest names (the id's repository segment is
 * searched), so the model can correct the id; other failures pass through.
 */
export const fetchDocs = async (ctx: ToolCtx, libraryId: string, query: string, givenId: boolean) => {
  const { signal, resources } = ctx;
  const found = await resources.docs.getContext({ libraryId, query }, { signal }).catch(async (error) => {
    if (!givenId || !ToolFailure.isInstance(error) || error.kind !== "invalid_input" || error.status !== 404)
      throw error;
    const name = libraryId.split(/[/@]/).filter((s) => s !== "")[1] ?? libraryId;
    const candidates = await search(ctx, name, query)
      .then((results) => candidatesFor(ctx, name, query, results))
      .then((found) => found.filter((c) => c.id !== libraryId))
      // The suggestion is a courtesy: when it cannot be made, the original failure still stands.
      .catch((): LibraryMatch[] => []);
    throw libraryNotFound(name, candidates, error.message);
  });
  resources.resolved.remember(ctx.caller, [found.libraryId]);
  return found;
};
