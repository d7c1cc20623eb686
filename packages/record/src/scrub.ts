import { CREDENTIAL_HEADERS, makeRedactor, REDACTED, type Secret } from "@quiver/core";

/** What the caller's principal is replaced with in a cassette. */
export const PRINCIPAL = "[PRINCIPAL]";

/**
 * Request headers left out of a cassette: they change between runs or versions (`user-agent` names
 * the core version, `x-request-id` the call) and no upstream answer depends on them in a replay.
 */
const VOLATILE_REQUEST_HEADERS: ReadonlySet<string> = new Set([
  "user-agent",
  "accept-encoding",
  "x-request-id",
  "content-length",
  "host",
  "connection",
  "traceparent",
  "tracestate",
]);

/**
 * Response headers left out of a cassette: they describe one transfer or one moment (`date`,
 * `set-cookie`, request ids), so keeping them would change the file at every re-recording.
 */
const VOLATILE_RESPONSE_HEADERS: ReadonlySet<string> = new Set([
  "date",
  "age",
  "expires",
  "set-cookie",
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "etag",
  "last-modified",
  "x-request-id",
  "request-id",
  "x-amzn-requestid",
  "x-amz-cf-id",
  "x-amz-cf-pop",
  "cf-ray",
  "server-timing",
  "report-to",
  "nel",
  "x-runtime",
  "x-cache",
  "via",
]);

/**
 * Takes secrets and the caller's principal out of what goes into a cassette: every known secret
 * value (and its URL/JSON encodings) becomes `[REDACTED]`, as do values of credential-looking query
 * parameters (`api_key`, `token` ...) and credential headers; the principal becomes `[PRINCIPAL]`.
 * Replay scrubs the live request the same way before matching, so a cassette recorded with real
 * keys matches a run with placeholder keys.
 */
export interface Scrubber {
  /** A URL or any text. */
  text(value: string): string;
  /** A JSON value: every string in it (keys too). */
  json(value: unknown): unknown;
  /** Request headers: credentials redacted, volatile ones dropped, names lower-cased, sorted. */
  requestHeaders(headers: Readonly<Record<string, string>>): Record<string, string>;
}

/**
 * Builds the scrubber of one tool call (its plugin's secrets, the request's secrets, its principal).
 *
 * @example
 * makeScrubber(["k3y"], "alice").text("https://x.test/?key=k3y&who=alice")
 * // "https://x.test/?key=[REDACTED]&who=[PRINCIPAL]"
 */
export const makeScrubber = (secrets: Iterable<Secret>, principal: string | undefined): Scrubber => {
  const redact = makeRedactor(secrets);
  const usePrincipal = principal !== undefined && principal !== "";
  const needles = usePrincipal
    ? [...new Set([principal, encodeURIComponent(principal), JSON.stringify(principal).slice(1, -1)])]
    : [];
  const text = (value: string): string => {
    if (usePrincipal && value === principal) return PRINCIPAL;
    let out = redact(value);
    // A short principal ("a") would mangle unrelated text: only whole values and longer names.
    if (usePrincipal && principal.length >= 4) for (const n of needles) out = out.split(n).join(PRINCIPAL);
    return out;
  };
  const json = (value: unknown): unknown => {
    if (typeof value === "string") return text(value);
    if (Array.isArray(value)) return value.map(json);
    if (typeof value !== "object" || value === null) return value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [text(k), json(v)]));
  };
  const requestHeaders = (headers: Readonly<Record<string, string>>): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const name of Object.keys(headers).sort()) {
      const lower = name.toLowerCase();
      if (VOLATILE_REQUEST_HEADERS.has(lower)) continue;
      out[lower] = CREDENTIAL_HEADERS.has(lower) ? REDACTED : text(headers[name]!);
    }
    return out;
  };
  return { text, json, requestHeaders };
};

/** Response headers worth keeping in a cassette: lower-case names, volatile ones dropped, sorted. */
export const keptResponseHeaders = (
  headers: Readonly<Record<string, string | string[] | undefined>>,
): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const name of Object.keys(headers).sort()) {
    const lower = name.toLowerCase();
    const value = headers[name];
    if (value === undefined || VOLATILE_RESPONSE_HEADERS.has(lower)) continue;
    out[lower] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
};
