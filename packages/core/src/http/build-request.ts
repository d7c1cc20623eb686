import * as Redacted from "effect/Redacted";
import { fail } from "../errors.js";
import { isSensitiveParam, type Redactor, type Secret, secretValue } from "./redact.js";
import type { HeaderValue, HttpRequestOptions } from "./types.js";

/** Headers whose values are credentials even when given as plain strings (also scrubbed from cassettes). */
export const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set([
  "authorization",
  "proxy-authorization",
  "x-api-key",
  "api-key",
  "apikey",
  "x-auth-token",
  "x-access-token",
  "cookie",
]);

const isSecretLike = (value: unknown): value is Secret =>
  typeof value === "string" || Redacted.isRedacted(value);

/** What of a request names its target and its credentials. */
export type RequestParts = Pick<HttpRequestOptions, "url" | "baseUrl" | "query" | "headers" | "bearer">;

/**
 * The request's headers as given, with `bearer` as `authorization: Bearer <token>` (kept
 * `Redacted`); an `authorization` in `headers` wins over it.
 */
const requestHeaders = (
  opts: Pick<RequestParts, "headers" | "bearer">,
): Readonly<Record<string, HeaderValue>> =>
  opts.bearer === undefined
    ? (opts.headers ?? {})
    : { authorization: Redacted.make(`Bearer ${secretValue(opts.bearer)}`), ...opts.headers };

/**
 * Every value to redact for one request: the given secrets, the `bearer` token, `Redacted` header and
 * query values, credential headers (`authorization` — and its token without the scheme —,
 * `x-api-key` ...) and query parameters named like credentials (`api_key`, `token` ...).
 */
export const collectSecrets = (
  given: ReadonlyArray<Secret>,
  opts: Pick<RequestParts, "headers" | "query" | "bearer">,
): Secret[] => {
  const secrets: Secret[] = [...given];
  if (opts.bearer !== undefined) secrets.push(opts.bearer);
  for (const [name, value] of Object.entries(requestHeaders(opts))) {
    if (value === undefined) continue;
    if (Redacted.isRedacted(value) || CREDENTIAL_HEADERS.has(name.toLowerCase())) {
      secrets.push(value);
      const token = /^\s*\S+\s+(\S.*)$/.exec(secretValue(value))?.[1];
      if (token !== undefined && token.length >= 8) secrets.push(Redacted.make(token));
    }
  }
  for (const [name, value] of Object.entries(opts.query ?? {})) {
    if (Redacted.isRedacted(value)) secrets.push(value);
    else if (isSensitiveParam(name)) {
      if (Array.isArray(value)) secrets.push(...value);
      else if (isSecretLike(value)) secrets.push(value);
    }
  }
  return secrets;
};

const ABSOLUTE = /^[a-z][a-z0-9+.-]*:/i;

/**
 * `url` against `baseUrl`: an absolute `url` (or a `URL`) as is, a relative one joined to the base
 * with exactly one `/` between them, whatever slashes either has; the base's path is kept
 * (`https://h/api/` + `v1/x` → `https://h/api/v1/x`).
 *
 * @example
 * joinUrl("https://api.perplexity.ai/", "/search") // "https://api.perplexity.ai/search"
 */
export const joinUrl = (baseUrl: string | undefined, url: string | URL): string | URL => {
  if (baseUrl === undefined || typeof url !== "string" || ABSOLUTE.test(url)) return url;
  // By hand: WHATWG `new URL(url, base)` drops the base's last path segment and a leading `/` of url.
  return `${baseUrl.replace(/\/+$/, "")}/${url.replace(/^\/+/, "")}`;
};

/**
 * Parses the request URL (joined to `baseUrl`) and appends `query` (skipping `undefined`, repeating
 * arrays, unwrapping secrets). A malformed or non-HTTP URL is an `internal` failure (a bug in the
 * tool, not the input).
 */
export const buildUrl = (opts: Pick<RequestParts, "url" | "baseUrl" | "query">, redact: Redactor): URL => {
  const url = joinUrl(opts.baseUrl, opts.url);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw fail.internal(redact(`Invalid request URL: ${String(url)}`));
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw fail.internal(redact(`Unsupported URL scheme ${parsed.protocol} in ${parsed.href}`));
  }
  for (const [name, value] of Object.entries(opts.query ?? {})) {
    if (value === undefined) continue;
    if (Array.isArray(value))
      for (const item of value as ReadonlyArray<string>) parsed.searchParams.append(name, item);
    else if (Redacted.isRedacted(value)) parsed.searchParams.append(name, secretValue(value));
    else parsed.searchParams.append(name, String(value));
  }
  return parsed;
};

/** The request's headers with `bearer`: names lower-cased, `undefined` dropped, `Redacted` values unwrapped. */
export const buildHeaders = (opts: Pick<RequestParts, "headers" | "bearer">): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(requestHeaders(opts))) {
    if (value !== undefined) out[name.toLowerCase()] = secretValue(value);
  }
  return out;
};
