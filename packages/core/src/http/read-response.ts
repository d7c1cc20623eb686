import type { Readable } from "node:stream";
import { bodyText, contentCodings } from "./decode-body.js";
import { headerValue } from "./http-response.js";
import { BodyTooLargeError, discardBody, readBody } from "./read-body.js";
import type { Redactor } from "./redact.js";
import type { RequestLifetime } from "./request-lifetime.js";
import { failureForStatus } from "./status-to-kind.js";
import type { HttpHeaders } from "./types.js";

/** How much of an error response is read to find the upstream's message. */
const ERROR_BODY_BYTES = 64 * 1024;

/**
 * Waits one event-loop turn after a body has been read, so undici marks the socket free before the
 * caller's next request: without it a sequential caller finds the socket still busy and the pool
 * opens (and handshakes) a second connection.
 */
const letPoolSettle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** One response, and what reading it needs to know of its request. */
export interface ResponseToRead {
  readonly status: number;
  readonly headers: HttpHeaders;
  readonly body: Readable;
  readonly method: string;
  readonly url: URL;
  readonly service: string;
  /** Statuses outside 2xx the caller takes as answers. */
  readonly accepted: ReadonlySet<number>;
  readonly maxBodyBytes: number;
  readonly lifetime: RequestLifetime;
  readonly sentCredentials: boolean;
  readonly apiKeyVar: string | undefined;
  readonly redact: Redactor;
}

/**
 * Reads a (non-redirect) response's body, decoded and within `maxBodyBytes` (also once decompressed);
 * a status that is not an answer throws its `ToolFailure` (`failureForStatus`), with the upstream's
 * message read from the first 64 KiB of its body.
 */
export const readResponse = async (r: ResponseToRead): Promise<Buffer> => {
  const bodyless = r.method === "HEAD" || r.status === 204 || r.status === 304;
  const encoding = headerValue(r.headers, "content-encoding");
  const touch = () => r.lifetime.touch();
  if (!((r.status >= 200 && r.status < 300) || r.accepted.has(r.status))) {
    let codings: string[] = [];
    try {
      codings = bodyless ? [] : contentCodings(encoding);
    } catch {
      // An error page in a coding we cannot decode: its status still says what happened.
    }
    const errorBody = await readBody(r.body, ERROR_BODY_BYTES, "truncate", touch, codings).catch(() =>
      Buffer.alloc(0),
    );
    r.lifetime.idle();
    await letPoolSettle();
    throw failureForStatus({
      status: r.status,
      headers: r.headers,
      body: bodyText(errorBody, headerValue(r.headers, "content-type")),
      method: r.method,
      url: r.redact(r.url.href),
      service: r.service,
      sentCredentials: r.sentCredentials,
      apiKeyVar: r.apiKeyVar,
      redact: r.redact,
    });
  }
  let codings: string[];
  try {
    codings = bodyless ? [] : contentCodings(encoding);
  } catch (error) {
    discardBody(r.body);
    throw error;
  }
  const declared = Number(headerValue(r.headers, "content-length"));
  if (r.method !== "HEAD" && Number.isFinite(declared) && declared > r.maxBodyBytes) {
    discardBody(r.body);
    throw new BodyTooLargeError(r.maxBodyBytes);
  }
  const bytes = await readBody(r.body, r.maxBodyBytes, "fail", touch, codings);
  r.lifetime.idle();
  await letPoolSettle();
  return bytes;
};
