import { z } from "zod";
import { answer } from "../internal/answer.js";
import { criteriaSchema, describeCriteria, refinements, requireApplicable } from "../internal/criteria.js";
import { defineFdaTool, OPENFDA_POLICY } from "../internal/policy.js";
import { buildSearch, FIELDS, searchedMetadata } from "../internal/query.js";
import { matchesOf, matchSchema } from "../internal/records.js";

/** Candidates fetched when a criterion is checked after the response (approval year, label sponsor). */
const CANDIDATES = 100;

const output = z.object({
  matches: z.array(matchSchema).describe("The matching drugs, at most max_results."),
  total_count: z
    .int()
    .describe("How many drugs match in all (openFDA meta.results.total, or the checked count)."),
  fully_searched: z.boolean().describe("True when every match was returned."),
  query_constraints_met: z
    .boolean()
    .describe("True when every criterion was applied exactly; see unmet_constraints otherwise."),
  unmet_constraints: z.array(z.string()).describe("Criteria that could not be fully applied, and why."),
});

/**
 * `fda_search_drugs`: FDA-approved drugs by indication, ingredient, names, class, sponsor, route
 * and approval year, over openFDA's drugsfda and label endpoints.
 *
 * Use it through a catalog: it reaches openFDA through the client the plugin's `setup` opened.
 *
 * @example
 * await catalog.call("fda_search_drugs", { search_criteria: { active_ingredient: "semaglutide" }, max_results: 5 })
 */
export const searchDrugs = defineFdaTool({
  name: "fda_search_drugs",
  title: "Search FDA-approved drugs",
  description:
    "Search FDA-approved drugs (openFDA Drugs@FDA and drug labels) by indication, active ingredient, brand or generic name, pharmacologic class, sponsor, route and original approval year. Returns matching applications with names, sponsor, approval date and links, the total match count, whether every match was returned, and refinement suggestions. Use this when you need verified U.S. approval facts about drugs; use fda_count_drugs first when you only need how many.",
  category: "scientific_database",
  input: z.strictObject({
    search_criteria: criteriaSchema,
    max_results: z.number().int().min(1).max(100).default(10).describe("Most matches to return (1–100)."),
  }),
  output,
  examples: [
    {
      input: { search_criteria: { active_ingredient: "semaglutide" }, max_results: 5 },
      description: "All applications for one ingredient.",
    },
    {
      input: { search_criteria: { indication: "type 2 diabetes", route: "oral" } },
      description: "By indication, through drug labels.",
    },
  ],
  annotations: { readOnly: true, idempotent: true, openWorld: true },
  policy: { ...OPENFDA_POLICY, maxOutputChars: 30_000 },
  instruction:
    "Summarise the matching drugs (brand and generic names, sponsor, original approval date, route) and cite each by application number and url; metadata.label_uris[i] reads match i's full label (a resource). Say how many matched in total; if fully_searched is false, say the list is partial. openFDA data are unvalidated and are not medical advice.",
  run: async ({ search_criteria: c, max_results: max }, ctx) => {
    requireApplicable(c);
    const built = buildSearch(c);
    const postFilter = built.deferred.length > 0;
    const limit = postFilter ? Math.max(CANDIDATES, max) : max;
    const page = await ctx.resources.search(built, limit, ctx.signal);
    const { matches, unmet } = await matchesOf(ctx.resources, ctx.signal, page.results, built, c);
    const allCandidatesSeen = page.results.length >= page.total;
    const exact = !postFilter || allCandidatesSeen;
    const total = postFilter && allCandidatesSeen ? matches.length : page.total;
    const shown = matches.slice(0, max);
    const fully = exact && shown.length >= total;
    // A label's sponsor is checked on its Drugs@FDA application after the search.
    const fields = built.deferred.includes("sponsor")
      ? { ...built.fields, sponsor: [...FIELDS.drugsfda.sponsor!] }
      : built.fields;
    const message =
      total === 0
        ? `No FDA drugs match ${describeCriteria(c)}; see metadata.refinement_suggestions.`
        : `Found ${exact ? total : `up to ${total}`} FDA drug${total === 1 ? "" : "s"} matching ${describeCriteria(c)}; returning ${shown.length}${fully ? "" : " (partial list)"}.`;
    // A criterion not applied makes the answer partial: the matches may not satisfy it.
    // Each match's full label, beside the data (see Match): `label_uris[i]` reads `matches[i]`'s.
    const label_uris = shown.map((m) => m.label_uri ?? null);
    const data = shown.map(({ label_uri: _, ...m }) => m);
    return answer({ matches: data, total_count: total, fully_searched: fully }, c, unmet, {
      message,
      note: "Not every criterion was applied: see unmet_constraints.",
      source: `openFDA /drug/${built.endpoint}.json`,
      metadata: {
        ...searchedMetadata({ ...built, fields }, page.lastUpdated),
        total_count_exact: exact,
        label_uris,
        refinement_suggestions: refinements(c, total, shown.length, fully),
      },
    });
  },
});
