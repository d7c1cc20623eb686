/**
 * The shared HTTP client of `@quiver/core`. `src/index.ts` re-exports these names; import them
 * from `@quiver/core`, not from this folder.
 */
export { createHttpClient } from "./http-client.js";
export { type Cassette, type CassetteInteraction, parseCassette } from "./record/cassette.js";
export { cassettePath } from "./record/cassette-file.js";
export {
  CASSETTE_MODES,
  type CassetteHttpClientOptions,
  type CassetteMode,
  createCassetteHttpClient,
} from "./record/cassette-http-client.js";
export type { ReplayTiming } from "./record/cassette-interceptor.js";
export { stringifyCassette } from "./record/stable-json.js";
export type { ToolCallInfo } from "./record/tool-call.js";
export { makeRedactor, REDACTED, type Redactor } from "./redact.js";
export { parseRetryAfter } from "./retry-after.js";
export { statusToKind } from "./status-to-kind.js";
export type {
  HeaderValue,
  HttpClient,
  HttpClientOptions,
  HttpHeaders,
  HttpJsonOptions,
  HttpMethod,
  HttpRequestOptions,
  HttpResponse,
  QueryValue,
} from "./types.js";
