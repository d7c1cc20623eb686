import type { PluginPrompt } from "@quiver/core";
import type { Context7Config } from "./config.js";
import { idsMatching } from "./internal/resolved-ids.js";
import type { Context7Resources } from "./setup.js";

/**
 * The `answer_with_docs` prompt: answer a question about one library from its current Context7
 * documentation (`context7_get_library_docs`), not from memory. `library_id` completes from the ids
 * the caller has already resolved (`context7_resolve_library_id`, or read documentation of), newest first.
 */
export const docsPrompt: PluginPrompt<Context7Config, Context7Resources> = {
  name: "answer_with_docs",
  title: "Answer from a library's current docs",
  description:
    "Answer a question about a library from its current Context7 documentation, citing the snippets used.",
  arguments: [
    {
      name: "library_id",
      description:
        "Context7 library id, e.g. /vercel/next.js or /vercel/next.js/v14.3.0-canary.87; completes from the ids you have resolved",
      required: true,
      complete: (typed, { caller, resources }) => idsMatching(resources.resolved.of(caller), typed),
    },
    {
      name: "question",
      description: "What to answer, e.g. 'protect routes with middleware'",
      required: true,
    },
  ],
  get: ({ library_id, question }) => [
    {
      role: "user",
      content: {
        type: "text",
        text: `Answer from the current documentation of the library ${library_id}: ${question}\n\nCall context7_get_library_docs with library_id "${library_id}" and a query naming this one concept. Base the answer on the snippets it returns, with their code, and cite their sources; say so where the documentation does not cover something rather than guessing. If the id is not found, call context7_resolve_library_id with the library's name and use the best match.`,
      },
    },
  ],
};
