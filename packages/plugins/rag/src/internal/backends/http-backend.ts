import { fail, type HttpClient, ToolFailure } from "@quiver/core";
import * as Redacted from "effect/Redacted";
import type { RagConfig } from "../../config.js";
import { normalizeResults } from "../normalize-results.js";
import type { RagOutput, RagQuery } from "../output.js";

/**
 * Rewrites a client failure so the three cases a model must tell apart read differently:
 * the service too slow (timeout), not reachable (unavailable), or answering badly (upstream / status).
 */
const explain = (error: ToolFailure, origin: string, timeoutMs: number): ToolFailure => {
  const keep = {
    ...(error.retryable !== undefined ? { retryable: error.retryable } : {}),
    ...(error.retryAfterMs !== undefined ? { retryAfterMs: error.retryAfterMs } : {}),
    ...(error.status !== undefined ? { status: error.status } : {}),
    cause: error,
  };
  switch (error.kind) {
    case "timeout":
      return fail.timeout(`The RAG service at ${origin} did not answer within ${timeoutMs} ms.`, {
        ...keep,
        suggestion: "Try again with a shorter query, or ask the operator to raise RAG_TIMEOUT_MS.",
      });
    case "unavailable":
      return fail.unavailable(`Cannot connect to the RAG service at ${origin}: ${error.message}`, {
        ...keep,
        suggestion: "Check RAG_SERVICE_URL and that the RAG service is running.",
      });
    case "upstream":
      return fail.upstream(
        error.status !== undefined && error.status >= 400
          ? `The RAG service at ${origin} answered with a bad status (HTTP ${error.status}): ${error.message}`
          : `The RAG service at ${origin} sent an unusable answer: ${error.message}`,
        keep,
      );
    case "access_denied":
      return fail.accessDenied(`The RAG service at ${origin} refused the credentials: ${error.message}`, {
        ...keep,
        suggestion: "Check RAG_API_KEY.",
      });
    default:
      return error;
  }
};

/**
 * Searches an HTTP RAG service: POST {serviceUrl}/search with `{query, asignatura?, tipo_documento?, top_k}`
 * (the original chatbot's request), then normalises whatever shape comes back.
 */
export const searchHttp = async (
  http: HttpClient,
  config: RagConfig,
  q: RagQuery,
  signal: AbortSignal,
): Promise<RagOutput> => {
  const base = config.serviceUrl!.replace(/\/+$/, "");
  const url = base.endsWith("/search") ? base : `${base}/search`;
  const origin = new URL(url).origin;
  try {
    const res = await http.request({
      method: "POST",
      url,
      json: {
        query: q.query,
        ...(q.asignatura ? { asignatura: q.asignatura } : {}),
        ...(q.tipo_documento ? { tipo_documento: q.tipo_documento } : {}),
        top_k: q.topK,
      },
      headers: {
        accept: "application/json",
        authorization: config.apiKey ? Redacted.make(`Bearer ${Redacted.value(config.apiKey)}`) : undefined,
      },
      signal,
      timeoutMs: config.timeoutMs,
      acceptStatus: [404],
      apiKeyVar: "RAG_API_KEY",
    });
    if (res.status === 404) {
      throw fail.upstream(
        `The RAG service at ${origin} has no ${new URL(url).pathname} endpoint (HTTP 404).`,
        {
          retryable: false,
          status: 404,
          suggestion: "Check RAG_SERVICE_URL: it should be the service's base URL, without /search.",
        },
      );
    }
    return normalizeResults(res.json(), q.query, q.topK);
  } catch (error) {
    if (ToolFailure.isInstance(error) && error.status !== 404) throw explain(error, origin, config.timeoutMs);
    throw error;
  }
};
