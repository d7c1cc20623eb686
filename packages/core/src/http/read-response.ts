import type { Readable } from "node:stream";
import { BodyDecodeError, bodyText } from "./decode-body.js";
import type { HopTrace } from "./hop-trace.js";
import { headerValue } from "./http-response.js";
import { BodyTooLargeError, discardBody, readBody } from "./read-body.js";
import type { Redactor } from "./redact.js";
import type { RequestLifetime } from "./request-lifetime.js";
import { failureForStatus } from "./status-to-kind.js";
import type { HttpHeaders } from "./types.js";

/** How much of an error response is read to find the upstream's message. */
const ERROR_BODY_BYTES = 64 * 1024;

/** Codes of the errors node:zlib raises for data that does not decode. */
const DECODER_CODES = /^(?:Z_|ERR_BROTLI|ERR_ZSTD)/;

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
  /** The body as undici's `decompress` interceptor gives it: decoded. */
  readonly body: Readable;
  /** The request's hop, last status and the codings its body came in. */
  readonly trace: HopTrace;
  readonly service: string;
  readonly maxBodyBytes: number;
  readonly lifetime: RequestLifetime;
  readonly sentCredentials: boolean;
  readonly apiKeyVar: string | undefined;
  readonly redact: Redactor;
}

/**
 * Reads `body` within `limit` decoded bytes; a body that does not decode throws `BodyDecodeError`,
 * and an empty body that declares a coding is an empty body (servers do send those).
 */
const readDecoded = async (r: ResponseToRead, limit: number, overflow: "fail" | "truncate") => {
  const { codings } = r.trace;
  try {
    return await readBody(
      r.body,
      limit,
      overflow,
      () => r.lifetime.touch(),
      () => new BodyTooLargeError(limit, codings),
    );
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (codings.length === 0 || typeof code !== "string" || !DECODER_CODES.test(code)) throw error;
    if (r.trace.rawBytes === 0) return Buffer.alloc(0);
    throw new BodyDecodeError(codings.join(", "), error);
  }
};

/**
 * Reads a (non-redirect) response's body, decoded and within `maxBodyBytes` (counted once
 * decompressed: a decompression bomb stops at the limit); a status that is not an answer throws its
 * `ToolFailure` (`failureForStatus`), with the upstream's message read from the first 64 KiB of its body.
 */
export const readResponse = async (r: ResponseToRead): Promise<Buffer> => {
  const { trace } = r;
  if (!((r.status >= 200 && r.status < 300) || trace.accepted.has(r.status))) {
    const errorBody = await readDecoded(r, ERROR_BODY_BYTES, "truncate").catch(() => Buffer.alloc(0));
    r.lifetime.idle();
    await letPoolSettle();
    throw failureForStatus({
      status: r.status,
      headers: r.headers,
      body: bodyText(errorBody, headerValue(r.headers, "content-type")),
      method: trace.method,
      url: r.redact(trace.url.href),
      service: r.service,
      sentCredentials: r.sentCredentials,
      apiKeyVar: r.apiKeyVar,
      redact: r.redact,
    });
  }
  const declared = Number(headerValue(r.headers, "content-length"));
  if (trace.method !== "HEAD" && Number.isFinite(declared) && declared > r.maxBodyBytes) {
    discardBody(r.body);
    throw new BodyTooLargeError(r.maxBodyBytes);
  }
  const bytes = await readDecoded(r, r.maxBodyBytes, "fail");
  r.lifetime.idle();
  await letPoolSettle();
  return bytes;
};
