/**
 * The shared HTTP client of `@quiver/core`. `src/index.ts` re-exports these names; import them
 * from `@quiver/core`, not from this folder.
 */
export { createHttpClient } from "./http-client.js";
export { bodyText } from "./read-response.js";
export {
  CREDENTIAL_HEADERS,
  collectSecrets,
  makeRedactor,
  REDACTED,
  type Redactor,
} from "./redact.js";
export { parseRetryAfter } from "./retry-after.js";
export { statusToKind } from "./status-to-kind.js";
export type * from "./types.js";
