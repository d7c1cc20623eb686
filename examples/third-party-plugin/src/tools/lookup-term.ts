import { closestMatches, defineToolWith, fail } from "@quiver/core";
import { z } from "zod";
import type { GlossaryConfig } from "../config.js";
import type { GlossaryResources } from "../setup.js";

/** `glossary_lookup_term`: the definition of a term, or the closest terms the glossary has. */
export const lookupTerm = defineToolWith<GlossaryConfig, GlossaryResources>()({
  name: "glossary_lookup_term",
  description:
    "Looks up the definition of a term in the team's glossary. Use it when a question uses a term of art " +
    "whose local meaning matters. Answers the definition and, when known, its source.",
  category: "knowledge_base",
  input: z.object({ term: z.string().min(1).describe("The term, e.g. 'RAG'; case does not matter.") }),
  output: z.object({ term: z.string(), definition: z.string(), source: z.string().optional() }),
  annotations: { readOnly: true, idempotent: true },
  examples: [{ input: { term: "RAG" } }],
  run: async ({ term }, ctx) => {
    const entry = ctx.resources.lookup(term);
    if (entry !== undefined) return entry;
    const near = closestMatches(ctx.resources.terms(), term.toLowerCase(), {
      limit: 3,
      maxDistance: 3,
      key: (t) => t.toLowerCase(),
    });
    return Promise.reject(
      fail.invalidInput(
        `The glossary has no term "${term}".` + (near.length > 0 ? ` Did you mean: ${near.join(", ")}?` : ""),
      ),
    );
  },
});
