import { fail, type HttpClient, parseRetryAfter, type ToolFailure } from "@quiver/core";
import { z } from "zod";
import type { FdaConfig } from "../config.js";
import type { Query } from "./query.js";

/** Unparsable searches remembered per client, so the same one is never sent again. */
const MAX_UNPARSABLE = 256;

/** openFDA's `meta`: when it last refreshed the endpoint, and a search's total. */
const meta = z
  .object({ last_updated: z.string().optional(), results: z.object({ total: z.number() }).optional() })
  .optional();
const searchBody = z.object({ meta, results: z.array(z.record(z.string(), z.unknown())) });
/** A count bucket's value: a term (string or number), or the date of a date field. */
const value = { term: z.union([z.string(), z.number()]).optional(), time: z.string().optional() };
const countBody = z.object({ meta, results: z.array(z.object({ ...value, count: z.number() })) });

/** What openFDA's 404 NOT_FOUND means: no records match. */
const NOTHING = { meta: undefined, results: [] } as const;

/** openFDA's error body: `{ error: { code, message, details? } }` (ApiError in its api.js). */
const errorBody = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.string() }).partial().optional(),
});

/** openFDA's error object, when the body is one. */
const openFdaError = (body: string) => {
  try {
    return errorBody.parse(JSON.parse(body)).error;
  } catch {}
};

/**
 * Elasticsearch's names for a query it could not parse. openFDA answers every Elasticsearch failure
 * with HTTP 500 SERVER_ERROR and puts the failure's message in `details`
 * ("[token_mgr_error] token_mgr_error: Lexical error at line 1, column 32. ..."); an outage says
 * something else there ("No Living connections", "Request Timeout after 30000ms") or nothing.
 */
const PARSE_FAILURE =
  /\b(?:token_mgr_error|parse_exception|query_shard_exception|query_parsing_exception)\b|Lexical error|Cannot parse|Failed to parse/i;

/**
 * Opens the openFDA client for one registration's settings: the base URL and key of the registration
 * over the catalog's HTTP client. The plugin's `setup` opens it once; tools reach it as `ctx.resources`.
 */
export const createOpenFdaClient = (config: FdaConfig, http: HttpClient) => {
  // "path search" → its failure. A parse failure is deterministic: a retry, or the model calling again
  // with the same criteria, gets the same failure without costing a request of the daily budget.
  const unparsable = new Map<string, ToolFailure>();
  /** The response body, or undefined for openFDA's 404 NOT_FOUND (zero matches, not an error). */
  const send = async (
    { endpoint, search }: Query,
    params: Readonly<Record<string, string | number>>,
    signal: AbortSignal,
  ) => {
    const path = `/drug/${endpoint}.json`;
    const key = `${path} ${search}`;
    const known = unparsable.get(key);
    if (known) throw known;
    const response = await http.request({
      baseUrl: config.baseUrl,
      url: path,
      route: "/drug/{endpoint}.json",
      // openFDA asks for the key first; a Redacted value is unwrapped on the wire and redacted everywhere else.
      query: { api_key: config.apiKey, search, ...params },
      signal,
      // 500 is read here: openFDA sends a search Elasticsearch could not parse back as SERVER_ERROR.
      acceptStatus: [404, 500],
      // Named in access-denied suggestions.
      apiKeyVar: "OPENFDA_API_KEY",
    });
    const error = response.status === 200 ? undefined : openFdaError(response.body);
    if (response.status === 500) {
      const details = error?.code === "SERVER_ERROR" ? error.details : undefined;
      if (search === undefined || details === undefined || !PARSE_FAILURE.test(details)) {
        // Any other 500 is a failure on openFDA's side, worth retrying.
        const message = `openFDA failed (HTTP 500) for ${path}${error?.message ? `: ${error.message.slice(0, 200)}` : ""}.`;
        const retryAfterMs = parseRetryAfter(response.header("retry-after"));
        const retry = retryAfterMs === undefined ? {} : { retryAfterMs };
        const suggestion = "openFDA failed on its side; try again in a moment.";
        throw fail.upstream(message, { status: 500, ...retry, suggestion });
      }
      // The same query would fail again, so not retryable.
      const message = `openFDA could not parse the search sent to ${path} (HTTP 500 SERVER_ERROR: ${details.slice(0, 200)}); search was ${JSON.stringify(search)}.`;
      const suggestion = `Sending the same criteria again fails the same way: rephrase them with plain words (letters, digits, spaces) and call again.`;
      const failure = fail.invalidInput(message, { retryable: false, status: 500, suggestion });
      if (unparsable.size >= MAX_UNPARSABLE) unparsable.delete(unparsable.keys().next().value!);
      unparsable.set(key, failure);
      throw failure;
    }
    if (response.status === 404) {
      if (error?.code === "NOT_FOUND") return undefined;
      const suggestion = "Check the plugin's baseUrl setting: it should point at https://api.fda.gov.";
      const message = `openFDA answered HTTP 404 for ${path} without its NOT_FOUND error body.`;
      throw fail.upstream(message, { status: 404, retryable: false, suggestion });
    }
    return response;
  };
  return {
    /** Runs an openFDA search (`search=`, `limit=`); 404 NOT_FOUND comes back as an empty page. */
    async search(query: Query, limit: number, signal: AbortSignal) {
      const { meta, results } = (await send(query, { limit }, signal))?.json(searchBody) ?? NOTHING;
      return { total: meta?.results?.total ?? results.length, results, lastUpdated: meta?.last_updated };
    },
    /** Runs an openFDA count (`count=<field>`); "Nothing to count" comes back as no buckets. */
    async count(query: Query, field: string, limit: number, signal: AbortSignal) {
      const { meta, results } =
        (await send(query, { count: field, limit }, signal))?.json(countBody) ?? NOTHING;
      const buckets = results.map((r) => ({ term: String(r.term ?? r.time ?? ""), count: r.count }));
      return { buckets, lastUpdated: meta?.last_updated };
    },
  };
};

/** The openFDA client the plugin's `setup` opens once per registration (`ctx.resources` of the tools). */
export type OpenFdaClient = ReturnType<typeof createOpenFdaClient>;
