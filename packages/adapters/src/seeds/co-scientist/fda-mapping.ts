import { defined, isObject, merge, records, strings } from "./json.js";
import type { SeedTool } from "./seed-tool.js";
import type { Json } from "./types.js";

/** The criteria `fda_search_drugs` has a field for; any other goes in its `other_criteria`. */
const CRITERIA = new Set([
  "indication",
  "active_ingredient",
  "brand_name",
  "generic_name",
  "pharmacologic_class",
  "sponsor",
  "route",
  "approval_year",
  "other_criteria",
]);

/** The criteria with every key the tool has no field for moved into `other_criteria` (value as text). */
const homed = (criteria: Json): Json => {
  const other = Object.entries(criteria)
    .filter(([k, v]) => !CRITERIA.has(k) && v !== undefined)
    .map(([field, v]) => ({ field, value: typeof v === "string" ? v : JSON.stringify(v) }));
  if (other.length === 0) return criteria;
  const known = Object.fromEntries(Object.entries(criteria).filter(([k]) => CRITERIA.has(k)));
  return { ...known, other_criteria: [...records(known.other_criteria), ...other] };
};

/**
 * FDA_Drug_Database (a DatabaseQuery) onto `fda_search_drugs`: constraints merge into the criteria,
 * a criterion the tool has no field for goes in `other_criteria` (so it is reported unmet).
 */
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
          "indication, active_ingredient, brand_name, generic_name, pharmacologic_class, sponsor, route, approval_year {after, before}; any other criterion is reported unmet",
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
    return { input: defined({ search_criteria: homed(merged), max_results }), unmet: [] };
  },
  shape: (d, _constraints, meta) => ({
    results: {
      matches: records(d.matches),
      total_count: typeof d.total_count === "number" ? d.total_count : records(d.matches).length,
      query_constraints_met: d.query_constraints_met !== false,
    },
    met: d.query_constraints_met !== false,
    unmet: strings(d.unmet_constraints),
    metadata: defined({
      returned: records(d.matches).length,
      total_count_exact: meta.total_count_exact,
      fully_searched: d.fully_searched,
      refinement_suggestions: meta.refinement_suggestions,
      query: meta.query,
      data_last_updated: meta.data_last_updated,
    }),
  }),
};
