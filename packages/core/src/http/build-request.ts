import * as Redacted from "effect/Redacted";
import { fail } from "../errors.js";
import { isSensitiveParam, type Redactor, type Secret, secretValue } from "./redact.js";
import type { HeaderValue, QueryValue } from "./types.js";

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

/**
 * Every value to redact for one request: the given secrets, `Redacted` header and query values,
 * credential headers (`authorization` — and its token without the scheme —, `x-api-key` ...)
 * and query parameters named like credentials (`api_key`, `token` ...).
 */
export const collectSecrets = (
  given: ReadonlyArray<Secret>,
  headers: Readonly<Record<string, HeaderValue>> = {},
  query: Readonly<Record<string, QueryValue>> = {},
): Secret[] => {
  const secrets: Secret[] = [...given];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    if (Redacted.isRedacted(value) || CREDENTIAL_HEADERS.has(name.toLowerCase())) {
      secrets.push(value);
      const token = /^\s*\S+\s+(\S.*)$/.exec(secretValue(value))?.[1];
      if (token !== undefined && token.length >= 8) secrets.push(Redacted.make(token));
    }
  }
  for (const [name, value] of Object.entries(query)) {
    if (Redacted.isRedacted(value)) secrets.push(value);
    else if (isSensitiveParam(name)) {
      if (Array.isArray(value)) secrets.push(...value);
      else if (isSecretLike(value)) secrets.push(value);
    }
  }
  return secrets;
};

/**
 * Parses the request URL and appends `query` (skipping `undefined`, repeating arrays, unwrapping
 * secrets). A malformed or non-HTTP URL is an `internal` failure (a bug in the tool, not the input).
 */
export const buildUrl = (
  url: string | URL,
  query: Readonly<Record<string, QueryValue>> = {},
  redact: Redactor,
): URL => {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw fail.internal(redact(`Invalid request URL: ${String(url)}`));
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw fail.internal(redact(`Unsupported URL scheme ${parsed.protocol} in ${parsed.href}`));
  }
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value))
      for (const item of value as ReadonlyArray<string>) parsed.searchParams.append(name, item);
    else if (Redacted.isRedacted(value)) parsed.searchParams.append(name, secretValue(value));
    else parsed.searchParams.append(name, String(value));
  }
  return parsed;
};

/** Lower-cases header names, drops `undefined` and unwraps `Redacted` values. */
export const buildHeaders = (headers: Readonly<Record<string, HeaderValue>> = {}): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = secretValue(value);
  }
  return out;
};
