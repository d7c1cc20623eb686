import { outcome } from "@quiver/core";
import { z } from "zod";
import { DOCS_INSTRUCTION, DocsOutputSchema, describeDocs, toDocsOutput } from "../internal/docs-output.js";
import { LIBRARY_ID } from "../internal/match-library.js";
import { DOCS_POLICY } from "../internal/policy.js";
import { fetchDocs } from "../internal/resolve-library.js";
import { DOCS_QUERY, queryText } from "../internal/upstream-schemas.js";
import { tool } from "../setup.js";

/**
 * `context7_get_library_docs`: the documentation of one Context7 library id for a question.
 *
 * Use it after `context7_resolve_library_id`, or when the id is already known; use
 * `context7_search_documentation` to do both steps in one call.
 *
 * @example
 * await catalog.call("context7_get_library_docs", { library_id: "/vercel/next.js", query: "middleware that checks a cookie" });
 */
export const getLibraryDocs = tool({
  name: "context7_get_library_docs",
  title: "Get library documentation (Context7)",
  description:
    "Current documentation and code examples of one library from Context7, by its Context7 id. Call " +
    "context7_resolve_library_id first unless the user gave an id like /org/project or /org/project/version " +
    "(context7_search_documentation does both in one call). At most 3 calls per question.",
  category: "documentation",
  input: z.object({
    library_id: z
      .string()
      .regex(LIBRARY_ID, "a Context7 library id looks like /owner/repo or /owner/repo/<version>")
      .describe(
        "Context7 id from context7_resolve_library_id or the user, e.g. /vercel/next.js, /vercel/next.js/v14.3.0-canary.87",
      ),
    query: queryText(DOCS_QUERY),
  }),
  output: DocsOutputSchema.omit({ alternatives: true }),
  examples: [{ input: { library_id: "/vercel/next.js", query: "authentication check in middleware" } }],
  annotations: { readOnly: true, idempotent: true, openWorld: true },
  policy: DOCS_POLICY,
  instruction: DOCS_INSTRUCTION,
  run: async ({ library_id, query }, ctx) => {
    const docs = await fetchDocs(ctx, library_id, query, true);
    const moved = docs.redirectedFrom ? ` (${docs.redirectedFrom} has moved to ${docs.libraryId})` : "";
    return outcome(toDocsOutput(docs), {
      message: `Context7 documentation for ${docs.libraryId}${moved}: ${describeDocs(docs)}.`,
      source: `Context7 ${docs.libraryId}`,
    });
  },
});
