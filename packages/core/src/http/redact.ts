import * as Redacted from "effect/Redacted";
import type { HttpRequestOptions, Secret } from "./types.js";

/** What a secret is replaced with in messages, URLs and error text. */
export const REDACTED = "[REDACTED]";

/**
 * Parameter names (lower case, without `-`/`_`) whose values are always masked in URLs, besides
 * those ending in one of {@link SENSITIVE_SUFFIXES}.
 */
const SENSITIVE_PARAMS: ReadonlySet<string> = new Set([
  "key",
  "passwd",
  "pwd",
  "auth",
  "authorization",
  "signature",
  "sig",
  "credential",
  "credentials",
  "session",
  "sessionid",
]);

const SENSITIVE_SUFFIXES = ["apikey", "token", "secret", "password", "privatekey"] as const;

/**
 * Whether a query parameter name looks like it carries a credential (`api_key`, `apiKey`,
 * `access_token`, `client_secret`, `X-API-Key` ...).
 *
 * @example
 * isSensitiveParam("api_key") // true
 * isSensitiveParam("search")  // false
 */
export const isSensitiveParam = (name: string): boolean => {
  let decoded = name;
  try {
    decoded = decodeURIComponent(name);
  } catch {
    // keep the raw name
  }
  const normalized = decoded.toLowerCase().replace(/[-_.\s]/g, "");
  if (normalized.startsWith("x") && SENSITIVE_PARAMS.has(normalized.slice(1))) return true;
  return SENSITIVE_PARAMS.has(normalized) || SENSITIVE_SUFFIXES.some((suffix) => normalized.endsWith(suffix));
};

// `?name=value` / `&name=value` anywhere in a text (a URL inside an error message included).
const QUERY_PARAM = /([?&;])([^=&#\s"'<>?;]+)=([^&#\s"'<>;]*)/g;
// `scheme://user:password@host`
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^/?#\s@"'<>]+@/gi;

/**
 * Masks credentials in every URL that appears in a text: values of sensitive query parameters
 * and `user:password@` parts become `[REDACTED]`.
 *
 * @example
 * maskUrls("GET https://x.test/a?api_key=abc&q=1") // "GET https://x.test/a?api_key=[REDACTED]&q=1"
 */
export const maskUrls = (text: string): string =>
  text
    .replace(QUERY_PARAM, (match, sep: string, name: string, value: string) =>
      value !== "" && isSensitiveParam(name) ? `${sep}${name}=${REDACTED}` : match,
    )
    .replace(USERINFO, `$1${REDACTED}@`);

/** Reads the plain value of a secret; the only place the HTTP client unwraps one. */
export const secretValue = (secret: Secret): string =>
  Redacted.isRedacted(secret) ? Redacted.value(secret) : secret;

/** Replaces secrets and credential-looking URL parameters in a text. */
export type Redactor = (text: string) => string;

/**
 * Builds a redactor for a set of secrets: each value (and its URL-encoded forms) is replaced with
 * `[REDACTED]`, then {@link maskUrls} masks sensitive query parameters in any URL left in the text.
 * Empty secrets are ignored; longer secrets are replaced first so a secret containing another is
 * not half-revealed. With `{ urls: false }` only the secrets are replaced (for data, where a URL's
 * `sig=` or `token=` parameter is part of the answer, not a leak), and no secrets means no change.
 *
 * @example
 * const redact = makeRedactor([Redacted.make("s3cr3t")])
 * redact("bad key s3cr3t") // "bad key [REDACTED]"
 */
export const makeRedactor = (
  secrets: Iterable<Secret> = [],
  options: { readonly urls?: boolean } = {},
): Redactor => {
  const needles = new Set<string>();
  for (const secret of secrets) {
    const value = secretValue(secret);
    if (value === "") continue;
    const forms = [encodeURIComponent(value), new URLSearchParams({ v: value }).toString().slice(2)];
    for (const form of [value, ...forms, JSON.stringify(value).slice(1, -1)]) needles.add(form);
  }
  const ordered = [...needles].filter((n) => n !== "").sort((a, b) => b.length - a.length);
  const { urls = true } = options;
  if (!urls && ordered.length === 0) return (text) => text;
  return (text) => {
    let out = text;
    for (const needle of ordered) out = out.split(needle).join(REDACTED);
    return urls ? maskUrls(out) : out;
  };
};

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

/**
 * Every value to redact for one request: the given secrets, the `bearer` token, `Redacted` header and
 * query values, credential headers (`authorization` — and its token without the scheme —,
 * `x-api-key` ...) and query parameters named like credentials (`api_key`, `token` ...).
 *
 * @example
 * collectSecrets([], { query: { api_key: "k-123" }, bearer: Redacted.make("tok") }) // the token and "k-123"
 */
export const collectSecrets = (
  given: ReadonlyArray<Secret>,
  opts: Pick<HttpRequestOptions, "headers" | "query" | "bearer">,
): Secret[] => {
  const secrets: Secret[] = [...given];
  if (opts.bearer !== undefined) secrets.push(opts.bearer);
  for (const [name, value] of Object.entries(opts.headers ?? {})) {
    if (value === undefined || !(Redacted.isRedacted(value) || CREDENTIAL_HEADERS.has(name.toLowerCase())))
      continue;
    secrets.push(value);
    const token = /^\s*\S+\s+(\S.*)$/.exec(secretValue(value))?.[1];
    if (token !== undefined && token.length >= 8) secrets.push(Redacted.make(token));
  }
  for (const [name, value] of Object.entries(opts.query ?? {})) {
    if (Redacted.isRedacted(value)) secrets.push(value);
    else if (isSensitiveParam(name) && (typeof value === "string" || Array.isArray(value)))
      secrets.push(...[value].flat());
  }
  return secrets;
};
