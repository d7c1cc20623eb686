import { defineToolWith, fail, outcome } from "@quiver/core";
import type { SearchHit } from "@quiver/search";
import { z } from "zod";
import type { PrivateRepoConfig, RepoResources } from "../config.js";
import { readingIndexes, requireCaller, resolveScope } from "../internal/access.js";
import { doiUrl, formatCitation } from "../internal/citation.js";
import type { Readable } from "../internal/repository.js";

const SNIPPET_CHARS = 500;

const DATE = /^\d{4}(?:-(?:0[1-9]|1[0-2])(?:-(?:0[1-9]|[12]\d|3[01]))?)?$/;

const date = (bound: "Earliest" | "Latest") =>
  z.string().optional().describe(`${bound} date, inclusive: YYYY, YYYY-MM or YYYY-MM-DD.`);

/** An optional list of at most `max` non-empty strings (each described as `item`). */
const list = (item: string, max: number, description: string) =>
  z.optional(z.array(z.string().min(1).describe(item)).max(max)).describe(description);

/** The filters of `private_repo_search`: all given must hold, an unknown one is refused. */
const filtersSchema = z
  .strictObject({
    date_from: date("Earliest"),
    date_to: date("Latest"),
    publication_date: z
      .optional(z.strictObject({ after: date("Earliest"), before: date("Latest") }))
      .describe("The date range as {after, before}; the same as date_from/date_to (give one form)."),
    authors: list("A full name or a last name.", 20, "Any of these authors (full name, or last name alone)."),
    tags: list("A tag.", 20, "Any of these tags (case-insensitive)."),
    collections: list(
      "A collection name, or owner/name for a shared one.",
      50,
      "Only these collections: your own by name, shared ones as owner/name. Default: all you can read.",
    ),
  })
  .optional()
  .describe(
    "Filters; all given filters must hold. An unknown filter is refused (invalid_input), never ignored. Documents without a date never match a date filter.",
  );

/**
 * The filters as @quiver/search takes them: `publication_date: {after, before}` folded into
 * date_from/date_to; both forms of one bound, a malformed date or a range the wrong way round refused.
 */
const searchFilters = ({ publication_date: p = {}, ...f }: NonNullable<z.output<typeof filtersSchema>>) => {
  const [from, to] = (["after", "before"] as const).map((spec) => {
    const own = spec === "after" ? "date_from" : "date_to";
    if (p[spec] !== undefined && f[own] !== undefined)
      throw fail.invalidInput(
        `filters.publication_date.${spec} and filters.${own} are the same bound: give one.`,
        { suggestion: `Keep filters.${own} or filters.publication_date.${spec}, not both.` },
      );
    const value = p[spec] ?? f[own];
    if (value !== undefined && !DATE.test(value.trim()))
      throw fail.invalidInput(`filters.${own} must be YYYY, YYYY-MM or YYYY-MM-DD, got "${value}".`, {
        suggestion: `For example "2019" or "2019-06-01".`,
      });
    return value;
  });
  if (from && to && from.trim() > to.trim().padEnd(10, "~"))
    throw fail.invalidInput(`filters.date_from (${from}) is after filters.date_to (${to}).`, {
      suggestion: "Swap the two dates.",
    });
  return {
    ...(from ? { dateFrom: from.trim() } : {}),
    ...(to ? { dateTo: to.trim() } : {}),
    ...(f.authors ? { authors: f.authors } : {}),
    ...(f.tags ? { tags: f.tags } : {}),
  };
};

const resultSchema = z.object({
  id: z.string().describe("Document id within its collection."),
  collection: z.string().describe("The collection: your own by name, a shared one as owner/name."),
  title: z.string().optional(),
  authors: z.array(z.string()),
  date: z.string().optional(),
  doi: z.string().optional(),
  doi_url: z.string().optional(),
  tags: z.array(z.string()),
  score: z.number().describe("Relevance in [0, 1] (BM25, normalised per query)."),
  snippet: z.string().describe("The best-matching passage."),
  citation: z.string().describe("Formatted reference (APA style)."),
  source: z.string().optional().describe("The file the document was added from."),
});

const output = z.object({
  results: z.array(resultSchema),
  total_count: z.int().describe("Documents matching at least one search term in the searched collections."),
  returned: z.int(),
  searched_collections: z.array(z.string()).describe("The collections searched."),
  suggestions: z.array(z.string()).describe("How to refine the search."),
});

/** The passage around the first highlighted word, at most 500 characters. */
const snippetOf = (hit: SearchHit): string => {
  const text = hit.text
    .replace(/^#{1,6}\s+/gm, "")
    .replace(/\s+/g, " ")
    .trim();
  if (text.length <= SNIPPET_CHARS) return text;
  const at = hit.highlights[0]?.start ?? 0;
  const start = Math.max(0, Math.min(at - 150, text.length - SNIPPET_CHARS));
  return `${start > 0 ? "…" : ""}${text.slice(start, start + SNIPPET_CHARS).trim()}…`;
};

/**
 * `private_repo_search`: BM25 search over the caller's own collections and those shared with them, with date,
 * author and tag filters, relevance scores and citations.
 *
 * Use it through a catalog; the host supplies the caller's principal; `setup` opens the repository.
 *
 * @example
 * await catalog.call("private_repo_search", { search_terms: "vitamin D deficiency", filters: { date_from: "2015" } }, { session: { principal: "alice" } })
 */
export const privateRepoSearch = defineToolWith<PrivateRepoConfig, RepoResources>()({
  name: "private_repo_search",
  title: "Search my document repository",
  description:
    "Search the scientist's private document repository (their own collections and those shared with them) by keywords, with optional date, author, tag and collection filters. Returns ranked documents with relevance scores, a passage, a formatted citation and the DOI. Use this for the scientist's own papers, notes and references before searching the web.",
  category: "private_repository",
  input: z.strictObject({
    search_terms: z
      .union([z.string().trim().min(1).max(2_000), z.array(z.string().trim().min(1).max(500)).min(1).max(50)])
      .describe(
        "Keywords or a question, or a list of terms (any of them may match); words are matched (BM25), not exact phrases.",
      ),
    filters: filtersSchema,
    max_results: z.int().min(1).max(50).default(10).describe("Most documents to return (1–50)."),
  }),
  output,
  examples: [
    { input: { search_terms: "vitamin D and bone density", filters: { date_from: "2010" }, max_results: 5 } },
  ],
  annotations: { readOnly: true, idempotent: true, openWorld: false },
  // No cache by default: a withdrawn share or a new document must show at once. A host that enables a
  // cache gets the runtime's per-principal cache key (tested), at the price of the TTL's staleness.
  policy: { timeout: "20s", retry: false, cache: false, maxOutputChars: 30_000 },
  instruction:
    "Answer from these documents and cite each one you use with its citation (and DOI link). Scores are relative within this search. Say when nothing relevant was found.",
  run: async ({ search_terms: terms, filters: given = {}, max_results }, ctx) => {
    const { repo, caller } = await requireCaller(ctx, "search");
    const search_terms = typeof terms === "string" ? terms : terms.join(" ");
    const filters = searchFilters(given);
    const scope = await resolveScope(repo, caller, given.collections);
    // Each collection read as the grantee that gives access (with a database, row-level security checks it).
    const searchOne = async (c: Readable) =>
      (await repo.index(c, c.via)).search(search_terms, { topK: max_results, filters });
    const answers = await readingIndexes(() => Promise.all(scope.map(searchOne)));
    const total = answers.reduce((n, answer) => n + answer.total, 0);
    const found = scope.flatMap((c, i) => answers[i]!.results.map((hit) => ({ ...hit, ref: c.ref })));
    found.sort((a, b) => b.score - a.score || a.ref.localeCompare(b.ref) || a.docId.localeCompare(b.docId));
    const results = found.slice(0, max_results).map(({ ref, ...hit }) => ({
      id: hit.docId,
      collection: ref,
      ...(hit.title ? { title: hit.title } : {}),
      authors: [...(hit.authors ?? [])],
      ...(hit.date ? { date: hit.date } : {}),
      ...(hit.doi ? { doi: hit.doi, doi_url: doiUrl(hit.doi) } : {}),
      tags: [...(hit.tags ?? [])],
      score: Math.round(hit.score * 10_000) / 10_000,
      snippet: snippetOf(hit),
      citation: formatCitation(hit),
      ...(typeof hit.metadata.source === "string" ? { source: hit.metadata.source.split("/").pop()! } : {}),
    }));
    const suggestions: string[] = [];
    const filtered = Object.keys(filters).length > 0;
    if (scope.length === 0) {
      suggestions.push(
        given.collections
          ? "No collection to search: give at least one collection, or omit filters.collections."
          : "You have no collections yet and none are shared with you: add documents with `quiver private-repo add`.",
      );
    } else if (total === 0) {
      if (filtered) suggestions.push("Remove or widen the filters (dates, authors, tags).");
      if (given.collections) suggestions.push("Search all your collections (omit filters.collections).");
      suggestions.push("Use other or more general terms (synonyms, the key concept alone).");
    } else if (total > results.length) {
      if (!filtered) suggestions.push("Narrow with filters: date_from/date_to, authors or tags.");
      suggestions.push("Add more specific terms to rank the documents you want first.");
    }
    const searched = `"${search_terms}" in ${scope.length} collection${scope.length === 1 ? "" : "s"}`;
    const searched_collections = scope.map((c) => c.ref);
    const data = { results, total_count: total, returned: results.length, searched_collections, suggestions };
    const message =
      total === 0
        ? `No documents match ${searched}.`
        : `Found ${total} document${total === 1 ? "" : "s"} matching ${searched}; returning ${results.length}.`;
    return outcome(data, { message, source: "private repository" });
  },
});
