import { fail, type ToolFailure } from "../errors.js";
import type { HopTrace } from "./types.js";

// The failures of answers the client refuses (a redirect off the origin, a body over the limit, a
// coding it cannot decode), built only when one happens: none runs on a call that succeeds.

/** An `upstream` failure for an answer the client refuses: its message redacted, the last status kept. */
export const refused = (at: HopTrace, message: string, suggestion: string, retryable = false): ToolFailure =>
  fail.upstream(at.redact(message), {
    ...(at.status === undefined ? {} : { status: at.status }),
    retryable,
    suggestion,
  });

export const where = (at: HopTrace) => `${at.method} ${at.url.href}`;

/** A redirect not followed: off the service's origin (`crossOrigin`), without a valid `Location`, a loop ... */
export const redirectRefused = (at: HopTrace, why: string, crossOrigin: boolean): ToolFailure =>
  refused(
    at,
    `${at.service} redirected ${where(at)} ${why}; not followed`,
    crossOrigin
      ? "The client follows redirects only within the service's own origin (credentials and requests never go to another host). If the service has moved, update its URL setting; otherwise use another source."
      : "The service answered with a broken redirect; retrying will not help. Use another source.",
  );

/** A body over the limit: `codings` it came in (decoded past the limit: a decompression bomb), if any. */
export const bodyTooLarge = (
  at: HopTrace,
  limit: number,
  codings: ReadonlyArray<string> = [],
): ToolFailure =>
  codings.length > 0
    ? refused(
        at,
        `${at.service} sent a ${codings.join(", ")}-compressed response that decodes to more than ${limit} bytes (the body limit) for ${where(at)}; refused`,
        "Ask for less data (a narrower query, fewer results or a smaller page); if a small request decodes this large, the service is misbehaving: use another source.",
      )
    : refused(
        at,
        `${at.service} sent a response larger than ${limit} bytes for ${where(at)}`,
        "Ask for less data: a narrower query, fewer results or a smaller page.",
      );

/** A compressed body that does not decode (corrupt or cut short). */
export const bodyDecodeFailed = (at: HopTrace, encoding: string): ToolFailure =>
  refused(
    at,
    `${at.service} sent a ${encoding}-compressed body that does not decode (corrupt or cut short) for ${where(at)}`,
    "Try again in a moment; if it keeps failing, the service is sending broken data.",
    true,
  );
