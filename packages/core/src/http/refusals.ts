import { fail, type ToolFailure } from "../errors.js";
import type { Redactor } from "./redact.js";

/** Where a request is when the client refuses its answer: the hop, its last status, its service. */
export interface RequestAt {
  /** The URL and method of the current hop. */
  url: URL;
  method: string;
  /** The status of the last response, if one came. */
  status: number | undefined;
  /** The service name used in messages (the host when none was configured). */
  readonly service: string;
  /** Redacts the request's secrets from a text. */
  readonly redact: Redactor;
}

/** An `upstream` failure for an answer the client refuses: its message redacted, the last status kept. */
const refused = (at: RequestAt, message: string, retryable: boolean, suggestion: string): ToolFailure =>
  fail.upstream(at.redact(message), {
    ...(at.status === undefined ? {} : { status: at.status }),
    retryable,
    suggestion,
  });

const where = (at: RequestAt) => `${at.method} ${at.url.href}`;

/** A redirect not followed: off the service's origin (`crossOrigin`), without a valid `Location`, a loop ... */
export const redirectRefused = (at: RequestAt, why: string, crossOrigin: boolean): ToolFailure =>
  refused(
    at,
    `${at.service} redirected ${where(at)} ${why}; not followed`,
    false,
    crossOrigin
      ? "The client follows redirects only within the service's own origin (credentials and requests never go to another host). If the service has moved, update its URL setting; otherwise use another source."
      : "The service answered with a broken redirect; retrying will not help. Use another source.",
  );

/** A body over the limit: `codings` it came in (decoded past the limit: a decompression bomb), if any. */
export const bodyTooLarge = (
  at: RequestAt,
  limit: number,
  codings: ReadonlyArray<string> = [],
): ToolFailure =>
  codings.length > 0
    ? refused(
        at,
        `${at.service} sent a ${codings.join(", ")}-compressed response that decodes to more than ${limit} bytes (the body limit) for ${where(at)}; refused`,
        false,
        "Ask for less data (a narrower query, fewer results or a smaller page); if a small request decodes this large, the service is misbehaving: use another source.",
      )
    : refused(
        at,
        `${at.service} sent a response larger than ${limit} bytes for ${where(at)}`,
        false,
        "Ask for less data: a narrower query, fewer results or a smaller page.",
      );

/** An answer in a content coding the client cannot decode (`accepted`: the codings it asked for). */
export const unsupportedEncoding = (at: RequestAt, encoding: string, accepted: string): ToolFailure =>
  refused(
    at,
    `${at.service} sent a body in content-encoding "${encoding}", which the client cannot decode (it accepts ${accepted}), for ${where(at)}`,
    false,
    "The service ignores the encodings the client accepts; retrying will not help. Use another source, or report it to the plugin's maintainers.",
  );

/** A compressed body that does not decode (corrupt or cut short). */
export const bodyDecodeFailed = (at: RequestAt, encoding: string): ToolFailure =>
  refused(
    at,
    `${at.service} sent a ${encoding}-compressed body that does not decode (corrupt or cut short) for ${where(at)}`,
    true,
    "Try again in a moment; if it keeps failing, the service is sending broken data.",
  );
