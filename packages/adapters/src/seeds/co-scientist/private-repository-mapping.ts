import { defined, isObject, merge, records } from "./json.js";
import type { SeedTool } from "./seed-tool.js";

/** Names under PRIVATE_REPOSITORY that mean every collection the scientist can read. */
const ALL_COLLECTIONS = new Set(["private_repository", "private_repo", "all", "*", "my_repository"]);

/** PRIVATE_REPOSITORY (a RepositoryQuery) onto `private_repo_search`: tool_name names the collection. */
export const privateRepository: SeedTool = {
  tool: "private_repo_search",
  description:
    "The scientist's private repository: their own collections and those shared with them, ranked by relevance, with citations. tool_name names the repository or collection.",
  querySchema: {
    type: "object",
    properties: {
      search_terms: { type: "array", items: { type: "string" } },
      filters: {
        type: "object",
        description:
          "publication_date {after, before}, date_from, date_to, authors, tags, collections; an unknown filter is refused",
      },
      max_results: { type: "integer", minimum: 1, maximum: 50 },
    },
    required: ["search_terms"],
  },
  input: (query, constraints, toolName) => {
    const { search_terms, filters, max_results, ...rest } = query;
    const unknown = Object.keys(rest);
    if (unknown.length > 0)
      return { refused: `${unknown[0]}: not a field of RepositoryQuery; give search_terms and filters` };
    const merged = merge(isObject(filters) ? filters : {}, constraints, "filters");
    if ("refused" in merged) return merged as { refused: string };
    const named = ALL_COLLECTIONS.has(toolName.toLowerCase()) ? {} : { collections: [toolName] };
    const withCollection = merge(merged, named, "filters");
    const all = "refused" in withCollection ? merged : withCollection;
    return {
      input: defined({
        search_terms,
        ...(Object.keys(all).length > 0 ? { filters: all } : {}),
        max_results,
      }),
      unmet: [],
    };
  },
  shape: (d) => {
    const documents = records(d.results);
    return {
      results: {
        documents,
        relevance_scores: documents.map((r) => (typeof r.score === "number" ? r.score : 0)),
      },
      metadata: defined({
        total_count: d.total_count,
        searched_collections: d.searched_collections,
        suggestions: d.suggestions,
      }),
    };
  },
};
