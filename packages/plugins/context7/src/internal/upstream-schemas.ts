import { z } from "zod";
import type { LibraryMatch } from "./docs-client.js";

/** Context7 refuses a `libraryName` or `query` longer than this. */
export const MAX_PARAM = 500;

/** A tool input sent to Context7 as `libraryName` or `query`: 1 to {@link MAX_PARAM} characters. */
export const paramText = z.string().min(1).max(MAX_PARAM);

/** A `query` parameter: `what` it is, and that it leaves this machine. */
export const queryText = (what: string) =>
  paramText.describe(
    `${what} Sent to Context7: never include API keys, passwords, personal data or proprietary code.`,
  );

/** The `query` of the documentation tools: one concept, specific. */
export const DOCS_QUERY =
  "What to look up, one specific concept per call (good: 'JWT auth in Express middleware'; too vague: 'auth'; too broad: 'routing, auth and caching').";

/**
 * One library in `GET /v2/libs/search` (schema `Library`, the fields read; only `id` and `title` are
 * relied on), as a {@link LibraryMatch}: nulls and the "unknown" markers (-1) dropped.
 */
export const LibrarySchema = z
  .object({
    id: z.string().min(1),
    title: z.string(),
    description: z.string().nullish(),
    lastUpdateDate: z.string().nullish(),
    state: z.string().nullish(),
    totalSnippets: z.number().nullish(),
    stars: z.number().nullish(),
    trustScore: z.number().nullish(),
    benchmarkScore: z.number().nullish(),
    versions: z.array(z.string()).nullish(),
  })
  .transform((raw): LibraryMatch => {
    const known = (n: number | null | undefined): n is number => typeof n === "number" && n >= 0;
    return {
      id: raw.id,
      title: raw.title,
      ...(raw.description ? { description: raw.description } : {}),
      ...(known(raw.trustScore) ? { trustScore: raw.trustScore } : {}),
      ...(known(raw.benchmarkScore) && raw.benchmarkScore > 0 ? { benchmarkScore: raw.benchmarkScore } : {}),
      ...(known(raw.totalSnippets) ? { snippets: raw.totalSnippets } : {}),
      ...(known(raw.stars) ? { stars: raw.stars } : {}),
      ...(raw.versions && raw.versions.length > 0 ? { versions: raw.versions } : {}),
      ...(raw.lastUpdateDate ? { lastUpdated: raw.lastUpdateDate } : {}),
      ...(raw.state ? { state: raw.state } : {}),
    };
  });

/** `GET /v2/libs/search` → `SearchResponse`. */
export const SearchResponseSchema = z.object({ results: z.array(LibrarySchema) });

/** A code snippet of `GET /v2/context?type=json`. */
export const CodeSnippetSchema = z.object({
  codeTitle: z.string().nullish(),
  codeDescription: z.string().nullish(),
  codeLanguage: z.string().nullish(),
  codeId: z.string().nullish(),
  pageTitle: z.string().nullish(),
  codeList: z.array(z.object({ language: z.string().nullish(), code: z.string() })).default([]),
});

/** An info snippet of `GET /v2/context?type=json`. */
export const InfoSnippetSchema = z.object({
  pageId: z.string().nullish(),
  breadcrumb: z.string().nullish(),
  content: z.string(),
});

/** `GET /v2/context?type=json` → `ContextResponse`. */
export const ContextResponseSchema = z.object({
  codeSnippets: z.array(CodeSnippetSchema).default([]),
  infoSnippets: z.array(InfoSnippetSchema).default([]),
});

/** Context7's error body: `{ error: "library_not_found", message, redirectUrl? }`. */
export const ErrorBodySchema = z.object({
  error: z.string().optional(),
  message: z.string().optional(),
  redirectUrl: z.string().optional(),
});
