import { fail } from "../errors.js";
import type { Redactor } from "./redact.js";

/** Redirects followed per request, same origin only. */
const MAX_REDIRECTS = 3;

/** Statuses the client treats as redirects. */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** Where to go next, and with which method; `dropBody` when the redirect turns the request into a GET. */
export interface RedirectStep {
  readonly url: URL;
  readonly method: string;
  readonly dropBody: boolean;
}

/** What {@link nextRedirect} needs to decide. */
export interface RedirectInput {
  readonly status: number;
  readonly location: string | undefined;
  readonly url: URL;
  readonly method: string;
  /** Redirects already followed for this request. */
  readonly followed: number;
  readonly service: string;
  readonly redact: Redactor;
}

/**
 * Decides whether to follow a redirect: only to the same origin (credentials never leave it),
 * at most {@link MAX_REDIRECTS} times; 303 (and 301/302 after a POST) become a GET without body.
 * Anything else is an `upstream` failure, not retryable.
 */
export const nextRedirect = (input: RedirectInput): RedirectStep => {
  const { status, url, method, redact } = input;
  let next: URL | undefined;
  try {
    next = input.location === undefined ? undefined : new URL(input.location, url);
  } catch {
    next = undefined;
  }
  const why =
    next === undefined
      ? "without a valid Location header"
      : next.origin !== url.origin
        ? `to another origin (${next.origin})`
        : input.followed >= MAX_REDIRECTS
          ? `more than ${MAX_REDIRECTS} times`
          : undefined;
  if (next === undefined || why !== undefined) {
    throw fail.upstream(redact(`${input.service} redirected ${method} ${url.href} ${why}; not followed`), {
      status,
      retryable: false,
      suggestion:
        next !== undefined && next.origin !== url.origin
          ? "The client follows redirects only within the service's own origin (credentials and requests never go to another host). If the service has moved, update its URL setting; otherwise use another source."
          : "The service answered with a broken redirect; retrying will not help. Use another source.",
    });
  }
  const toGet = status === 303 || ((status === 301 || status === 302) && method === "POST");
  return {
    url: next,
    method: toGet && method !== "HEAD" ? "GET" : method,
    dropBody: toGet,
  };
};
