import type { HttpHeaders } from "./types.js";

/** The longest wait the HTTP client reports in `retryAfterMs` (one hour); longer hints are clamped. */
export const MAX_RETRY_AFTER_MS = 60 * 60 * 1000;

const DELTA_SECONDS = /^\d+(?:\.\d+)?$/;
const DURATION =
  /^(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m(?!s))?(?:(\d+(?:\.\d+)?)s)?(?:(\d+(?:\.\d+)?)ms)?$/;

/**
 * Parses a `Retry-After` header into milliseconds to wait: delta-seconds (`"120"`) or an
 * HTTP-date (`"Wed, 21 Oct 2015 07:28:00 GMT"`, measured from `now`). A date in the past gives 0;
 * anything else (empty, negative, garbage) gives `undefined`. Not clamped: see
 * {@link retryAfterFromHeaders} for the value the client reports.
 *
 * @example
 * parseRetryAfter("2")                                  // 2000
 * parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT", Date.now()) // ms until then, or 0
 * parseRetryAfter("soon")                               // undefined
 */
export const parseRetryAfter = (
  header: string | null | undefined,
  now: number | Date = Date.now(),
): number | undefined => {
  const value = header?.trim();
  if (!value) return undefined;
  if (DELTA_SECONDS.test(value)) return Math.round(Number.parseFloat(value) * 1000);
  // An HTTP-date always names a day or month; this keeps Date.parse from accepting "1" or "-5".
  if (!/[a-z]{3}/i.test(value)) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Number(now));
};

/** Parses a duration like `"6m0s"`, `"1.5s"`, `"20ms"` (OpenAI's `x-ratelimit-reset-*`). */
const parseDuration = (value: string): number | undefined => {
  const match = value.trim() === "" ? null : DURATION.exec(value.trim());
  if (!match) return undefined;
  const [h, m, s, ms] = match.slice(1).map((part) => Number(part ?? 0));
  return Math.round(h! * 3_600_000 + m! * 60_000 + s! * 1000 + ms!);
};

/**
 * Parses a rate-limit reset value: delta seconds (IETF `RateLimit-Reset`), epoch seconds (GitHub's
 * `x-ratelimit-reset`), epoch milliseconds, or a duration (`"6m0s"`).
 */
const parseReset = (value: string, now: number): number | undefined => {
  const trimmed = value.trim();
  if (DELTA_SECONDS.test(trimmed)) {
    const n = Number.parseFloat(trimmed);
    if (n > 1e12) return Math.max(0, n - now);
    if (n > 1e9) return Math.max(0, n * 1000 - now);
    return Math.round(n * 1000);
  }
  return parseDuration(trimmed);
};

const first = (headers: HttpHeaders, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * How long to wait before retrying, from a response's headers, clamped to
 * `[0, MAX_RETRY_AFTER_MS]`. Reads, in order: `retry-after-ms`, `retry-after`, the IETF
 * `ratelimit` / `ratelimit-reset`, `x-ratelimit-reset` / `x-rate-limit-reset`, and OpenAI's
 * `x-ratelimit-reset-requests` / `x-ratelimit-reset-tokens`. Header names must be lower case
 * (as undici gives them).
 *
 * @example
 * retryAfterFromHeaders({ "retry-after": "3" }) // 3000
 */
export const retryAfterFromHeaders = (
  headers: HttpHeaders,
  now: number | Date = Date.now(),
): number | undefined => {
  const nowMs = Number(now);
  const retryAfterMs = first(headers, "retry-after-ms")?.trim();
  const reset = /(?:^|[;,\s])(?:reset|t)=(\d+)/.exec(first(headers, "ratelimit") ?? "")?.[1];
  const openAiWaits = ["x-ratelimit-reset-requests", "x-ratelimit-reset-tokens"].flatMap(
    (name) => parseDuration(first(headers, name) ?? "") ?? [],
  );
  const ms = [
    retryAfterMs !== undefined && DELTA_SECONDS.test(retryAfterMs)
      ? Number.parseFloat(retryAfterMs)
      : undefined,
    parseRetryAfter(first(headers, "retry-after"), nowMs),
    reset === undefined ? undefined : Number.parseInt(reset, 10) * 1000,
    ...["ratelimit-reset", "x-ratelimit-reset", "x-rate-limit-reset"].map((name) =>
      parseReset(first(headers, name) ?? "", nowMs),
    ),
    openAiWaits.length > 0 ? Math.max(...openAiWaits) : undefined,
  ].find((ms) => ms !== undefined && Number.isFinite(ms));
  return ms === undefined ? undefined : Math.min(MAX_RETRY_AFTER_MS, Math.max(0, Math.round(ms)));
};
