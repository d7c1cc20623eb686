import { defined, isObject, merge, records, strings } from "./json.js";
import type { SeedTool } from "./seed-tool.js";

/** FDA_Drug_Database (a DatabaseQuery) onto `fda_search_drugs`: constraints merge into the criteria. */
export const fda: SeedTool = {
  tool: "fda_search_drugs",
  description:
    "FDA-approved drugs (openFDA Drugs@FDA and labels) by indication, active ingredient, brand or generic name, pharmacologic class, sponsor, route and original approval year.",
  querySchema: {
    type: "object",
    properties: {
      search_criteria: {
        type: "object",
        description:
          "indication, active_ingredient, brand_name, generic_name, pharmacologic_class, sponsor, route, approval_year {after, before}",
      },
      max_results: { type: "integer", minimum: 1, maximum: 100 },
    },
    required: ["search_criteria"],
  },
  input: (query, constraints) => {
    const { search_criteria, max_results, ...flat } = query;
    const criteria = merge(isObject(search_criteria) ? search_criteria : {}, flat, "search_criteria");
    if ("refused" in criteria) return criteria as { refused: string };
    const merged = merge(criteria, constraints, "search_criteria");
    if ("refused" in merged) return merged as { refused: string };
    return { input: defined({ search_criteria: merged, max_results }), unmet: [] };
  },
  shape: (d) => ({
    results: {
      matches: records(d.matches),
      total_count: typeof d.total_count === "number" ? d.total_count : records(d.matches).length,
      query_constraints_met: d.query_constraints_met !== false,
    },
    met: d.query_constraints_met !== false,
    unmet: strings(d.unmet_constraints),
    metadata: defined({
      returned: d.returned,
      total_count_exact: d.total_count_exact,
      fully_searched: d.fully_searched,
      refinement_suggestions: d.refinement_suggestions,
      query: d.query,
      data_last_updated: d.data_last_updated,
    }),
  }),
};
