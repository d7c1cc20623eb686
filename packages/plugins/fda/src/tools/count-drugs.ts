import { z } from "zod";
import { answer } from "../internal/answer.js";
import { criteriaSchema, describeCriteria, requireApplicable } from "../internal/criteria.js";
import { defineFdaTool, OPENFDA_POLICY } from "../internal/policy.js";
import { buildSearch, searchedMetadata } from "../internal/query.js";

/**
 * The openFDA field counted for each `count_by`: the same `.exact` field (whole values, not words) on
 * both endpoints, but for sponsor: labels name a labeler, not a sponsor.
 */
const COUNT_FIELDS = {
  sponsor: { drugsfda: "sponsor_name", label: "openfda.manufacturer_name.exact" },
  route: "openfda.route.exact",
  pharmacologic_class: "openfda.pharm_class_epc.exact",
  brand_name: "openfda.brand_name.exact",
  generic_name: "openfda.generic_name.exact",
  active_ingredient: "openfda.substance_name.exact",
  product_type: "openfda.product_type.exact",
} as const;

/** The refinement of a count that matched nothing. */
const NOTHING_MATCHED =
  "Nothing matched: check spelling, use fewer criteria, or try active_ingredient instead of brand_name.";

const countBy = z.enum(Object.keys(COUNT_FIELDS) as Array<keyof typeof COUNT_FIELDS>);

const bucket = z.object({
  term: z.string().describe("A value of the field."),
  count: z.int().describe("Records with it."),
});

const output = z.object({
  count_by: countBy.describe("What was counted."),
  buckets: z.array(bucket).describe("Records per value, largest first."),
  query_constraints_met: z
    .boolean()
    .describe("True when every criterion was applied exactly; see unmet_constraints."),
  unmet_constraints: z.array(z.string()).describe("Criteria that could not be applied exactly, and why."),
});

/**
 * `fda_count_drugs`: how many FDA drug records match, broken down by sponsor, route, class or name,
 * with openFDA's `count=` (one request, no records downloaded).
 *
 * Use it before `fda_search_drugs` to size a search or to answer "how many" questions.
 *
 * @example
 * await catalog.call("fda_count_drugs", { search_criteria: { pharmacologic_class: "Kinase Inhibitor" }, count_by: "sponsor" })
 */
export const countDrugs = defineFdaTool({
  name: "fda_count_drugs",
  title: "Count FDA drugs",
  description:
    "Count FDA drug records (openFDA Drugs@FDA, or drug labels when an indication is given) that match optional criteria, broken down by sponsor, route, pharmacologic class, brand, generic name, active ingredient or product type. Use this before fda_search_drugs to see how many drugs match and how they split, without downloading the records.",
  category: "scientific_database",
  input: z.strictObject({
    search_criteria: criteriaSchema
      .optional()
      .describe("Which records to count (all records when omitted); all given criteria must hold."),
    count_by: countBy.describe("The field to break the count down by."),
    max_buckets: z
      .int()
      .min(1)
      .max(1000)
      .default(20)
      .describe("Most buckets (distinct values) to return, largest first."),
  }),
  output,
  examples: [
    { input: { search_criteria: { active_ingredient: "semaglutide" }, count_by: "sponsor" } },
    { input: { search_criteria: { indication: "type 2 diabetes" }, count_by: "route", max_buckets: 5 } },
  ],
  annotations: { readOnly: true, idempotent: true, openWorld: true },
  policy: { ...OPENFDA_POLICY, maxOutputChars: 20_000 },
  instruction:
    "Report the counts as counts of openFDA records (applications or labels), not of distinct molecules; mention unmet_constraints if any.",
  run: async ({ search_criteria, count_by, max_buckets }, ctx) => {
    const c = search_criteria ?? {};
    // No criteria count every record; counting them for criteria that cannot be applied would answer another question.
    requireApplicable(c, " Omit search_criteria to count every record.");
    const built = buildSearch(c);
    const counted: string | Record<string, string> = COUNT_FIELDS[count_by];
    const field = typeof counted === "string" ? counted : counted[built.endpoint]!;
    const page = await ctx.resources.count(built, field, max_buckets, ctx.signal);
    const unmet: string[] = [];
    if (built.deferred.includes("approval_year"))
      unmet.push(
        built.endpoint === "drugsfda"
          ? "approval_year: counted applications with any submission in those years, not only original approvals."
          : "approval_year: labels carry no approval date, so the count ignores it.",
      );
    if (built.deferred.includes("sponsor"))
      unmet.push(
        'sponsor: labels name no sponsor, so the count ignores it (count_by "sponsor" counts labelers).',
      );
    const buckets = page.buckets.slice(0, max_buckets);
    const top = buckets.slice(0, 3).map((b) => `${b.term} (${b.count})`);
    const message =
      buckets.length === 0
        ? `Nothing to count: no FDA records match ${describeCriteria(c)}.`
        : `Counted FDA records matching ${describeCriteria(c)} by ${count_by}: ${buckets.length} value${buckets.length === 1 ? "" : "s"}; top ${top.join(", ")}.`;
    // A criterion not applied exactly makes the count partial: see unmet_constraints.
    return answer({ count_by, buckets }, c, unmet, {
      message,
      note: "Not every criterion was applied exactly: see unmet_constraints.",
      source: `openFDA /drug/${built.endpoint}.json?count=${field}`,
      metadata: {
        ...searchedMetadata(built, page.lastUpdated),
        field,
        refinement_suggestions: buckets.length > 0 ? [] : [NOTHING_MATCHED],
      },
    });
  },
});
