import { fail, type HttpClient, ToolFailure } from "@quiver/core";
import type { RagConfig } from "../../config.js";
import type { RagQuery } from "../../tools/search.js";
import { errorInBody, normalizeResults, unusableAnswer } from "../normalize-results.js";

/** Network codes of a connection that could not be made (refused, DNS, no route). */
const CONNECT_CODES = /^(?:ECONNREFUSED|ENOTFOUND|EAI_|EHOSTUNREACH|ENETUNREACH|ENETDOWN|EHOSTDOWN)/;

/**
 * Rewrites a client failure so the three cases a model must tell apart read differently:
 * the service too slow (timeout), not reachable (unavailable), or answering badly (upstream / status,
 * a 404 meaning RAG_SERVICE_URL names no search endpoint).
 */
const explain = (error: ToolFailure, url: URL, timeoutMs: number): ToolFailure => {
  const at = `The RAG service at ${url.origin}`;
  // Only a connection that could not be made is about RAG_SERVICE_URL; a 503 or a dropped connection means it was reached.
  const code = (error.cause as { code?: unknown } | undefined)?.code;
  const unreachable = error.status === undefined && typeof code === "string" && CONNECT_CODES.test(code);
  const rewrites: Partial<Record<ToolFailure["kind"], readonly [string, string?]>> = {
    timeout: [
      `${at} did not answer within ${timeoutMs} ms.`,
      "Try again with a shorter query, or ask the operator to raise RAG_TIMEOUT_MS.",
    ],
    unavailable: unreachable
      ? [
          `Cannot connect to the RAG service at ${url.origin}: ${error.message}`,
          "Check RAG_SERVICE_URL and that the RAG service is running.",
        ]
      : [`${at} is unavailable: ${error.message}`, error.suggestion ?? "Try again in a moment."],
    upstream:
      error.status === 404
        ? [
            `${at} has no ${url.pathname} endpoint (HTTP 404).`,
            "Check RAG_SERVICE_URL: it should be the service's base URL, without /search.",
          ]
        : [
            error.status !== undefined && error.status >= 400
              ? `${at} answered with a bad status (HTTP ${error.status}): ${error.message}`
              : `${at} sent an unusable answer: ${error.message}`,
          ],
    access_denied: [`${at} refused the credentials: ${error.message}`, "Check RAG_API_KEY."],
  };
  const rewrite = rewrites[error.kind];
  if (!rewrite) return error;
  const [message, suggestion] = rewrite;
  // The same failure (kind, status, retryability, wait; no suggestion given keeps its own), reworded.
  return ToolFailure.make({ ...error, message, ...(suggestion && { suggestion }), cause: error });
};

/**
 * Searches an HTTP RAG service: POST {serviceUrl}/search with `{query, asignatura?, tipo_documento?, top_k}`
 * (the original chatbot's request), then normalises whatever shape comes back.
 */
export const searchHttp = async (http: HttpClient, config: RagConfig, q: RagQuery, signal: AbortSignal) => {
  const base = config.serviceUrl!.replace(/\/+$/, "");
  const url = new URL(base.endsWith("/search") ? base : `${base}/search`);
  const { status, body } = await http
    .request({
      method: "POST",
      url,
      json: { query: q.query, asignatura: q.asignatura, tipo_documento: q.tipo_documento, top_k: q.topK },
      headers: { accept: "application/json" },
      bearer: config.apiKey,
      signal,
      timeoutMs: config.timeoutMs,
      apiKeyVar: "RAG_API_KEY",
    })
    .then((res) => ({ status: res.status, body: res.json() }))
    .catch((error: unknown) => {
      throw ToolFailure.isInstance(error) ? explain(error, url, config.timeoutMs) : error;
    });
  const data = normalizeResults(body, q.query, q.topK);
  if (data.results.length > 0) return data;
  // Only a real list of results, even an empty one, is an answer: an error object, `null`, `{}`, `"ok"`
  // or `{"status": "ok"}` under HTTP 200 say nothing about the material. Never "no course material
  // matches" for them: the model would tell a student the material lacks the topic.
  const failed = errorInBody(body);
  const unusable = failed === undefined ? unusableAnswer(body) : undefined;
  if (failed === undefined && unusable === undefined) return data;
  const said = unusable ? `${unusable}, not search results.` : `an error instead of results: ${failed}`;
  const hint = unusable
    ? " If it persists, the service behind RAG_SERVICE_URL may not be a RAG search service."
    : "";
  throw fail.upstream(`The RAG service at ${url.origin} answered HTTP ${status} with ${said}`, {
    status,
    suggestion: `This is a fault of the RAG service, not an empty result; try again in a moment.${hint}`,
  });
};
