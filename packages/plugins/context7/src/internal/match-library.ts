import { editDistance } from "@quiver/core";
import type { LibraryMatch } from "./docs-client.js";

/** `^/[^/]+/[^/]+([/@][^/]+)?$`: Context7's library id pattern (`/owner/repo`, pinned `/owner/repo/v1`). */
export const LIBRARY_ID = /^\/[^/\s]+\/[^/\s]+(?:[/@][^/\s]+)?$/;

/** Lower-case letters and digits only: "Next.js" and "next-js" both become "nextjs". */
export const normalise = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, "");

/** Names a library answers to: its title and the segments of its id (owner, repo). */
const namesOf = (library: LibraryMatch): string[] => {
  const segments = library.id.split(/[/@]/).filter((s) => s !== "");
  return [library.title, ...segments.slice(0, 2)].map(normalise).filter((s) => s.length > 0);
};

/**
 * How well a library matches a requested name, 0 (unrelated) to 1 (same name), over its title and
 * id segments after {@link normalise}: equal scores 1; one containing the other scores the share of
 * the longer it covers ("next" in "nextjs" 0.67); otherwise 1 − edit distance / length.
 */
export const nameScore = (requested: string, library: LibraryMatch): number => {
  const want = normalise(requested);
  const score = (name: string) => {
    const longer = Math.max(name.length, want.length);
    if (!name.includes(want) && !want.includes(name)) return 1 - editDistance(name, want) / longer;
    const shorter = Math.min(name.length, want.length);
    return shorter >= 3 || name === want ? shorter / longer : 0;
  };
  return want === "" ? 0 : Math.max(0, ...namesOf(library).map(score));
};

/** Each result with its Context7 rank and its {@link nameScore} for `requested`. */
const scored = (requested: string, results: ReadonlyArray<LibraryMatch>) =>
  results.map((library, rank) => ({ library, rank, score: nameScore(requested, library) }));

/** Below this score a search result is not the library that was asked for. */
export const MATCH_THRESHOLD = 0.6;

/** Finalized libraries first, then Context7's own order. */
const ready = (library: LibraryMatch): number =>
  library.state === undefined || library.state === "finalized" ? 0 : 1;

/**
 * Picks the library meant by `requested` among search results: the best-named finalized result that
 * clears {@link MATCH_THRESHOLD}, ties broken by Context7's ranking; `undefined` when none does.
 *
 * @example
 * pickLibrary("nextjs", results) // the "/vercel/next.js" result
 */
export const pickLibrary = (
  requested: string,
  results: ReadonlyArray<LibraryMatch>,
): LibraryMatch | undefined => {
  const named = scored(requested, results).filter((s) => s.score >= MATCH_THRESHOLD);
  named.sort((a, b) => ready(a.library) - ready(b.library) || b.score - a.score || a.rank - b.rank);
  return named[0]?.library;
};

/** The top result for a task when no library was named: finalized first, then Context7's order. */
export const topLibrary = (results: ReadonlyArray<LibraryMatch>): LibraryMatch | undefined =>
  [...results].sort((a, b) => ready(a) - ready(b))[0];

/** "React (/facebook/react)". */
export const label = (library: LibraryMatch): string => `${library.title} (${library.id})`;

/** The `n` results closest to `requested` by name, for a "did you mean" suggestion. */
export const closest = (requested: string, results: ReadonlyArray<LibraryMatch>, n = 5): LibraryMatch[] =>
  scored(requested, results)
    .sort((a, b) => b.score - a.score || a.rank - b.rank)
    .slice(0, n)
    .map((s) => s.library);

/**
 * Shorter names to search when a name found nothing: the name without a version or scope, and its
 * longest word ("@tanstack/react-query v5" → "react-query", "query").
 */
export const looserNames = (name: string): string[] => {
  const out = new Set<string>();
  const noVersion = name.replace(/[@\s]v?\d+(?:\.\d+)*.*$/i, "").trim();
  const noScope = noVersion.replace(/^@[^/]+\//, "").replace(/^\/?[^/]+\//, "");
  for (const candidate of [noVersion, noScope]) if (candidate && candidate !== name) out.add(candidate);
  const words = noScope.split(/[\s\-_./]+/).filter((w) => w.length >= 3);
  const longest = words.sort((a, b) => b.length - a.length)[0];
  if (longest && longest !== name) out.add(longest);
  return [...out];
};
