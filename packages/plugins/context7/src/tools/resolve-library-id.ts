import { outcome } from "@quiver/core";
import { z } from "zod";
import { label, normalise, pickLibrary } from "../internal/match-library.js";
import { RESOLVE_POLICY } from "../internal/policy.js";
import { candidatesFor, libraryNotFound, search } from "../internal/resolve-library.js";
import { paramText, queryText } from "../internal/upstream-schemas.js";
import { tool } from "../setup.js";

const LibraryOut = z.object({
  id: z.string().describe("Context7 library id to pass to context7_get_library_docs"),
  title: z.string().describe("Library name"),
  description: z.string().optional().describe("What the library is"),
  trust_score: z.number().optional().describe("Source reputation 0–10 (≥ 7 is well established)"),
  benchmark_score: z.number().optional().describe("Context7 quality score 0–100"),
  snippets: z.number().optional().describe("Code snippets indexed"),
  versions: z.array(z.string()).optional().describe("Versions that can be pinned as <id>/<version>"),
  last_updated: z.string().optional().describe("When Context7 last indexed it"),
  state: z.string().optional().describe("Index state; finalized means ready"),
});

/**
 * `context7_resolve_library_id`: the Context7 libraries matching a name, best match first.
 *
 * Use it to choose a library (or a pinned version) before `context7_get_library_docs`.
 *
 * @example
 * await catalog.call("context7_resolve_library_id", { library_name: "next.js", query: "middleware" });
 */
export const resolveLibraryId = tool({
  name: "context7_resolve_library_id",
  title: "Resolve library id (Context7)",
  description:
    "Find the Context7 library id for a library, framework or product name, with the candidates. Call it before " +
    "context7_get_library_docs unless the user gave an id like /org/project or /org/project/version. Pick by name match, " +
    "description fit for the task, snippet count, trust_score (source reputation, >= 7 high) and benchmark_score (100 best); " +
    "for a version the user names, use <id>/<version> from versions. If several fit, take the most relevant; if none, say so " +
    "and refine the name. At most 3 calls per question.",
  category: "documentation",
  input: z.object({
    library_name: paramText.describe(
      "Official name, with its punctuation: 'Next.js' (not 'nextjs'), 'Three.js', 'pandas'",
    ),
    query: queryText(
      "The user's task (e.g. 'protect routes with middleware'); ranks the candidates by intent.",
    ),
  }),
  output: z.object({
    best: z.string().optional().describe("Id of the candidate that matches the name, when one does"),
    libraries: z.array(LibraryOut).describe("Candidates, most relevant first"),
  }),
  examples: [{ input: { library_name: "next.js", query: "middleware" } }],
  annotations: { readOnly: true, idempotent: true, openWorld: true },
  policy: RESOLVE_POLICY,
  instruction:
    "Pick the library the user means (prefer 'best', high trust and benchmark scores) and pass its id to context7_get_library_docs; " +
    "append /<version> to the id for a specific version.",
  run: async ({ library_name, query }, ctx) => {
    const results = await search(ctx, library_name, query);
    if (results.length === 0)
      throw libraryNotFound(library_name, await candidatesFor(ctx, library_name, query, results));
    const best = pickLibrary(library_name, results);
    if (best) ctx.resources.libraries.set(normalise(library_name), best);
    const top = results.slice(0, 10);
    // The caller's resolved ids, the best one first: what its `library_id` arguments complete from.
    ctx.resources.resolved.remember(ctx.caller, [...(best ? [best.id] : []), ...top.map((l) => l.id)]);
    // id, title, description, snippets and state as they are (the output schema drops the
    // fields it does not list, such as stars); the others in the output's snake case.
    const libraries = top.map(({ trustScore, benchmarkScore, lastUpdated, versions, ...library }) => ({
      ...library,
      ...(trustScore === undefined ? {} : { trust_score: trustScore }),
      ...(benchmarkScore === undefined ? {} : { benchmark_score: benchmarkScore }),
      ...(lastUpdated ? { last_updated: lastUpdated } : {}),
      ...(versions ? { versions: [...versions] } : {}),
    }));
    const plural = results.length === 1 ? "" : "s";
    const message = best
      ? `"${library_name}" is ${label(best)} in Context7 (${results.length} candidate${plural}).`
      : `No Context7 library is clearly named "${library_name}"; ${results.length} related candidate${plural} listed.`;
    const data = { ...(best ? { best: best.id } : {}), libraries };
    return outcome(data, { message, source: "Context7 library search" });
  },
});
