import { outcome } from "@quiver/core";
import { z } from "zod";
import { DOCS_INSTRUCTION, DocsOutputSchema, describeDocs, toDocsOutput } from "../internal/docs-output.js";
import { LIBRARY_ID, label } from "../internal/match-library.js";
import { DOCS_POLICY } from "../internal/policy.js";
import { fetchDocs, inferLibrary, resolveByName } from "../internal/resolve-library.js";
import { DOCS_QUERY, paramText, queryText } from "../internal/upstream-schemas.js";
import { tool } from "../setup.js";

/**
 * `context7_search_documentation`: resolves a library and returns its documentation for a question,
 * in one call (GAIA's `search_documentation(query, library?)`).
 *
 * Use it when the model needs current API documentation or examples for a library or framework.
 *
 * @example
 * await catalog.call("context7_search_documentation", { query: "protect routes with middleware", library: "next.js" });
 */
export const searchDocumentation = tool({
  name: "context7_search_documentation",
  title: "Search library documentation (Context7)",
  description:
    "Current documentation and code examples of a library, framework, SDK, API or CLI from Context7, in one call: finds the " +
    "library and returns the snippets for your question, with sources. Use it when the user asks how to use, set up, configure, " +
    "migrate or debug a specific library, even a well-known one (your training data may be dated). Not for general programming " +
    "concepts, refactoring or your own code's logic. At most 3 calls per question.",
  category: "documentation",
  input: z.object({
    query: queryText(DOCS_QUERY),
    library: paramText
      .optional()
      .describe(
        "Official library name ('Next.js', 'pandas') or a Context7 id ('/vercel/next.js', '/vercel/next.js/v14.3.0-canary.87'); omitted: inferred from query",
      ),
  }),
  output: DocsOutputSchema,
  examples: [
    { input: { query: "authentication check in middleware", library: "next.js" } },
    {
      input: { query: "How do I use the useState hook in React?" },
      description: "library inferred from the query",
    },
  ],
  annotations: { readOnly: true, idempotent: true, openWorld: true },
  policy: DOCS_POLICY,
  instruction: DOCS_INSTRUCTION,
  run: async ({ query, library }, ctx) => {
    const byId = library !== undefined && LIBRARY_ID.test(library);
    const resolved = byId
      ? { library: { id: library, title: library }, alternatives: [], cached: false }
      : library !== undefined
        ? await resolveByName(ctx, library, query)
        : await inferLibrary(ctx, query);
    const chosen = resolved.library;
    const docs = await fetchDocs(ctx, chosen.id, query, byId);
    const named = chosen.title === chosen.id ? chosen.id : label(chosen);
    const inferred =
      library === undefined
        ? ` (library inferred from the question; if it is the wrong one, call again with library)`
        : "";
    const cached = resolved.cached ? " Library id from cache." : "";
    return outcome(toDocsOutput(docs, chosen, resolved.alternatives), {
      message: `Context7 documentation for ${named}${inferred}: ${describeDocs(docs)}.${cached}`,
      source: `Context7 ${docs.libraryId}`,
      metadata: { libraryId: docs.libraryId, libraryIdCached: resolved.cached },
    });
  },
});
